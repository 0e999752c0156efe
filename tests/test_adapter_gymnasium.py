"""The single-agent Gymnasium environment (adapters/gymnasium.py): Gymnasium's own checker on
every shipped rules file, whole games against our bots, callables and a pool, the learner's
view only, reproducible seeds, illegal actions, and Gymnasium's vector API."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env

from amunre.adapters import gymnasium as amunre_gym
from amunre.adapters.gymnasium import AmunreGymEnv, Pool
from amunre.interpreter.base.errors import AmunreError, IllegalAction
from amunre.interpreter.load.shipped import shipped_names

EXAMPLES = Path(__file__).parents[1] / "docs" / "examples"


def _first_legal(info: dict[str, Any]) -> int:
    return int(np.flatnonzero(info["action_mask"])[0])


def _play(env: Any, seed: int, choose: Any = _first_legal) -> tuple[list[np.ndarray], float, dict[str, Any]]:
    observation, info = env.reset(seed=seed)
    seen = [observation]
    while True:
        observation, reward, terminated, truncated, info = env.step(choose(info))
        seen.append(observation)
        assert not truncated
        if terminated:
            return seen, reward, info


@pytest.mark.parametrize("name", shipped_names())
def test_gymnasiums_checker_passes_without_a_warning(name: str) -> None:
    env = gymnasium.make(f"amunre/{name}-v0")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_every_shipped_file_and_the_generic_id_are_registered() -> None:
    assert amunre_gym.REGISTERED == [f"amunre/{name}-v0" for name in shipped_names()] + ["amunre/game-v0"]
    assert gymnasium.make("amunre.adapters.gymnasium:amunre/modern-art-v0").unwrapped.rules.id == "modern_art"
    assert gymnasium.make("amunre/game-v0", rules="pharaohs-heir", players=3).unwrapped.players == 3


def test_a_whole_game_against_greedy_pays_at_the_end_only() -> None:
    env = gymnasium.make("amunre/knizia2016-v0", opponents="greedy")
    observation, info = env.reset(seed=11)
    game = env.unwrapped.game
    rewards = []
    while True:
        assert game.to_move == 0 and info["seat"] == 0          # the learner acts only on its turns
        assert list(np.flatnonzero(info["action_mask"])) == game.legal_action_ids()
        assert np.array_equal(observation, np.asarray(game.observation_tensor(0), np.float32))   # its own view
        assert env.observation_space.contains(observation)
        observation, reward, terminated, truncated, info = env.step(_first_legal(info))
        rewards.append(reward)
        if terminated:
            break
    assert game.over and rewards[:-1] == [0.0] * (len(rewards) - 1)
    result = info["result"]
    assert rewards[-1] == (1.0 if result["winners"] == [0] else 0.0 if 0 in result["winners"] else -1.0)
    assert not info["action_mask"].any()


def test_the_same_seed_plays_the_same_game_and_another_seed_another() -> None:
    env = AmunreGymEnv("knizia2003", players=3, opponents="heuristic")
    first, _, info = _play(env, 5)
    again, _, again_info = _play(env, 5)
    other, _, other_info = _play(env, 6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again)) and len(first) == len(again)
    assert info["result"] == again_info["result"]
    assert other_info["result"] != info["result"] or len(other) != len(first)


def test_opponents_one_per_seat_callables_and_a_seat_drawn_each_game() -> None:
    calls = []

    def first(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append(observation.shape)
        return int(np.flatnonzero(mask)[0])

    env = AmunreGymEnv("knizia2016", players=4, seat=None, opponents=["random", first, "greedy"])
    seats = set()
    for seed in range(6):
        _, _, info = _play(env, seed)
        seats.add(info["seat"])
        assert env.unwrapped.seat == info["seat"]
    assert len(seats) > 1 and calls
    assert {shape for shape in calls} == {env.observation_space.shape}


def test_a_pool_draws_opponents_for_every_game_from_the_seeded_generator() -> None:
    drawn: list[str] = []

    def named(name: str) -> Any:
        def policy(observation: np.ndarray, mask: np.ndarray) -> int:
            drawn.append(name)
            return int(np.flatnonzero(mask)[-1])
        return policy

    pool = Pool([named("old")])
    pool.add(named("new"))
    env = AmunreGymEnv("modern-art", players=3, opponents=pool)
    env.reset(seed=1)
    order = list(env.unwrapped._playing)
    env.reset(seed=1)
    assert list(env.unwrapped._playing) == order                 # the seed fixes the draw
    for seed in range(2, 8):
        _play(env, seed)
    assert set(drawn) == {"old", "new"}
    with pytest.raises(AmunreError, match="empty"):
        AmunreGymEnv("modern-art", players=3, opponents=Pool()).reset(seed=0)


def test_an_illegal_action_ends_the_game_or_raises_when_asked() -> None:
    env = AmunreGymEnv("knizia2016")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, str(illegal))
    with pytest.raises(AmunreError, match="reset"):
        env.step(_first_legal(info) if info["action_mask"].any() else 0)
    strict = AmunreGymEnv("knizia2016", illegal_reward=None)
    _, info = strict.reset(seed=2)
    for wrong in (illegal, True, 1.0, "3", None):
        with pytest.raises(IllegalAction):
            strict.step(wrong)
    strict.step(np.int64(_first_legal(info)))            # a numpy integer is an id
    assert AmunreGymEnv("knizia2016", illegal_reward=np.float32(-2)).illegal_reward == -2.0


def test_bad_settings_are_clear_errors() -> None:
    with pytest.raises(AmunreError, match="2 opponents given for 3 other seats"):
        AmunreGymEnv("knizia2016", players=4, opponents=["random", "greedy"])
    with pytest.raises(AmunreError, match="unknown agent 'greedyy'"):
        AmunreGymEnv("knizia2016", opponents="greedyy")
    with pytest.raises(AmunreError, match="seat is None"):
        AmunreGymEnv("knizia2016", players=3, seat=3)
    with pytest.raises(AmunreError, match="an opponent is an agent spec"):
        AmunreGymEnv("knizia2016", opponents=[1, 2, 3])
    with pytest.raises(AmunreError, match="illegal_reward is a number or None"):
        AmunreGymEnv("knizia2016", illegal_reward=True)


def test_the_game_is_there_before_the_first_reset_but_not_a_step() -> None:
    env = AmunreGymEnv("pharaohs-heir", players=3)
    assert env.game.observation_layout()[0]["name"]
    with pytest.raises(AmunreError, match="reset"):
        env.step(0)


def test_gymnasiums_vector_api_plays_several_games_at_once() -> None:
    envs = gymnasium.make_vec("amunre/knizia2016-v0", num_envs=2, vectorization_mode="sync")
    observations, infos = envs.reset(seed=3)
    assert observations.shape == (2,) + envs.single_observation_space.shape
    for _ in range(20):
        actions = np.array([int(np.flatnonzero(mask)[0]) for mask in infos["action_mask"]])
        observations, rewards, terminated, truncated, infos = envs.step(actions)
    assert observations.shape[0] == 2 and rewards.shape == (2,)
    envs.close()


def test_ansi_render_shows_the_learners_view() -> None:
    env = AmunreGymEnv("knizia2016", render_mode="ansi")
    assert env.render() and "Final scores" not in env.render()
    _, reward, info = _play(env, 4)
    assert "Final scores" in env.render()


def test_the_training_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/examples/reinforce.py, for a few games (docs/adapters.md quotes a full run)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("reinforce", EXAMPLES / "reinforce.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    figures = example.main(["--episodes", "3", "--block", "2", "--eval", "2", "--players", "3",
                            "--opponents", "random,heuristic"])
    assert figures["steps"] > 30 and 0.0 <= figures["learned_win_rate"] <= 1.0
    assert len(figures["curve"]) == 2                     # a point per block of games, the last one short
    out = capsys.readouterr().out
    assert "decisions/s" in out and "games 3-3: the learner won" in out
    assert "greedy policy" not in example.__doc__ and "sampling its actions" in example.__doc__   # as act() does


def test_the_step_that_ends_the_game_on_an_illegal_action_shows_no_legal_action() -> None:
    env = AmunreGymEnv("knizia2016")
    _, info = env.reset(seed=3)
    _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert terminated and not info["action_mask"].any() and not env.action_masks().any()


def test_an_opponents_illegal_choice_is_its_own_error() -> None:
    env = AmunreGymEnv("knizia2016", players=3, seat=2, opponents=lambda observation, mask: -5)
    with pytest.raises(IllegalAction, match="the opponent in seat 0"):
        env.reset(seed=1)


def test_what_the_environments_take_is_checked_in_words() -> None:
    """issue 34, item 7: options that are no mapping, and the generic id without rules=, ended in
    a raw TypeError."""
    pettingzoo = pytest.importorskip("amunre.adapters.pettingzoo")
    with pytest.raises(AmunreError, match="options are a mapping"):
        pettingzoo.env("knizia2016", options=[1])
    with pytest.raises(AmunreError, match="options are a mapping"):
        AmunreGymEnv("knizia2016", options=[("temple_scoring", 1)])
    with pytest.raises(AmunreError, match="rules="):
        gymnasium.make("amunre/game-v0")
