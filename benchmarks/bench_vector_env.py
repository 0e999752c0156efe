"""How many steps a second the vector environment takes (adapters/gymnasium_vector.py), for a
few batch sizes, with random legal actions, on one core.

    python benchmarks/bench_vector_env.py                         # knizia2016, N = 1, 64, 1024
    python benchmarks/bench_vector_env.py --rules modern-art --sizes 256 --seconds 5

Two modes: `random` opponents (a step is the learner's decision and the opponents' replies
up to its next one) and self-play (`opponents=None`: a step is one action of the seat to
move). Each step returns the observations (float32, one row a game) and the action masks.
Only the `step` calls are timed: the benchmark's own choice of a random legal id a game (from
the masks, in numpy) is left out, as a learner's policy would replace it. The machine code is
compiled or loaded before the clock starts. Measurements only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from amunre.adapters.gymnasium_vector import AmunreVectorEnv


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal id per game (0 where none: a game that ended)."""
    counts = masks.sum(axis=1)
    picks = (rng.random(len(masks)) * np.maximum(counts, 1)).astype(np.int64)
    return np.argmax(np.cumsum(masks, axis=1, dtype=np.int32) > picks[:, None], axis=1)


def measure(rules: str, size: int, opponents: str | None, seconds: float) -> tuple[float, int]:
    """Steps a second (games x steps over the time spent in `step`), and the games that ended."""
    envs = AmunreVectorEnv(rules, num_envs=size, opponents=opponents)
    _, info = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    spent, steps, ended = 0.0, 0, 0
    while spent < seconds:
        actions = random_legal(rng, info["action_mask"])
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
    args = parser.parse_args()
    AmunreVectorEnv(args.rules, num_envs=1)               # compiles or loads the machine code
    print(f"{args.rules}, one core, random legal actions; steps a second (games that ended)")
    for opponents in ("random", None):
        for size in (int(s) for s in args.sizes.split(",")):
            rate, ended = measure(args.rules, size, opponents, args.seconds)
            mode = "random opponents" if opponents else "self-play"
            print(f"  {mode:<17} N={size:<6} {rate:>12,.0f} steps/s  ({ended} games ended)", flush=True)


if __name__ == "__main__":
    main()
