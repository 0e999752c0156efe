"""Record the golden playthroughs of every bundled rules file (run once, never to make a test pass).

    python tests/golden/record_playthroughs.py          # refuses to overwrite a recorded file

For each rules file under rules/ (house rules included), a few seeded games at every player
count the file allows, and one with every option at a value other than its default: the
actions are chosen by `random.Random(seed)` among the legal action ids, so the games depend
on nothing but the engine. Each game is written as JSON lines, gzipped:

    {"rules": NAME, "players": N, "seed": S, "options": {...}}       the game's header
    {"action": {...}, "legal": K, "events": [...]}                   one line per action
    {"result": {...}}                                                the end

`legal` is how many actions the seat could choose among, `events` the log entries the action
caused (the set-up's events are on the header line as `events`). Causes are recorded without
their `at` (the rules file's line and column), so that a comment added to a rules file does
not change a game. tests/test_playthroughs.py replays every game from its actions and
requires the same legal counts, events and result.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT = HERE / "playthroughs"
SEEDS = (1, 2)               # per player count


def rules_files() -> list[Path]:
    return sorted((REPO / "rules").glob("*.yaml")) + sorted((REPO / "rules" / "house").glob("*.yaml"))


def name_of(path: Path) -> str:
    relative = path.relative_to(REPO / "rules").with_suffix("")
    return str(relative).replace("/", "-")


def without_positions(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events with every cause's `at` left out (see the module's docstring)."""
    out = []
    for event in events:
        cause = event.get("cause")
        if isinstance(cause, dict) and "at" in cause:
            event = {**event, "cause": {k: v for k, v in cause.items() if k != "at"}}
        out.append(event)
    return out


def play(rules: Any, players: int, seed: int, options: dict[str, str]) -> list[dict[str, Any]]:
    import amunre
    game = amunre.new_game(rules, players=players, seed=seed, setup={"options": options} if options else None)
    choose = random.Random(seed * 7919 + players)
    lines: list[dict[str, Any]] = [{"players": players, "seed": seed, "options": options,
                                    "events": without_positions(game.log)}]
    while not game.over:
        ids = game.legal_action_ids()
        action_id = choose.choice(ids)
        action = game.action_from_id(action_id)
        seen = len(game.log)
        game.apply_id(action_id)
        lines.append({"action": action, "legal": len(ids), "events": without_positions(game.log[seen:])})
    lines.append({"result": game.result()})
    return lines


def non_default_options(rules: Any) -> dict[str, str]:
    """Every option at its first value other than the default."""
    return {name: next(v for v in opt.values if v != opt.default) for name, opt in rules.options.items()
            if len(opt.values) > 1}


def record(path: Path) -> list[list[dict[str, Any]]]:
    import amunre
    rules = amunre.load_rules(path)
    games = []
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in SEEDS:
            games.append(play(rules, players, seed, {}))
    options = non_default_options(rules)
    if options:
        players = rules.max_players
        try:
            games.append(play(rules, players, 3, options))
        except amunre.AmunreError:             # an option not allowed at that count (allowed_if)
            games.append(play(rules, rules.min_players, 3, options))
    return games


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for path in rules_files():
        target = OUT / f"{name_of(path)}.jsonl.gz"
        if target.exists():
            print(f"{target} exists: golden games are never recorded again", file=sys.stderr)
            continue
        games = record(path)
        with gzip.open(target, "wt", encoding="utf-8") as out:
            for lines in games:
                header = {"rules": name_of(path), **lines[0]}
                out.write(json.dumps(header, sort_keys=True) + "\n")
                for line in lines[1:]:
                    out.write(json.dumps(line, sort_keys=True) + "\n")
        print(f"{target}: {len(games)} games, {sum(len(g) for g in games)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
