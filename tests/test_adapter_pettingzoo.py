"""The PettingZoo environment: PettingZoo's own API and seed tests, for every shipped rules file
and the house rules, and what they do not check: the observation is the engine's tensor for
the agent's seat, the mask its legal ids, the rewards the documented convention, and a seed
the same game as the engine's. Skipped when PettingZoo is not installed."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

import amunre
from amunre.adapters.common import final_rewards
from amunre.adapters.pettingzoo import env, raw_env
from conftest import EDITIONS, REPO

HOUSE = sorted(p.stem for p in (REPO / "rules" / "house").glob("*.yaml"))


def rules_file(name: str) -> Path:
    folder = REPO / "rules" / ("house" if name in HOUSE else "")
    return folder / f"{name}.yaml"


@pytest.mark.parametrize("name", EDITIONS + HOUSE)
def test_pettingzoo_api_and_seed_tests_pass(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")             # every other warning of the checker fails the test
        # PettingZoo's checker prefers flat Box observations and names its own dict-observation
        # games as exceptions; ours is a dict of observation and action mask like theirs.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        api_test(env(rules_file(name), players=3, seed=1), num_cycles=1000)
        most = amunre.load_rules(rules_file(name)).max_players       # the largest table the file allows
        seed_test(lambda: env(rules_file(name), players=min(5, most)), num_cycles=500)


def play_out(environment: Any, seed: int) -> list[int]:
    """Random legal play to the end; the actions taken."""
    environment.reset(seed=seed)
    pick = np.random.default_rng(seed)
    taken = []
    for _agent in environment.agent_iter():
        observation, reward, terminated, truncated, info = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        action = int(pick.choice(np.flatnonzero(observation["action_mask"])))
        taken.append(action)
        environment.step(action)
    return taken


def test_observation_and_mask_are_the_engines(rules_2016: Any) -> None:
    environment = raw_env(rules_2016, players=4)
    environment.reset(seed=3)
    game = amunre.new_game(rules_2016, players=4, seed=3)
    pick = np.random.default_rng(0)
    for _ in range(120):
        agent = environment.agent_selection
        seat = int(agent.split("_")[1])
        assert seat == game.to_move
        legal = game.legal_action_ids()
        observation, _, _, _, info = environment.last()
        assert np.flatnonzero(observation["action_mask"]).tolist() == legal
        assert np.flatnonzero(info["action_mask"]).tolist() == legal
        for other in environment.agents:
            seen = environment.observe(other)
            other_seat = environment.agent_name_mapping[other]
            assert seen["observation"].tolist() == game.observation_tensor(other_seat)
            assert seen["observation"].dtype == np.float32
            assert seen["action_mask"].any() == (other == agent)
        action = int(pick.choice(legal))
        environment.step(action)
        game.apply_id(action)


def test_a_seed_is_the_engines_game_and_resets_follow_on(rules_2016: Any) -> None:
    environment = raw_env(rules_2016, players=4, seed=7)
    environment.reset()
    assert environment.seed_played == 7
    assert environment.game.state.to_json() == amunre.new_game(rules_2016, players=4, seed=7).state.to_json()
    first = play_out(environment, 11)
    environment.reset()
    following = environment.seed_played
    assert play_out(environment, 11) == first                 # the same seed: the same game
    environment.reset()
    assert environment.seed_played == following               # and the same seeds after it


def test_the_game_is_there_before_the_first_reset(rules_2016: Any) -> None:
    """What a researcher reads before playing (the layout, the action ids) needs no reset:
    `game` is the game of the env's seed (0 without one) until reset starts the one played."""
    seeded = env(rules_2016, players=3, seed=7)
    assert seeded.unwrapped.game.state.to_json() == amunre.new_game(rules_2016, players=3, seed=7).state.to_json()
    unseeded = env("knizia2016", players=3).unwrapped
    engine = amunre.new_game(rules_2016, players=3, seed=0)
    assert unseeded.game.state.to_json() == engine.state.to_json()
    assert unseeded.game.observation_layout() == engine.observation_layout()
    assert unseeded.game.action_from_id(5) == engine.action_from_id(5)
    assert unseeded.seed_played is None
    unseeded.reset(seed=3)
    assert unseeded.seed_played == 3
    assert unseeded.game.state.to_json() == amunre.new_game(rules_2016, players=3, seed=3).state.to_json()
    unseeded.close()
    assert unseeded.game is None


