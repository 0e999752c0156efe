"""The mechanic contract stays narrow: the rules of a phase and what a seat may observe of it
(interpreter/mechanics/base.py). What a tool alone asks of a phase lives in that tool's
registry, by mechanic class (tools/mechanic_hooks.py), never on the mechanics again.
"""

from __future__ import annotations

import inspect
from typing import Any, get_type_hints

import pytest

from amunre.interpreter.mechanics import MECHANICS, base
from amunre.interpreter.mechanics.base import Mechanic
from amunre.tools import determinize, lint_decks
from amunre.tools.agents import forecast
from amunre.tools.mechanic_hooks import entry
from amunre.tools.simulate import picks

# The hooks that left the mechanics, and the registry of the tool that now holds each.
MOVED = {
    "deck_flows": "DECK_FLOWS", "DeckFlow": "DECK_FLOWS",
    "possible_picks": "POSSIBLE_PICKS", "picked_keys": "PICKED_KEYS",
    "forecast": "FORECASTS", "forecast_all": "FORECASTS_ALL",
    "hidden_cards": "HIDDEN_CARDS", "seen_cards": "SEEN_CARDS", "resample": "RESAMPLE",
}
REGISTRIES: dict[str, dict[type, Any]] = {
    "DECK_FLOWS": lint_decks.DECK_FLOWS,
    "POSSIBLE_PICKS": picks.POSSIBLE_PICKS, "PICKED_KEYS": picks.PICKED_KEYS,
    "FORECASTS": forecast.FORECASTS, "FORECASTS_ALL": forecast.FORECASTS_ALL,
    "HIDDEN_CARDS": determinize.HIDDEN_CARDS, "SEEN_CARDS": determinize.SEEN_CARDS,
    "RESAMPLE": determinize.RESAMPLE,
}
FUNCTIONS = [name for name in REGISTRIES if name != "PICKED_KEYS"]     # PICKED_KEYS holds data


def every_mechanic_class() -> list[type[Mechanic]]:
    """Mechanic and every class derived from it that is loaded (the registered ones, the auction's styles)."""
    found: list[type[Mechanic]] = []
    todo: list[type[Mechanic]] = [Mechanic]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return found


def test_the_registries_are_the_moved_hooks() -> None:
    assert set(MOVED.values()) == set(REGISTRIES)


@pytest.mark.parametrize("hook", sorted(MOVED))
def test_no_mechanic_has_a_hook_a_tool_keeps(hook: str) -> None:
    """Neither the base class nor any mechanic (nor the module of the contract) has it back."""
    assert not hasattr(base, hook), f"interpreter/mechanics/base.py defines {hook}: it is {MOVED[hook]}'s"
    holders = [cls.__name__ for cls in every_mechanic_class() if hasattr(cls, hook)]
    assert holders == [], f"{holders} define {hook}: give the tool's registry {MOVED[hook]} an entry instead"


def test_the_contract_is_still_there() -> None:
    """What the engine calls stays in the mechanic: the rules, and what a seat may observe."""
    for hook in ("begin", "auto", "to_move", "legal", "apply", "pass_turn", "end", "observe", "private",
                 "tensor_pieces"):
        assert callable(getattr(Mechanic, hook)), hook


@pytest.mark.parametrize("registry", sorted(REGISTRIES))
def test_every_key_is_a_registered_mechanic(registry: str) -> None:
    """A key is a mechanic of MECHANICS or a class one is made as (an auction's style)."""
    mechanics = tuple(MECHANICS.values())
    strays = [key for key in REGISTRIES[registry] if not (isinstance(key, type) and issubclass(key, mechanics))]
    assert strays == [], f"{registry} has keys that are no mechanic of MECHANICS: {strays}"


@pytest.mark.parametrize("registry", FUNCTIONS)
def test_every_function_takes_the_class_it_is_filed_under(registry: str) -> None:
    for key, function in REGISTRIES[registry].items():
        first = next(iter(inspect.signature(function).parameters))
        takes = get_type_hints(function)[first]
        assert isinstance(takes, type) and issubclass(key, takes), \
            f"{registry}[{key.__name__}] is {function.__name__}, which takes a {takes}"


def test_a_phase_that_forecasts_for_all_seats_forecasts_for_one() -> None:
    """`forecasters` finds a phase by FORECASTS, then asks FORECASTS_ALL for all seats at once."""
    assert set(forecast.FORECASTS_ALL) <= set(forecast.FORECASTS)


def test_an_entry_serves_derived_classes_unless_they_have_their_own() -> None:
    class Top:
        pass

    class Middle(Top):
        pass

    class Bottom(Middle):
        pass

    class Other:
        pass

    registry = {Top: "top", Bottom: "bottom"}
    assert entry(registry, Top()) == "top"
    assert entry(registry, Middle()) == "top"
    assert entry(registry, Bottom()) == "bottom"
    assert entry(registry, Other()) is None
