"""What the secret phases of a rules file came to: the distribution of each phase's settled
total (an offering's total, say) and of the row of its table the total picked, over games
played exactly as `amunre simulate RULES -n GAMES -a AGENTS --seed SEED` plays them (the same
game and bot seeds, so the rows picked agree with that report's "What phases picked").

    python benchmarks/settled_totals.py knizia2016 --games 200 --seed 1 \\
        --agents heuristic:style=cautious,heuristic:style=build,heuristic:style=high_offer,heuristic

It reads the game log's `settled` events (docs/log-format.md), so it works for any mechanic
that settles a total, in any rules file.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict

import amunre
from amunre.cli.play import parse_agents, resolve_rules
from amunre.tools.agents import choose_id, make_agent
from amunre.tools.simulate import agent_seed, game_seed


def settled(rules: object, agents: list[str], seed: int) -> list[tuple[str, int, object]]:
    """(phase, total, row) of every settled event of one game."""
    bots = [make_agent(spec, agent_seed(seed, seat)) for seat, spec in enumerate(agents)]
    game = amunre.new_game(rules, players=len(agents), seed=seed)
    out = []
    while not game.over:
        phase, seen = game.step.phase, len(game.log)
        game.apply_id(choose_id(bots[game.to_move], game))
        out += [(phase, event["total"], event.get("tile")) for event in game.log[seen:]
                if event.get("event") == "settled" and "total" in event]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="?", default="knizia2016")
    parser.add_argument("--games", "-n", type=int, default=200)
    parser.add_argument("--agents", "-a", default="heuristic,heuristic,heuristic,heuristic")
    parser.add_argument("--seed", "-s", type=int, default=1)
    parser.add_argument("--json", help="write the distributions as JSON to this file")
    args = parser.parse_args()
    rules = amunre.load_rules(resolve_rules(args.rules))
    agents = parse_agents(args.agents, None)
    totals: dict[str, Counter] = defaultdict(Counter)
    rows: dict[str, Counter] = defaultdict(Counter)
    started = time.perf_counter()
    for index in range(args.games):
        for phase, total, row in settled(rules, agents, game_seed(args.seed, index)):
            totals[phase][total] += 1
            rows[phase][row] += 1
    seconds = time.perf_counter() - started
    for phase in totals:
        count = sum(totals[phase].values())
        mean = sum(t * n for t, n in totals[phase].items()) / count
        print(f"{phase}: {count} settled in {args.games} games, mean total {mean:.2f}")
        print("  total: " + ", ".join(f"{t}: {n}" for t, n in sorted(totals[phase].items())))
        print("  row:   " + ", ".join(f"{r}: {n} ({n / count:.1%})" for r, n in rows[phase].most_common()))
    print(f"{args.games} games in {seconds:.0f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"rules": args.rules, "agents": agents, "seed": args.seed, "games": args.games,
                       "totals": {p: sorted(c.items()) for p, c in totals.items()},
                       "rows": {p: dict(c) for p, c in rows.items()}}, handle, indent=1)


if __name__ == "__main__":
    main()
