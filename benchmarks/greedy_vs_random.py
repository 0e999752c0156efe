"""How much better the generic greedy agent plays than random: one greedy seat against
random seats, the greedy seat rotating so that seat order cannot explain the result.

    python benchmarks/greedy_vs_random.py [--games 200] [--players 4] [RULES]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import amunre
from amunre.tools.agents import make_agent

DEFAULT_RULES = Path(__file__).resolve().parent.parent / "rules" / "knizia2016.yaml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="?", default=str(DEFAULT_RULES))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    rules = amunre.load_rules(args.rules)
    wins = shared = 0
    margin = 0.0
    start = time.perf_counter()
    for g in range(args.games):
        greedy_seat = g % args.players
        agents = [make_agent("greedy" if s == greedy_seat else "random", 1000 * g + s)
                  for s in range(args.players)]
        game = amunre.new_game(rules, players=args.players, seed=g)
        while not game.over:
            game.apply(agents[game.to_move].choose(game, game.legal_actions()))
        result = game.result()
        if greedy_seat in result["winners"]:
            wins += 1
            shared += len(result["winners"]) > 1
        others = [v for s, v in enumerate(result["scores"]) if s != greedy_seat]
        margin += result["scores"][greedy_seat] - sum(others) / len(others)
        if (g + 1) % 20 == 0:
            print(f"  {g + 1} games: greedy won {wins / (g + 1):.0%}", flush=True)
    elapsed = time.perf_counter() - start
    print(f"greedy won {wins}/{args.games} = {wins / args.games:.1%} ({shared} shared) of "
          f"{args.players}-player games against random (chance: {1 / args.players:.0%}); "
          f"mean margin over a random seat {margin / args.games:+.1f} VP; {elapsed:.0f} s")


if __name__ == "__main__":
    main()
