"""A small policy learning to play a rules file through the PettingZoo environment: REINFORCE
with a running-mean baseline, a linear softmax policy over the legal actions, in numpy only.
One seat learns against seats that pick uniformly among their legal actions; before and after,
the learned policy (sampling its actions, as it trained) and a random one are measured against
the same opponents.

    python docs/examples/reinforce.py --rules knizia2016 --players 3 --episodes 300

Needs `pip install 'amunre[pettingzoo]'`. See docs/adapters.md for what it prints and measured.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from amunre.adapters.pettingzoo import raw_env


def features(observation: np.ndarray) -> np.ndarray:
    """The observation tensor squashed: counts of gold or points span 0..100, flags 0..1."""
    return np.sign(observation) * np.log1p(np.abs(observation))


class LinearPolicy:
    """Softmax over the legal actions of W @ features: one row of weights per action id."""

    def __init__(self, actions: int, size: int, seed: int) -> None:
        self.weights = np.zeros((actions, size))
        self.rng = np.random.default_rng(seed)

    def probabilities(self, phi: np.ndarray, legal: np.ndarray) -> np.ndarray:
        logits = self.weights[legal] @ phi
        logits -= logits.max()
        odds = np.exp(logits)
        return odds / odds.sum()

    def act(self, phi: np.ndarray, legal: np.ndarray) -> tuple[int, np.ndarray]:
        """An action sampled from the policy (never its most likely one: REINFORCE learns the
        policy it samples, and it is measured the same way)."""
        p = self.probabilities(phi, legal)
        return int(self.rng.choice(len(legal), p=p)), p

    def learn(self, steps: list[tuple[np.ndarray, np.ndarray, int, np.ndarray]], advantage: float,
              rate: float) -> None:
        """One REINFORCE step: raise the log-probability of each chosen action by `advantage`."""
        for phi, legal, index, p in steps:
            grad = -p
            grad[index] += 1.0
            self.weights[legal] += rate * advantage * np.outer(grad, phi)


def episode(env: Any, policy: LinearPolicy, learner: str, seed: int, opponents: np.random.Generator,
            learn: bool) -> tuple[float, list, int]:
    """One game; the learner's reward, its decisions (for learning), and the steps taken."""
    env.reset(seed=seed)
    decisions, reward, steps = [], 0.0, 0
    for agent in env.agent_iter():
        observation, got, terminated, truncated, _ = env.last()
        if agent == learner:
            reward += got
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        if agent == learner and policy is not None:
            phi = features(observation["observation"])
            index, p = policy.act(phi, legal)
            if learn:
                decisions.append((phi, legal, index, p))
            action = int(legal[index])
        else:
            action = int(opponents.choice(legal))
        env.step(action)
        steps += 1
    return reward, decisions, steps


def evaluate(env: Any, policy: LinearPolicy | None, games: int, first_seed: int) -> tuple[float, float]:
    """Win rate and mean reward of the learner's seat over `games` fixed seeds (None: random play)."""
    opponents = np.random.default_rng(first_seed)
    rewards = [episode(env, policy, "player_0", first_seed + g, opponents, False)[0] for g in range(games)]
    return float(np.mean([r == 1.0 for r in rewards])), float(np.mean(rewards))


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="knizia2016", help="a shipped name or a rules file's path")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--eval", type=int, default=200, help="games to measure each policy on")
    parser.add_argument("--rate", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    env = raw_env(args.rules, players=args.players)
    size = env.observation_space("player_0")["observation"].shape[0]
    policy = LinearPolicy(env.action_space("player_0").n, size, args.seed)
    before = evaluate(env, None, args.eval, 10 ** 6)
    opponents = np.random.default_rng(args.seed)
    baseline, steps, started = 0.0, 0, time.perf_counter()
    for number in range(args.episodes):
        reward, decisions, taken = episode(env, policy, "player_0", args.seed + number, opponents, True)
        policy.learn(decisions, reward - baseline, args.rate)
        baseline += 0.05 * (reward - baseline)
        steps += taken
    seconds = time.perf_counter() - started
    after = evaluate(env, policy, args.eval, 10 ** 6)
    figures = {"episodes": args.episodes, "steps": steps, "seconds": seconds,
               "steps_per_second": steps / seconds if seconds else 0.0,
               "random_win_rate": before[0], "learned_win_rate": after[0],
               "random_mean_reward": before[1], "learned_mean_reward": after[1]}
    print(f"{args.rules}, {args.players} players: {args.episodes} training games, {steps} steps in {seconds:.1f} s "
          f"({figures['steps_per_second']:.0f} steps/s, learning included)")
    print(f"seat 0 against random seats, {args.eval} games each: random play wins {before[0]:.0%} "
          f"(mean reward {before[1]:+.2f}); the learned policy wins {after[0]:.0%} (mean reward {after[1]:+.2f})")
    return figures


if __name__ == "__main__":
    main()
