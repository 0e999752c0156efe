"""Positions of Pharaoh's Heir set up for its worked examples: a 3-player game (Bob, Ted and
Carol, clockwise) jumped to one action of a turn, with the mats, grain and Nile tile the
example describes. The state is changed only as a game could have reached it: tokens come
from the supplies, tiles are claimed and placed in their columns."""

from __future__ import annotations

from typing import Any

import amunre
from amunre.interpreter.base.causes import Cause
from amunre.interpreter.play import flow, material, modifiers
from conftest import REPO, move_to

RULES_PATH = REPO / "rules" / "pharaohs-heir.yaml"
BOB, TED, CAROL = 0, 1, 2
SCENARIO = Cause("start", "scenario")          # what a position set up by hand is put down to

Mat = dict[str, dict[str, int]]                  # "village", "temple", "crop", "river": tokens
Tiles = list[tuple[str, str, dict[str, int]]]    # (land tile, the column it lies in, tokens)


def space(game: amunre.Game, seat: int, name: str) -> int:
    """A seat's mat space by its name (village, temple, crop, river, coins_3), or a tile id."""
    index = game.rules.place_index
    return index[f"mat{seat + 1}_{name}"] if f"mat{seat + 1}_{name}" in index else index[name]


def tokens(game: amunre.Game, seat: int, name: str) -> dict[str, int]:
    return {k: v for k, v in game.state.tokens[space(game, seat, name)].items() if v}


def set_mat(game: amunre.Game, seat: int, mat: Mat | None = None, tiles: Tiles = (), grain: int | None = None) -> None:
    """The seat's mat as given: its own tiles' tokens (a name left out keeps none), then land
    tiles claimed into their columns (one below the other, in the order given)."""
    rules, state = game.rules, game.state
    for name in ("village", "temple", "crop", "river"):
        p = space(game, seat, name)
        for token, count in list(state.tokens[p].items()):
            material.remove_tokens(game, p, token, count, SCENARIO)
        for token, count in (mat or {}).get(name, {}).items():
            assert material.place_tokens(game, p, token, count, SCENARIO) == count
    serves, tier = rules.vocab.modifiers["serves_as"], rules.vocab.modifiers["tier"]
    places = len(rules.place_ids)
    for tile, column, held in tiles:
        p = rules.place_index[tile]
        below = sum(1 for q in material.owned_places(game, seat) if modifiers.read(state, serves, q) == column)
        material.set_owner(game, p, seat, SCENARIO)
        modifiers.write(state, serves, p, column, places)
        modifiers.write(state, tier, p, below, places)
        for token, count in held.items():
            assert material.place_tokens(game, p, token, count, SCENARIO) == count
        for pile in (state.decks["land_tiles"], state.shown.get("land_tiles", []), state.boxed["land_tiles"]):
            if tile in pile:
                pile.remove(tile)
                state.discards["land_tiles"].append(tile)
    if grain is not None:
        state.resources[seat]["grain"] = grain


def at_action(rules: Any, action: str, chooser: int, nile: str = "nile_3a", level: int | None = None,
              turn: int = 2, setup: dict[str, Any] | None = None) -> amunre.Game:
    """A 3-player game in turn `turn` of the 1st cycle, just before `action`, chosen by
    `chooser`, is carried out, with `nile` the turn's Nile tile (`level`: the last number).
    Call set_mat for each seat, then begin(game)."""
    game = amunre.new_game(rules, players=3, seed=1, setup={"start_player": chooser, **(setup or {})})
    state = game.state
    move_to(game, action, age=1, round=turn)
    state.start_player = (chooser + 1) % 3                # the Blessing has passed on
    state.kept["overseer"] = {"chosen": action, "chooser": chooser, "taken": [action], "when": [1, turn]}
    card = rules.place_index[nile]
    state.kept["nile"] = {"card": card}
    for pile in (state.decks["nile_tiles"], state.boxed["nile_tiles"]):
        if nile in pile:
            pile.remove(nile)
            state.discards["nile_tiles"].append(nile)
    value = rules.place_props[card]["value"]
    modifiers.write(state, rules.vocab.modifiers["nile_level"], 0, level if level is not None else value, 1)
    return game


def begin(game: amunre.Game) -> amunre.Game:
    """Let the position run to its first decision."""
    game.state.to_move = None
    flow.advance(game)
    return game


def act(game: amunre.Game, seat: int, **action: Any) -> None:
    """Apply an action for the seat that must be to move, checking it is offered as legal."""
    assert game.to_move == seat, f"expected seat {seat} to move, not {game.to_move} ({game.step.phase})"
    legal = game.legal_actions()
    assert action in legal, f"{action} not legal; legal: {legal}"
    game.apply(action)


def grain(game: amunre.Game, seat: int) -> int:
    return game.state.resources[seat]["grain"]


def gods(game: amunre.Game, seat: int) -> int:
    return game.state.resources[seat]["gods"]
