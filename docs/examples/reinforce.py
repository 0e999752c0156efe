"""A small policy learning to play a rules file through the Gymnasium environment: REINFORCE
with a running-mean baseline, a linear softmax policy over the legal actions, in numpy only.
Seat 0 learns against opponents named as `amunre simulate --agents` names them (`random` by
default, or `greedy`, `heuristic`...: the environment plays them between the learner's
decisions). As it trains it prints the learner's win rate over each block of games (the
learning curve); before and after, the learned policy (sampling its actions, as it trained)
and a random one are measured against the same opponents on the same games.

    python docs/examples/reinforce.py --rules knizia2016 --players 3 --episodes 300
    python docs/examples/reinforce.py --opponents greedy --episodes 200 --eval 50

Needs `pip install 'amunre[gymnasium]'`. See docs/adapters.md for what it prints and measured.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from amunre.adapters.gymnasium import AmunreGymEnv


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


def episode(env: Any, policy: LinearPolicy | None, seed: int, rng: np.random.Generator,
            learn: bool) -> tuple[float, bool, list, int]:
    """One game from the learner's seat; its reward, whether it won alone, its decisions (for
    learning), and how many it made. Without a policy the learner chooses uniformly (with `rng`)."""
    observation, info = env.reset(seed=seed)
    decisions, steps = [], 0
    while True:
        legal = np.flatnonzero(info["action_mask"])
        if policy is not None:
            phi = features(observation)
            index, p = policy.act(phi, legal)
            if learn:
                decisions.append((phi, legal, index, p))
            action = int(legal[index])
        else:
            action = int(rng.choice(legal))
        observation, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            return float(reward), info["result"]["winners"] == [info["seat"]], decisions, steps


def evaluate(env: Any, policy: LinearPolicy | None, games: int, first_seed: int) -> tuple[float, float]:
    """Win rate and mean reward of the learner's seat over `games` fixed seeds (None: random play)."""
    rng = np.random.default_rng(first_seed)
    played = [episode(env, policy, first_seed + g, rng, False)[:2] for g in range(games)]
    return float(np.mean([won for _, won in played])), float(np.mean([reward for reward, _ in played]))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="knizia2016", help="a shipped name or a rules file's path")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--opponents", default="random", help="agent specs, as --agents writes them")
    parser.add_argument("--reward", default="win_loss", help="win_loss, win_loss_share or points (docs/adapters.md)")
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--block", type=int, default=50, help="training games per point of the curve")
    parser.add_argument("--eval", type=int, default=200, help="games to measure each policy on")
    parser.add_argument("--rate", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    env = AmunreGymEnv(args.rules, players=args.players, opponents=args.opponents, reward=args.reward)
    policy = LinearPolicy(env.action_space.n, env.observation_space.shape[0], args.seed)
    before = evaluate(env, None, args.eval, 10 ** 6)
    baseline, steps, started, block, curve = 0.0, 0, time.perf_counter(), [], []
    for number in range(args.episodes):
        reward, won, decisions, taken = episode(env, policy, args.seed + number, policy.rng, True)
        policy.learn(decisions, reward - baseline, args.rate)
        baseline += 0.05 * (reward - baseline)
        steps += taken
        block.append((won, reward))
        if len(block) == args.block or number == args.episodes - 1:
            won, mean = float(np.mean([w for w, _ in block])), float(np.mean([r for _, r in block]))
            curve.append(won)
            print(f"  games {number + 2 - len(block)}-{number + 1}: the learner won {won:.0%}, "
                  f"mean reward {mean:+.2f}", flush=True)
            block = []
    seconds = time.perf_counter() - started
    after = evaluate(env, policy, args.eval, 10 ** 6)
    figures = {"episodes": args.episodes, "steps": steps, "seconds": seconds, "curve": curve,
               "steps_per_second": steps / seconds if seconds else 0.0,
               "random_win_rate": before[0], "learned_win_rate": after[0],
               "random_mean_reward": before[1], "learned_mean_reward": after[1]}
    print(f"{args.rules}, {args.players} players, against {args.opponents}: {args.episodes} training games, "
          f"{steps} learner decisions in {seconds:.1f} s ({figures['steps_per_second']:.0f} decisions/s, "
          "the opponents' play and learning included)")
    print(f"seat 0, {args.eval} games each: random play wins {before[0]:.0%} (mean reward {before[1]:+.2f}); "
          f"the learned policy wins {after[0]:.0%} (mean reward {after[1]:+.2f})")
    return figures


if __name__ == "__main__":
    main()
