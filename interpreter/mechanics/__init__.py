"""The registry of mechanic primitives, by the name a rules file's `mechanic:` uses.

A mechanic is registered by listing its class here: its declarations (parameters, actions,
events, hidden fields, DSL names) are all the schema, the reference docs and the engine need.
"""

from . import lot_auction, placement  # noqa: F401  (each registers its auction styles)
from .auction import Auction
from .card_window import CardWindow
from .deal import Deal
from .draft import Draft
from .income import Income
from .lay_card import LayCard
from .market import Market
from .moves import Moves
from .reset import Reset
from .reveal import Reveal
from .score import Score
from .secret_offer import SecretOffer
from .secret_pick import SecretPick
from .select import Select
from .transition import Transition

MECHANICS = {cls.name: cls for cls in (Auction, Market, SecretOffer, Income, CardWindow, Score, Reset, Deal,
                                        SecretPick, Moves, Select, Draft, Reveal, Transition, LayCard)}