@pytest.mark.parametrize("reward", ["win_loss", "win_loss_share", "points"])
def test_rewards_come_at_the_end_as_documented(rules_2016: Any, reward: str) -> None:
    environment = raw_env(rules_2016, players=4, reward=reward)
    environment.reset(seed=5)
    pick = np.random.default_rng(5)
    paid: dict[str, float] = {agent: 0.0 for agent in environment.possible_agents}
    results = []
    for agent in environment.agent_iter():
        observation, got, terminated, truncated, info = environment.last()
        paid[agent] += got
        if terminated:
            results.append(info["result"])
            environment.step(None)
            continue
        assert got == 0.0
        environment.step(int(pick.choice(np.flatnonzero(observation["action_mask"]))))
    result = results[0]
    assert len(results) == 4 and all(r == result for r in results)
    expected = final_rewards(result, reward)
    assert [paid[a] for a in environment.possible_agents] == expected
    if reward != "win_loss":
        assert abs(sum(expected)) < 1e-9
    else:
        assert sorted(set(expected)) in ([-1.0, 1.0], [-1.0, 0.0], [0.0])


def test_win_loss_and_points_conventions() -> None:
    assert final_rewards({"scores": [10, 30, 20], "winners": [1]}, "win_loss") == [-1.0, 1.0, -1.0]
    assert final_rewards({"scores": [30, 30, 20], "winners": [0, 1]}, "win_loss") == [0.0, 0.0, -1.0]
    assert final_rewards({"scores": [10, 30, 20], "winners": [1]}, "points") == [-10.0, 10.0, 0.0]
    share = {((1,), 3): [-0.5, 1.0, -0.5], ((0, 1), 3): [0.5, 0.5, -1.0], ((0, 1, 2), 3): [0.0, 0.0, 0.0],
             ((2,), 4): [-1 / 3, -1 / 3, 1.0, -1 / 3], ((0, 3), 4): [0.5, -0.5, -0.5, 0.5]}
    for (winners, players), expected in share.items():
        got = final_rewards({"scores": [0] * players, "winners": list(winners)}, "win_loss_share")
        assert got == pytest.approx(expected) and sum(got) == pytest.approx(0.0, abs=1e-12)


def test_illegal_actions_bad_arguments_and_render(rules_2016: Any) -> None:
    environment = raw_env(rules_2016, players=3, render_mode="ansi")
    environment.reset(seed=2)
    legal = set(environment.game.legal_action_ids())
    illegal = next(i for i in range(rules_2016.actions.size) if i not in legal)
    with pytest.raises(amunre.IllegalAction):
        environment.step(illegal)
    text = environment.render()
    assert "to move" in text and "Your hand" in text
    with pytest.raises(amunre.AmunreError, match="reward"):
        raw_env(rules_2016, reward="score")
    with pytest.raises(amunre.AmunreError, match="players"):
        raw_env(rules_2016, players=9)
    with pytest.raises(amunre.AmunreError, match="option"):
        raw_env(rules_2016, options={"no_such_option": "x"})
    with pytest.raises(amunre.AmunreError, match="render_mode"):
        raw_env(rules_2016, render_mode="rgb_array")
    options = {name: opt.values[-1] for name, opt in rules_2016.options.items()}
    chosen = raw_env("knizia2016", options=options)           # a shipped name, and its options
    chosen.reset(seed=1)
    assert chosen.game.state.options == options


@pytest.mark.parametrize("name", EDITIONS)
def test_the_flat_observation_passes_the_api_test_without_a_warning(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")             # a Box observation: not even the dict warnings
        api_test(env(rules_file(name), players=3, seed=1, flat=True), num_cycles=300)


def test_supersuits_observation_wrappers_take_the_flat_observation() -> None:
    """SuperSuit's dtype, flatten, normalize_obs and frame_stack wrappers refuse a dict
    observation; the flat one goes through each, with the mask still in the acting agent's info."""
    ss = pytest.importorskip("supersuit")
    wrappers = {"dtype": lambda e: ss.dtype_v0(e, np.float64), "flatten": ss.flatten_v0,
                "normalize_obs": lambda e: ss.normalize_obs_v0(ss.dtype_v0(e, np.float32), env_min=-1, env_max=1),
                "frame_stack": lambda e: ss.frame_stack_v1(e, 2)}
    plain = env("knizia2016", players=3, seed=4, flat=True)
    size = plain.observation_space("player_0").shape[0]
    for name, wrap in wrappers.items():
        wrapped = wrap(env("knizia2016", players=3, seed=4, flat=True))
        wrapped.reset(seed=4)
        steps = 0
        for _agent in wrapped.agent_iter(max_iter=150):
            observation, _, terminated, truncated, info = wrapped.last()
            assert observation.shape == ((2 * size,) if name == "frame_stack" else (size,)), name
            wrapped.step(None if terminated or truncated else int(np.flatnonzero(info["action_mask"])[0]))
            steps += 1
        assert steps == 150, name


def test_flat_is_a_bool() -> None:
    with pytest.raises(amunre.AmunreError, match="flat is True or False"):
        raw_env("knizia2016", flat="yes")
