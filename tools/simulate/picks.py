"""What `amunre simulate` counts as a phase's picks, by mechanic: simulate's own registries
(tools/mechanic_hooks.py), not the mechanics', since nothing else asks.

A phase keeps what it picked in `state.kept[phase]` (a row of a table, an option chosen, a
card turned up). `PICKED_KEYS` names, per mechanic, the keys of what it keeps that are picks
(a mechanic not there: every key with a plain value); `POSSIBLE_PICKS` lists every pick
(key, value) a phase of the mechanic may keep, so that a report can say which never happened
(a mechanic not there: none listed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...interpreter.mechanics.base import Mechanic
from ...interpreter.mechanics.lay_card import LayCard
from ...interpreter.mechanics.market import Market
from ...interpreter.mechanics.reveal import Reveal
from ...interpreter.mechanics.secret_offer import SecretOffer
from ...interpreter.mechanics.select import Select
from ...interpreter.model import Rules
from ..mechanic_hooks import entry

Pick = tuple[str, Any]          # (key, value) kept in state.kept[phase]

PICKED_KEYS: dict[type[Mechanic], tuple[str, ...]] = {
    Market: (),                  # what it keeps is a count, not a pick
    LayCard: ("card",),
    SecretOffer: ("tile",),
    Select: ("chosen",),         # the option, not who chose it, nor the round's list of options taken
}


def _turned_up(mech: Reveal, rules: Rules) -> tuple[Pick, ...]:
    """Every place of the deck, by its index, in the deck's order."""
    index = rules.place_index
    return tuple(("card", index[place]) for place in rules.decks[mech.deck].places if place in index)


def _tiles(mech: SecretOffer, rules: Rules) -> tuple[Pick, ...]:
    return tuple(("tile", row.id) for row in mech.tiles)


def _options(mech: Select, rules: Rules) -> tuple[Pick, ...]:
    return tuple(("chosen", option) for option in mech.options)


POSSIBLE_PICKS: dict[type[Mechanic], Callable[[Any, Rules], tuple[Pick, ...]]] = {
    Reveal: _turned_up, SecretOffer: _tiles, Select: _options}


def picked_keys(mech: Mechanic) -> tuple[str, ...] | None:
    """The keys of what the phase keeps that are picks; None: every key with a plain value."""
    return entry(PICKED_KEYS, mech)


def possible_picks(mech: Mechanic, rules: Rules) -> tuple[Pick, ...]:
    """Every pick (key, value) the phase may keep (none, for a mechanic not in POSSIBLE_PICKS)."""
    found = entry(POSSIBLE_PICKS, mech)
    return found(mech, rules) if found is not None else ()
