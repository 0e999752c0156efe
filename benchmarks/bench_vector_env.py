"""How many steps a second the vector environment takes (adapters/gymnasium_vector.py), for a
few batch sizes, with random legal actions, on one core.

    python benchmarks/bench_vector_env.py                         # knizia2016, N = 1, 64, 1024
    python benchmarks/bench_vector_env.py --rules modern-art --sizes 256 --rounds 3 --seconds 2
    perf record -F 4000 -o perf.data python benchmarks/bench_vector_env.py --sizes 1024 --perf-map

The modes: `random` opponents (a step is the learner's decision and the opponents' replies
up to its next one) and self-play (`opponents=None`: a step is one action of the seat to
move). Each step returns the observations (float32, one row a game) and the action masks,
copied (the default) or, in a third mode, the environment's own arrays (`copy=False`).
The random legal actions are the environment's own (`random_actions()`, in machine code), timed
with the step they feed. A fourth mode draws them from the masks in numpy instead, as every
measurement did until 29 November 2026, 09:00 UTC, and times only the `step` calls: that
choice (a number drawn for each action of each game) is left out, as a learner's policy would
replace it, but what it leaves in the caches is not (docs/adapters.md). The machine code is
compiled or loaded before the clock starts. Measurements only: nothing here asserts a speed.
With `--perf-map`, `perf report` names the machine code's functions (benchmarks/perf_map.py).

This machine is shared, and its speed wanders by a third within minutes: each mode and size is
measured in short rounds, all of them in turn, round after round (`--rounds`, `--seconds`), and
the median and the range of the rounds are shown, so that a slow minute weighs on every figure
alike and is seen as such.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from amunre.adapters.gymnasium_vector import AmunreVectorEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))
import perf_map  # benchmarks/perf_map.py, beside this file (the path set just above)


def random_legal(rng: np.random.Generator, masks: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """A uniformly random legal id per game (0 where none: a game that ended): the legal id
    with the largest of uniform draws, in a buffer kept between steps (`draws`, float32 of the
    masks' shape), so that the benchmark's own work neither allocates nor faults in fresh
    pages between the steps it times."""
    rng.random(dtype=np.float32, out=draws)
    np.multiply(draws, masks, out=draws)
    return draws.argmax(axis=1)


# (name, opponents, copy, numpy's actions): random opponents; self-play; self-play with the
# environment's own arrays; the same with the actions drawn in numpy, between the timed steps
MODES = (("random opponents", "random", True, False), ("self-play", None, True, False),
         ("self-play, copy=False", None, False, False), ("the same, numpy's actions", None, False, True))


class Run:
    """One mode and batch size, kept between rounds: its environment, last masks and generator."""

    def __init__(self, rules: str, size: int, opponents: str | None, copy: bool, numpy_actions: bool) -> None:
        self.size, self.numpy_actions = size, numpy_actions
        self.envs = AmunreVectorEnv(rules, num_envs=size, opponents=opponents, copy=copy)
        _, self.info = self.envs.reset(seed=1)
        self.rng = np.random.default_rng(0)
        self.draws = np.empty(self.info["action_mask"].shape, dtype=np.float32)
        self.rates: list[float] = []
        self.ended = 0

    def measure(self, seconds: float) -> None:
        """One round: steps a second (games x steps over the time spent in `random_actions`
        and `step`, or in `step` alone where numpy draws the actions), kept."""
        spent, steps = 0.0, 0
        while spent < seconds:
            if self.numpy_actions:
                actions = random_legal(self.rng, self.info["action_mask"], self.draws)
                started = time.perf_counter()
            else:
                started = time.perf_counter()
                actions = self.envs.random_actions()
            _, _, terminated, _, self.info = self.envs.step(actions)
            spent += time.perf_counter() - started
            steps += self.size
            self.ended += int(terminated.sum())
        self.rates.append(steps / spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="knizia2016", help="a shipped rules file's name, or a path")
    parser.add_argument("--sizes", default="1,64,1024", help="batch sizes, comma-separated")
    parser.add_argument("--seconds", type=float, default=1.0, help="time in `step` per mode, size and round")
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds, each measuring every mode and size in turn (the median and range are shown)")
    parser.add_argument("--perf-map", action="store_true",
                        help="write /tmp/perf-PID.map, so that a `perf record` of this run names the machine code")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds is at least 1 and --seconds more than 0")
    if args.perf_map:
        perf_map.install()
    warm = AmunreVectorEnv(args.rules, num_envs=1)        # compiles or loads the machine code
    if args.perf_map:
        _, info = warm.reset(seed=1)
        warm.step(info["action_mask"].argmax(axis=1))
        print(f"perf map: {perf_map.write()}")
    sizes = [int(s) for s in args.sizes.split(",")]
    runs = {(mode, size): Run(args.rules, size, opponents, copy, numpy_actions)
            for mode, opponents, copy, numpy_actions in MODES for size in sizes}
    print(f"{args.rules}, one core, random legal actions; {args.rounds} rounds of {args.seconds:g} s a mode and "
          f"size, in turn")
    for round_ in range(args.rounds):
        for run in runs.values():
            run.measure(args.seconds)
        print(f"  round {round_ + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    print("steps a second: median of the rounds (least-most), and the games that ended")
    for (mode, size), run in runs.items():
        rates = sorted(run.rates)
        print(f"  {mode:<26} N={size:<6} {statistics.median(rates):>12,.0f}  ({rates[0]:,.0f}-{rates[-1]:,.0f})"
              f"  {run.ended} games ended", flush=True)


if __name__ == "__main__":
    main()
