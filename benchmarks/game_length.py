"""The bound on a game's length (tools/game_length.py, OpenSpiel's max_game_length) against the
longest of many random games, per bundled rules file (the table of docs/adapters.md).

    python benchmarks/game_length.py                       # 1,000 games per file
    python benchmarks/game_length.py --games 50 knizia2016

Random games: every seat picks uniformly among its legal actions; the player counts cycle
through those the file allows, and each game draws its options at random (a combination a
player count refuses is drawn again). The bound printed is the largest over the player counts.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import amunre
from amunre.interpreter.base.errors import AmunreError
from amunre.tools.game_length import most_decisions

RULES = Path(amunre.__file__).resolve().parent / "rules"


def bundled() -> list[Path]:
    """Every bundled rules file: the games and editions, then the house rules."""
    return sorted(RULES.glob("*.yaml")) + sorted((RULES / "house").glob("*.yaml"))


def random_game(rules: amunre.interpreter.model.Rules, players: int, seed: int) -> int:
    """The decisions of one game of random play (options drawn at random too)."""
    pick = random.Random(seed)
    for _ in range(20):
        options = {name: pick.choice(option.values) for name, option in rules.options.items()}
        try:
            game = amunre.new_game(rules, players, seed, {"options": options} if options else None, events=False)
            break
        except AmunreError:
            continue
    else:
        game = amunre.new_game(rules, players, seed, events=False)
    while not game.over:
        game.apply_id(pick.choice(game.legal_action_ids()))
    return len(game.history)


def longest(rules: amunre.interpreter.model.Rules, games: int) -> int:
    counts = range(rules.min_players, rules.max_players + 1)
    return max(random_game(rules, counts[i % len(counts)], i) for i in range(games))


def bound(rules: amunre.interpreter.model.Rules) -> int | None:
    found = [most_decisions(rules, n) for n in range(rules.min_players, rules.max_players + 1)]
    return None if None in found else max(n for n in found if n is not None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("names", nargs="*", help="file names (default: every bundled file)")
    args = parser.parse_args()
    paths = [p for p in bundled() if not args.names or p.stem in args.names]
    print(f"| file | bound | longest of {args.games:,} random games | ratio |")
    print("|---|---:|---:|---:|")
    for path in paths:
        rules = amunre.load_rules(str(path))
        most, seen = bound(rules), longest(rules, args.games)
        name = path.relative_to(RULES).with_suffix("").as_posix()
        ratio = "none: the engine's limit" if most is None else f"{most / seen:.1f}"
        print(f"| `{name}` | {most if most is not None else '-'} | {seen} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
