"""How many steps a second the vector environment takes (adapters/gymnasium_vector.py), for a
few batch sizes, with random legal actions, on one core.

    python benchmarks/bench_vector_env.py                         # knizia2016, N = 1, 64, 1024
    python benchmarks/bench_vector_env.py --rules modern-art --sizes 256 --seconds 5
    perf record -F 4000 -o perf.data python benchmarks/bench_vector_env.py --sizes 1024 --perf-map

Two modes: `random` opponents (a step is the learner's decision and the opponents' replies
up to its next one) and self-play (`opponents=None`: a step is one action of the seat to
move). Each step returns the observations (float32, one row a game) and the action masks,
copied (the default) or, in a third mode, the environment's own arrays (`copy=False`).
Only the `step` calls are timed: the benchmark's own choice of a random legal id a game (from
the masks, in numpy) is left out, as a learner's policy would replace it. The machine code is
compiled or loaded before the clock starts. Measurements only: nothing here asserts a speed.
With `--perf-map`, `perf report` names the machine code's functions (benchmarks/perf_map.py).
"""

from __future__ import annotations

import argparse
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


def measure(rules: str, size: int, opponents: str | None, seconds: float, copy: bool = True) -> tuple[float, int]:
    """Steps a second (games x steps over the time spent in `step`), and the games that ended."""
    envs = AmunreVectorEnv(rules, num_envs=size, opponents=opponents, copy=copy)
    _, info = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    draws = np.empty(info["action_mask"].shape, dtype=np.float32)
    spent, steps, ended = 0.0, 0, 0
    while spent < seconds:
        actions = random_legal(rng, info["action_mask"], draws)
        started = time.perf_counter()
        _, _, terminated, _, info = envs.step(actions)
        spent += time.perf_counter() - started
        steps += size
        ended += int(terminated.sum())
    return steps / spent, ended


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="knizia2016", help="a shipped rules file's name, or a path")
    parser.add_argument("--sizes", default="1,64,1024", help="batch sizes, comma-separated")
    parser.add_argument("--seconds", type=float, default=3.0, help="time in `step` per measurement")
    parser.add_argument("--perf-map", action="store_true",
                        help="write /tmp/perf-PID.map, so that a `perf record` of this run names the machine code")
    args = parser.parse_args()
    if args.perf_map:
        perf_map.install()
    warm = AmunreVectorEnv(args.rules, num_envs=1)        # compiles or loads the machine code
    if args.perf_map:
        _, info = warm.reset(seed=1)
        warm.step(info["action_mask"].argmax(axis=1))
        print(f"perf map: {perf_map.write()}")
    print(f"{args.rules}, one core, random legal actions; steps a second (games that ended)")
    for mode, opponents, copy in (("random opponents", "random", True), ("self-play", None, True),
                                  ("self-play, copy=False", None, False)):
        for size in (int(s) for s in args.sizes.split(",")):
            rate, ended = measure(args.rules, size, opponents, args.seconds, copy)
            print(f"  {mode:<22} N={size:<6} {rate:>12,.0f} steps/s  ({ended} games ended)", flush=True)


if __name__ == "__main__":
    main()
