"""The registry of mechanic primitives, by the name a rules file's `mechanic:` uses."""

from .auction import Auction
from .card_window import CardWindow
from .income import Income
from .market import Market
from .offering import SecretOffer
from .reset import Reset
from .scoring import Score

MECHANICS = {cls.name: cls for cls in (Auction, Market, SecretOffer, Income, CardWindow, Score, Reset)}
