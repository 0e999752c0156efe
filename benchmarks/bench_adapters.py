"""What the adapters cost: the same number of random games through the engine's integer API,
the PettingZoo environment, the Gymnasium environment and the OpenSpiel game, side by side in
one process, on each engine (the interpreter and the compiled engine).

    python benchmarks/bench_adapters.py                  # 5 rounds of 20 three-player games of each
    python benchmarks/bench_adapters.py --games 50 --rounds 3 --players 4 --rules knizia2003
    python benchmarks/bench_adapters.py --engines compiled --loops pettingzoo,openspiel

Each loop does what a learning loop does at every decision: it reads the observation tensor
of the seat to move and its legal actions, and picks one uniformly (seeded). The engine,
PettingZoo and Gymnasium play seeded games (Gymnasium: the learner in seat 0, `random`
opponents played by the environment, whose decisions are counted too); OpenSpiel's games draw
their chance outcomes uniformly too (explicit chance nodes, counted apart from the
decisions). The loops take turns, round after round (A B C A B C ...), and the medians are
printed, with each loop's median ratio to the interpreter's integer API within a round (the
machine's load changes less within a round than across the run), and each adapter's on the
compiled engine against the same adapter on the interpreter. Needs PettingZoo, Gymnasium and
OpenSpiel (`pip install -e '.[test]'` installs them). Measurements only: nothing here asserts
a speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import amunre
from amunre.adapters.common import rules_from


def engine_games(rules: Any, games: int, players: int, seed: int, engine: str) -> tuple[int, int]:
    decisions = 0
    for g in range(games):
        game = amunre.new_game(rules, players, seed + g, events=False, engine=engine)
        pick = random.Random(seed + g)
        while not game.over:
            game.observation_tensor(game.to_move)
            game.apply_id(pick.choice(game.legal_action_ids()))
            decisions += 1
    return decisions, 0


def pettingzoo_games(rules: Any, games: int, players: int, seed: int, engine: str) -> tuple[int, int]:
    from amunre.adapters.pettingzoo import raw_env
    env = raw_env(rules, players=players, engine=engine)
    decisions = 0
    for g in range(games):
        env.reset(seed=seed + g)
        pick = np.random.default_rng(seed + g)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(pick.choice(np.flatnonzero(observation["action_mask"]))))
            decisions += 1
    return decisions, 0


def gymnasium_games(rules: Any, games: int, players: int, seed: int, engine: str) -> tuple[int, int]:
    from amunre.adapters.gymnasium import AmunreGymEnv
    env = AmunreGymEnv(rules, players=players, opponents="random", engine=engine)
    decisions = 0
    for g in range(games):
        _, info = env.reset(seed=seed + g)
        pick = np.random.default_rng(seed + g)
        terminated = env.unwrapped.game.over
        while not terminated:
            _, _, terminated, _, info = env.step(int(pick.choice(np.flatnonzero(info["action_mask"]))))
        decisions += len(env.unwrapped.game.history)
    return decisions, 0


def openspiel_games(rules: Any, games: int, players: int, seed: int, engine: str) -> tuple[int, int]:
    import pyspiel

    from amunre.adapters.openspiel import register
    game = pyspiel.load_game(register(rules), {"players": players, "engine": engine})
    decisions = chances = 0
    for g in range(games):
        state = game.new_initial_state()
        pick = random.Random(seed + g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick.randrange(len(state.chance_outcomes())))
                chances += 1
                continue
            state.observation_tensor(state.current_player())
            state.apply_action(pick.choice(state.legal_actions()))
            decisions += 1
    return decisions, chances


LOOPS: dict[str, tuple[str, Callable[[Any, int, int, int, str], tuple[int, int]]]] = {
    "engine": ("engine (ids)", engine_games), "pettingzoo": ("PettingZoo AEC", pettingzoo_games),
    "gymnasium": ("Gymnasium", gymnasium_games), "openspiel": ("OpenSpiel", openspiel_games)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="knizia2016", help="a shipped name or a rules file's path")
    parser.add_argument("--games", type=int, default=20, help="games of each loop per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engines", default="interpreter,compiled", help="comma-separated: interpreter, compiled")
    parser.add_argument("--loops", default=",".join(LOOPS), help=f"comma-separated, of {', '.join(LOOPS)}")
    args = parser.parse_args()
    rules = rules_from(args.rules)
    engines = args.engines.split(",")
    runs = [(loop, engine) for loop in args.loops.split(",") for engine in engines]
    print(f"{rules.id}, {args.players} players, {args.rounds} rounds of {args.games} random games through each:")
    for engine in engines:                  # the compiled engine's machine code loaded (or compiled) before timing
        amunre.new_game(rules, args.players, 0, events=False, engine=engine)
    rates: dict[tuple[str, str], list[float]] = {run: [] for run in runs}
    counts: dict[tuple[str, str], tuple[int, int]] = {}
    for round_ in range(args.rounds):
        for run in runs:
            loop, engine = run
            start = time.perf_counter()
            counts[run] = LOOPS[loop][1](rules, args.games, args.players, args.seed + round_ * args.games, engine)
            rates[run].append(counts[run][0] / (time.perf_counter() - start))
    base = rates.get(("engine", "interpreter"))
    for run in runs:
        loop, engine = run
        decisions, chances = counts[run]
        ratios = [f"{statistics.median(r / e for r, e in zip(rates[run], base)):4.2f} x the interpreter's ids"] \
            if base else []
        other = rates.get((loop, "interpreter"))
        if other and engine != "interpreter":
            ratios.append(f"{statistics.median(r / e for r, e in zip(rates[run], other)):3.1f} x on the interpreter")
        extra = f", {chances / args.games:.0f} chance nodes per game" if chances else ""
        print(f"  {LOOPS[loop][0]:15} {engine:11} {statistics.median(rates[run]):7.0f} decisions/s (median; "
              f"{min(rates[run]):.0f}-{max(rates[run]):.0f})  {', '.join(ratios)}  "
              f"({decisions / args.games:.0f} decisions per game{extra})")


if __name__ == "__main__":
    main()
