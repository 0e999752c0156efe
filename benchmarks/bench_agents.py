"""How fast the bots play: games per second per agent, this tree against an older checkout,
side by side in one run.

    python benchmarks/bench_agents.py                               # greedy, heuristic, ismcts:iterations=50, random
    python benchmarks/bench_agents.py --base /tmp/base --games 6    # old (a checkout) and new
    python benchmarks/bench_agents.py --agents 'greedy;ismcts:iterations=20' --rules knizia2003 --players 5 --rounds 5

Each agent plays `--games` seeded games with itself in every seat (game i: seed i, its bots
seeded as `amunre simulate` seeds them), in a fresh process per measurement, so that the old
and the new code never share a process. With `--base DIR` (a checkout of an older commit, e.g.
`git worktree add /tmp/base <commit>`) the two trees take turns, agent by agent and round by
round (old, new, old, new...): a noisy machine slows both alike. Printed per agent: the median
games per second of each tree, their ratio (new / old, within a round, then the median), and
whether both trees made the same choices (a digest of every game's action ids). Measurements
only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
AGENTS = ("random", "greedy", "heuristic", "ismcts:iterations=50")


def play(rules_name: str, agent: str, players: int, games: int) -> dict[str, object]:
    """The worker: play the games in this process with whichever amunre is importable."""
    import amunre
    try:
        from amunre.tools.agents import choose_id, make_agent
        from amunre.tools.simulate.seeds import agent_seed
    except ImportError:                         # an older tree (7bea8ff, the base of issue 33): under interpreter/
        from amunre.interpreter.agents import choose_id, make_agent  # type: ignore[no-redef]
        from amunre.interpreter.simulate.seeds import agent_seed  # type: ignore[no-redef]

    rules = amunre.load_rules(_rules_path(rules_name, Path(amunre.__file__).parent))
    try:            # the bots' machine code compiled or loaded before the clock starts, as a study readies it
        from amunre.interpreter.compiled import hubs
        from amunre.tools.agents import AGENTS
        from amunre.tools.agents.machine_lookahead import lookahead
        from amunre.tools.agents.options import parse_spec
        if lookahead(rules, compile=True) is not None:      # and the agent's own parts (a search's decisions)
            hubs.prepare(list(getattr(AGENTS.get(parse_spec(agent)[0]), "machine_parts", ())))
    except ImportError:                         # a tree before issue 33: the bots look ahead in the interpreter
        pass
    digest = hashlib.sha256()
    decisions = 0
    started = time.perf_counter()
    for seed in range(games):
        bots = [make_agent(agent, agent_seed(seed, seat)) for seat in range(players)]
        for bot in bots:
            if hasattr(bot, "engine"):
                bot.engine = "compiled"         # as a study sets it
        game = amunre.new_game(rules, players, seed, events=False)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            game.apply_id(choose_id(bots[seat], game))
        decisions += len(game.history)
        digest.update(json.dumps(game.history).encode())
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "decisions": decisions, "digest": digest.hexdigest()[:16],
            "source": str(Path(amunre.__file__).parent)}


def _shipped_or_path(name: str) -> str:
    """A shipped rules file's name as it is (each tree finds its own), a path made absolute."""
    path = Path(name)
    return str(path.resolve()) if path.suffix in (".yaml", ".yml") or path.exists() else name


def _rules_path(name: str, tree: Path = HERE.parent) -> str:
    """A shipped rules file's name as its path in the tree measured (each tree plays its own
    copy: an older tree may not read today's keys); a path is kept."""
    path = Path(name)
    if path.suffix in (".yaml", ".yml") or path.exists():
        return str(path.resolve())
    return str(tree / "rules" / f"{name}.yaml")


def measure(tree: Path, args: argparse.Namespace, agent: str) -> dict[str, object]:
    """One measurement in a fresh process importing amunre from `tree`."""
    with tempfile.TemporaryDirectory() as root:
        os.symlink(tree, Path(root) / "amunre")
        env = dict(os.environ, PYTHONPATH=root)
        command = [sys.executable, str(Path(__file__).resolve()), "--worker", "--rules", _shipped_or_path(args.rules),
                   "--players", str(args.players), "--games", str(args.games), "--agents", agent]
        done = subprocess.run(command, env=env, cwd=root, check=True, capture_output=True, text=True)
        found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
        if Path(str(found["source"])).resolve() != tree.resolve():      # while the link is there
            sys.exit(f"the worker imported amunre from {found['source']}, not {tree}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="knizia2016", help="a shipped rules file's name, or a path")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=4, help="games per measurement (per agent and tree)")
    parser.add_argument("--rounds", type=int, default=3, help="measurements per agent and tree")
    parser.add_argument("--agents", default=";".join(AGENTS),
                        help="agents to time, separated by ';' (an agent's options use commas)")
    parser.add_argument("--base", type=Path, help="a checkout of an older commit to compare with")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(play(args.rules, args.agents, args.players, args.games)))
        return
    agents = [agent.strip() for agent in args.agents.split(";") if agent.strip()]
    trees = {"new": HERE.parent}
    if args.base is not None:
        trees = {"old": args.base.resolve(), "new": HERE.parent}
    print(f"{args.games} games a measurement, {args.rounds} rounds, {args.rules}, {args.players} players; "
          + ", ".join(f"{name}: {tree}" for name, tree in trees.items()), flush=True)
    rows = []
    for agent in agents:
        paces: dict[str, list[float]] = {name: [] for name in trees}
        digests: dict[str, set[str]] = {name: set() for name in trees}
        ratios = []
        for round_ in range(args.rounds):
            for name, tree in trees.items():
                found = measure(tree, args, agent)
                paces[name].append(args.games / float(str(found["seconds"])))
                digests[name].add(str(found["digest"]))
                print(f"  {agent} round {round_ + 1} {name}: {paces[name][-1]:.3f} games/s", flush=True)
            if "old" in trees:
                ratios.append(paces["new"][-1] / paces["old"][-1])
        rows.append((agent, {name: statistics.median(p) for name, p in paces.items()},
                     statistics.median(ratios) if ratios else None,
                     len(set().union(*digests.values())) == 1))
    print()
    header = f"{'agent':<24}" + "".join(f"{name + ' games/s':>16}" for name in trees)
    if "old" in trees:
        header += f"{'new/old':>10}{'same games':>12}"
    print(header)
    for agent, medians, ratio, same in rows:
        line = f"{agent:<24}" + "".join(f"{medians[name]:>16.3f}" for name in trees)
        if ratio is not None:
            line += f"{ratio:>10.2f}{'yes' if same else 'NO':>12}"
        print(line)


if __name__ == "__main__":
    main()
