"""Write the hostile saves of this folder again, from a game the rules as they are now play.

A save holds action ids and a position, both of which change when the rules file or the
action space does; the attacks do not. So when the rules change, run

    python tests/hostile/saves/make.py      (with amunre installed, as the README says)

and check `git diff tests/hostile/saves/`: only ids and positions should change, never
`expected.json` (the errors each attack must give). Each save is a 3-player game, seed 5,
after 40 actions, with one thing broken. `format-1.json` is kept by hand: a save of the format
before the order of play became a flow, which must be refused.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import amunre

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent

CUT, PLAYERS, SEED = 40, 3, 5


def good_game() -> amunre.Game:
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    game = amunre.new_game(rules, players=PLAYERS, seed=SEED)
    rng = random.Random(SEED)
    while len(game.history) < CUT:
        game.apply_id(rng.choice(game.legal_action_ids()))
    return game


def illegal_at(game: amunre.Game, index: int) -> int:
    """An action id that is not legal where the save's action `index` stands."""
    replay = amunre.new_game(game.rules, players=PLAYERS, seed=SEED)
    for action in game.history[:index]:
        replay.apply_id(action)
    return max(set(range(replay.num_distinct_actions())) - set(replay.legal_action_ids()))


def edited(save: dict[str, Any], change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    copied = copy.deepcopy(save)
    change(copied)
    return copied


def main() -> None:
    game = good_game()
    save = game.to_json()
    save["rules"] = {"path": "rules/knizia2016.yaml", "id": save["rules"]["id"], "digest": "CURRENT"}
    wrong = illegal_at(game, 10)
    saves = {
        "good": save,
        "action-negative": edited(save, lambda s: s["actions"].__setitem__(10, -4)),
        "action-not-a-number": edited(save, lambda s: s["actions"].__setitem__(10, "bid")),
        "action-not-legal": edited(save, lambda s: s["actions"].__setitem__(10, wrong)),
        "card-made-from-nothing": edited(save, lambda s: s["state"]["hands"][1].append(s["state"]["hands"][1][0])),
        "gold-edited": edited(save, lambda s: s["state"]["resources"][0].__setitem__(
            "gold", s["state"]["resources"][0]["gold"] + 5)),
        "negative-tokens": edited(save, lambda s: s["state"]["tokens"][0].__setitem__("farmer", -2)),
        "other-rules": edited(save, lambda s: s["rules"].__setitem__("digest", "0123456789abcdef")),
        "owner-not-a-seat": edited(save, lambda s: s["state"]["owner"].__setitem__(3, 1.5)),
        "players-99": edited(save, lambda s: s["state"].__setitem__("players", 99)),
        "setup-garbage": edited(save, lambda s: s["setup"].__setitem__("start_player", "x")),
        "without-state": edited(save, lambda s: s.pop("state")),
    }
    for name, data in saves.items():
        (HERE / f"{name}.json").write_text(json.dumps(data) + "\n", encoding="utf-8")
    (HERE / "not-a-mapping.json").write_text("[1, 2, 3]\n", encoding="utf-8")
    print(f"wrote {len(saves) + 1} saves to {HERE}")


if __name__ == "__main__":
    main()
