"""The child process of tests/test_compiled_corpora.py: rules files from the fuzz and hostile
corpora played in both engines, in a process of their own, so that nothing they do to the
machine code (a write out of bounds, a crash) can take the test session down with it.

    python tests/compiled_corpora.py JOBS.json

JOBS.json lists {"path": FILE, "seeds": [...]}; for each job this prints a line `start FILE`
before it begins (so a crash names the file it crashed in), then one JSON line: how the file
ended ("refused": it does not load; "not compiled" and the message; "played" and each game's
outcome, see compiled_support.play_alike), or "apart"/"failed" and what went wrong.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any

import amunre
from amunre.interpreter.base.errors import AmunreError
from amunre.interpreter.compiled.game import compiled
from amunre.interpreter.compiled.not_compiled import NotCompiled
from compiled_support import Apart, play_alike

LIMIT = 2_000            # actions of a game: a fuzzed file may make a game without an end


def run(path: str, seeds: list[int]) -> dict[str, Any]:
    try:
        rules = amunre.load_rules(path)
    except AmunreError:
        return {"outcome": "refused"}
    try:
        compiled(rules)
    except NotCompiled as error:
        return {"outcome": "not compiled", "message": str(error)}
    games = []
    span = rules.max_players - rules.min_players + 1
    for seed in seeds:
        players = rules.min_players + seed % span
        try:
            outcome, steps, handed = play_alike(rules, players, seed, limit=LIMIT)
        except NotCompiled as error:
            return {"outcome": "not compiled", "message": str(error)}
        except Apart as error:
            return {"outcome": "apart", "message": str(error)}
        games.append({"players": players, "seed": seed, "outcome": outcome, "steps": steps, "handed": handed})
    return {"outcome": "played", "games": games}


def main(argv: list[str]) -> int:
    with open(argv[0], encoding="utf-8") as file:
        jobs = json.load(file)
    for job in jobs:
        print("start", job["path"], flush=True)
        try:
            found = run(job["path"], job["seeds"])
        except Exception:                   # anything but an amunre error or a difference: a bug
            found = {"outcome": "failed", "message": traceback.format_exc()}
        print(json.dumps({"path": job["path"], **found}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
