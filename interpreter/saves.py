"""Saved games: written as the rules they were played under, the seed and set-up, the action
ids and the position; restored by replaying the actions, never by trusting the position.

A save may come from anyone. Restoring one checks its shape against grammar/save.schema.json,
checks that the rules are still those it was played under (their digest), starts a new game
from its seed and set-up, applies every action (each must be legal where it stands), and
finally requires the position reached to be exactly the one the save holds. A game whose
random draws were answered from outside (`new_game(..., chance=...)`) also saves those
answers (`draws`), and is replayed with them. Whatever is
wrong is an AmunreError saying what; a save that restores is a game the engine itself played.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib.resources import files
from typing import Any

from .base.errors import AmunreError, IllegalAction, shown_value
from .base.limits import MAX_SAVE_ACTIONS
from .base.rng import replaying
from .load.rules_cache import rules_for_save
from .model import Game

SAVE_FORMAT = 2          # 2: the position holds a cursor in the flow (1: an index into an unrolled schedule)


def save(game: Game) -> dict[str, Any]:
    rules = game.rules
    out = {"format": SAVE_FORMAT, "rules": {"path": rules.path, "id": rules.id, "digest": rules.digest},
           "setup": json.loads(json.dumps(game.setup)), "actions": list(game.history),
           "state": game.state.to_json()}
    if game.draws is not None:
        out["draws"] = list(game.draws)
    return out


def restore(data: Any, rules: Any, new_game: Callable[..., Any]) -> Any:
    """The game a save holds, replayed from `new_game(rules, players, seed, setup)`; AmunreError
    if it is not one the rules can reach. (The game module hands in its `new_game`: saving is
    its business, and this module stays below it.)"""
    try:
        _check_format(data)
        _check_shape(data)
        rules = rules_for_save(data["rules"], rules)
        state, draws = data["state"], data.get("draws")
        game = new_game(rules, players=state["players"], seed=state["seed"], setup=data["setup"],
                        chance=None if draws is None else replaying(draws))
        for index, action_id in enumerate(data["actions"]):
            if game.over:
                raise AmunreError(f"the save holds actions after the end of its game (from action {index})")
            try:
                game.apply_id(action_id)
            except IllegalAction as error:
                raise AmunreError(f"the save's action {index} ({shown_value(action_id, 40)}) is not legal where "
                                  f"it stands: {error.reason}") from None
        if draws is not None and game.draws != draws:
            raise AmunreError(f"the save holds {len(draws)} chance outcomes and its game drew {len(game.draws)}")
        reached = game.state.to_json()
        if reached != state:
            raise AmunreError("the save's position is not the one its actions reach "
                              f"({_first_difference(reached, state)})")
    except RecursionError:
        raise AmunreError("the save is nested too deeply to be a saved game") from None
    return game


def _check_format(data: Any) -> None:
    """A save of an earlier format is refused, saying so (its position is of another shape)."""
    if not isinstance(data, dict) or "actions" not in data:
        return                                    # not a save at all: the shape check says so
    written = data.get("format", 1)
    if written != SAVE_FORMAT:
        raise AmunreError(f"this save is in format {shown_value(written, 20)}, and this amunre reads format "
                          f"{SAVE_FORMAT}: saves of format 1, written before the order of play became a flow, "
                          "cannot be restored (replay the game from its log instead)")


def _check_shape(data: Any) -> None:
    from jsonschema import Draft202012Validator
    if isinstance(data, dict) and isinstance(data.get("actions"), list) and len(data["actions"]) > MAX_SAVE_ACTIONS:
        raise AmunreError(f"not an amunre saved game: it holds more than {MAX_SAVE_ACTIONS:,} actions")
    schema = json.loads(files("amunre.grammar").joinpath("save.schema.json").read_text(encoding="utf-8"))
    error = next(iter(Draft202012Validator(schema).iter_errors(data)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the save"
        raise AmunreError(f"not an amunre saved game: {where}: {shown_value(error.message, 200)}")


def _first_difference(reached: dict[str, Any], saved: dict[str, Any]) -> str:
    for key in sorted(set(reached) | set(saved), key=lambda k: shown_value(k, 40)):   # keys of any type
        if reached.get(key) != saved.get(key):
            return f"first in '{shown_value(key, 40).strip(chr(34))}'"
    return "they differ"
