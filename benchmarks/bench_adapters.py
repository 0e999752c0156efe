"""What the adapters cost: the same number of random games through the engine's integer API,
the PettingZoo environment and the OpenSpiel game, side by side in one process.

    python benchmarks/bench_adapters.py                  # 5 rounds of 20 three-player games of each
    python benchmarks/bench_adapters.py --games 50 --rounds 3 --players 4 --rules knizia2003

Each loop does what a learning loop does at every decision: it reads the observation tensor
of the seat to move and its legal actions, and picks one uniformly (seeded). The engine and
PettingZoo play seeded games; OpenSpiel's games draw their chance outcomes uniformly too
(explicit chance nodes, counted apart from the decisions). The loops take turns, round after
round (A B C A B C ...), and the medians are printed, with each adapter's median ratio to the
engine within a round: the machine's load changes less within a round than across the run.
Needs PettingZoo and OpenSpiel (`pip install -e '.[test]'` installs both). Measurements only:
nothing here asserts a speed.
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


def engine_games(rules: Any, games: int, players: int, seed: int) -> tuple[int, int]:
    decisions = 0
    for g in range(games):
        game = amunre.new_game(rules, players, seed + g, events=False)
        pick = random.Random(seed + g)
        while not game.over:
            game.observation_tensor(game.to_move)
            game.apply_id(pick.choice(game.legal_action_ids()))
            decisions += 1
    return decisions, 0


def pettingzoo_games(rules: Any, games: int, players: int, seed: int) -> tuple[int, int]:
    from amunre.adapters.pettingzoo import raw_env
    env = raw_env(rules, players=players)
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


def openspiel_games(rules: Any, games: int, players: int, seed: int) -> tuple[int, int]:
    import pyspiel

    from amunre.adapters.openspiel import register
    game = pyspiel.load_game(register(rules), {"players": players})
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


LOOPS: dict[str, Callable[[Any, int, int, int], tuple[int, int]]] = {
    "engine (ids)": engine_games, "PettingZoo AEC": pettingzoo_games, "OpenSpiel": openspiel_games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="knizia2016", help="a shipped name or a rules file's path")
    parser.add_argument("--games", type=int, default=20, help="games of each loop per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rules = rules_from(args.rules)
    print(f"{rules.id}, {args.players} players, {args.rounds} rounds of {args.games} random games through each:")
    rates: dict[str, list[float]] = {name: [] for name in LOOPS}
    counts: dict[str, tuple[int, int]] = {}
    for round_ in range(args.rounds):
        for name, loop in LOOPS.items():
            start = time.perf_counter()
            counts[name] = loop(rules, args.games, args.players, args.seed + round_ * args.games)
            rates[name].append(counts[name][0] / (time.perf_counter() - start))
    engine = rates["engine (ids)"]
    for name in LOOPS:
        decisions, chances = counts[name]
        ratio = statistics.median(r / e for r, e in zip(rates[name], engine))
        extra = f", {chances / args.games:.0f} chance nodes per game" if chances else ""
        print(f"  {name:15} {statistics.median(rates[name]):7.0f} decisions/s (median; {min(rates[name]):.0f}-"
              f"{max(rates[name]):.0f})  {ratio:4.2f} x the engine  "
              f"({decisions / args.games:.0f} decisions per game{extra})")


if __name__ == "__main__":
    main()
