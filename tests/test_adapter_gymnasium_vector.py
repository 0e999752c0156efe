"""The vector environment (adapters/gymnasium_vector.py, issue 33 item 3): with random opponents,
the very batch Gymnasium's SyncVectorEnv makes of the single environment (observations, masks,
rewards, terminations, autoresets), step for step; in self-play, every game the interpreter's
own game of the same seed and actions, observed by the seat to move; clear refusals."""

from __future__ import annotations

from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from amunre import load_rules, new_game
from amunre.adapters.common import final_rewards
from amunre.adapters.gymnasium import AmunreGymEnv
from amunre.adapters.gymnasium_vector import AmunreVectorEnv
from amunre.interpreter.base.errors import AmunreError
from conftest import RULES_PATH


def _random_legal(rng: Any, masks: Any, actions: int) -> Any:
    """A random legal id a game (0 where none: a game that ended, whose action is ignored), and
    now and then an id that is no legal one."""
    chosen = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])
    if rng.random() < 0.05:
        chosen[0] = int(rng.integers(actions))
    return chosen


@pytest.mark.parametrize(("name", "seat"), [("knizia2016", None), ("modern-art", 1)])
def test_the_batch_is_the_sync_vector_env_of_the_single_env(name: str, seat: int | None) -> None:
    count = 5
    ours = AmunreVectorEnv(name, num_envs=count, seat=seat)
    theirs = gymnasium.vector.SyncVectorEnv([lambda: AmunreGymEnv(name, seat=seat, opponents="random")
                                             for _ in range(count)])
    assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"]
    assert ours.observation_space == theirs.observation_space and ours.action_space == theirs.action_space
    a, b = ours.reset(seed=11), theirs.reset(seed=11)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1]["action_mask"], b[1]["action_mask"])
    rng, ended, illegal = np.random.default_rng(3), 0, 0
    info = a[1]
    for step in range(300):
        actions = _random_legal(rng, info["action_mask"], ours.actions)
        mine, same = ours.step(actions), theirs.step(actions)
        for what, x, y in zip(("observations", "rewards", "terminations", "truncations"), mine[:4], same[:4]):
            assert np.array_equal(x, y), f"step {step}: {what} differ"
        assert np.array_equal(mine[4]["action_mask"], same[4]["action_mask"]), f"step {step}: masks differ"
        assert np.array_equal(mine[4]["seat"], same[4]["seat"])
        assert ours.observation_space.contains(mine[0])
        ended += int(mine[2].sum())
        illegal += int(mine[4].get("_illegal", np.zeros(count, bool)).sum())
        info = mine[4]
    assert ended >= count and illegal >= 1           # games ended and started afresh; an illegal id was tried


@pytest.mark.parametrize(("name", "players", "count", "steps", "options"), [
    ("knizia2016", 4, 3, 900, {}),
    # every other shipped file's own mechanics and tensor pieces through the batch loop too
    ("knizia2016-expert", 5, 2, 500, {}), ("knizia2003", 3, 2, 400, {}), ("knizia2003-online", 5, 2, 500, {}),
    ("pharaohs-heir", 3, 2, 800, {}), ("modern-art", 4, 2, 400, {}),
    ("knizia2003", 4, 2, 400, {"gold_change": "payments_only"}),      # gold held as cards: the held section
])
def test_self_play_games_are_the_interpreters_games(name: str, players: int, count: int, steps: int,
                                                     options: dict[str, Any]) -> None:
    rules, setup = load_rules(name), {"options": options}
    envs = AmunreVectorEnv(rules, num_envs=count, players=players, opponents=None, options=options)
    observations, info = envs.reset(seed=4)
    games = [new_game(rules, players, int(envs.seeds[i]), setup, events=False) for i in range(count)]
    rng, finished = np.random.default_rng(8), 0
    for _ in range(steps):
        for i, game in enumerate(games):
            if game.over:                           # ended at the last step: the env starts it afresh now
                continue
            assert info["seat"][i] == game.to_move
            assert np.array_equal(observations[i], np.asarray(game.observation_tensor(game.to_move), np.float32))
            assert sorted(np.flatnonzero(info["action_mask"][i])) == game.legal_action_ids()
        actions = np.array([0 if game.over else int(rng.choice(game.legal_action_ids())) for game in games])
        restarted = [game.over for game in games]
        movers = [game.to_move for game in games]
        for game, action in zip(games, actions):
            if not game.over:
                game.apply_id(int(action))
        observations, rewards, terminations, _, info = envs.step(actions)
        for i, game in enumerate(games):
            if restarted[i]:
                games[i] = new_game(rules, players, int(envs.seeds[i]), setup, events=False)
                assert not terminations[i] and rewards[i] == 0.0
            elif game.over:
                assert terminations[i] and info["result"][i] == game.result()
                assert info["seat"][i] == movers[i]         # observed and rewarded as the seat that ended it
                assert rewards[i] == final_rewards(game.result(), envs.reward)[movers[i]]
                finished += 1
            else:
                assert not terminations[i] and rewards[i] == 0.0
    assert finished >= 2


@pytest.mark.parametrize(("name", "opponents"), [("knizia2016", None), ("modern-art", "random")])
def test_random_actions_are_legal_and_seeded(name: str, opponents: str | None) -> None:
    """random_actions: for each game a legal id of its mask (0 where the mask is empty: a game
    that ended), never one the step refuses, through games that end and start afresh; a reset
    with the same seed (or seeds) draws the same actions again."""
    envs = AmunreVectorEnv(name, num_envs=6, opponents=opponents)
    runs, ended = [], 0
    for run in range(2):
        _, info = envs.reset(seed=5)
        if run:                         # Gymnasium's np_random_seed read: the generator kept, not drawn afresh
            assert envs.np_random_seed == -1
        drawn = []
        for _ in range(400):
            actions = envs.random_actions()
            for mask, action in zip(info["action_mask"], actions):
                assert mask[action] == 1 if mask.any() else action == 0
            _, _, terminations, _, info = envs.step(actions)
            assert "illegal" not in info
            drawn.append(actions)
            ended += int(terminations.sum())
        runs.append(np.array(drawn))
    assert np.array_equal(runs[0], runs[1]) and ended >= 2
    firsts = []
    for _ in range(2):                  # a seed a game: the same list, the same draws
        envs.reset(seed=[9, 8, 7, 6, 5, 4])
        firsts.append(np.array([envs.random_actions() for _ in range(20)]))
    assert np.array_equal(firsts[0], firsts[1])


def test_random_actions_draw_every_legal_id_alike() -> None:
    """Drawn again and again at one step, each game's legal ids come up about equally often
    (within five standard deviations of a fair draw), and no other id does."""
    envs = AmunreVectorEnv("knizia2016", num_envs=8, opponents=None)
    _, info = envs.reset(seed=3)
    for _ in range(30):                 # on into the game, where the ids are more and fewer
        _, _, _, _, info = envs.step(envs.random_actions())
    draws = 3000
    picked = np.array([envs.random_actions() for _ in range(draws)])
    sizes = set()
    for game in range(envs.num_envs):
        legal = np.flatnonzero(info["action_mask"][game])
        counts = np.bincount(picked[:, game], minlength=envs.actions)
        assert set(np.flatnonzero(counts)) == set(legal.tolist())
        fair, spread = draws / len(legal), (draws * (1 / len(legal)) * (1 - 1 / len(legal))) ** 0.5
        assert np.all(np.abs(counts[legal] - fair) <= 5 * spread + 1e-9), (game, counts[legal])
        sizes.add(len(legal))
    assert max(sizes) >= 3              # a draw among several ids was seen


def test_what_it_refuses() -> None:
    with pytest.raises(AmunreError, match="opponents are 'random'"):
        AmunreVectorEnv("knizia2016", num_envs=2, opponents="greedy")
    with pytest.raises(AmunreError, match="num_envs"):
        AmunreVectorEnv("knizia2016", num_envs=0)
    envs = AmunreVectorEnv("knizia2016", num_envs=2)
    with pytest.raises(AmunreError, match="reset"):
        envs.step([0, 0])
    with pytest.raises(AmunreError, match="reset"):
        envs.random_actions()
    envs.reset(seed=1)
    with pytest.raises(AmunreError, match="2 whole numbers"):
        envs.step([0])


def test_without_copies_the_same_numbers_in_the_envs_own_arrays() -> None:
    """copy=False (as Gymnasium's SyncVectorEnv has it): each step returns the environment's own
    observation and mask arrays, written over by the next step, holding what copy=True returns."""
    copied = AmunreVectorEnv("knizia2016", num_envs=3, opponents=None)
    shared = AmunreVectorEnv("knizia2016", num_envs=3, opponents=None, copy=False)
    (a, a_info), (b, b_info) = copied.reset(seed=2), shared.reset(seed=2)
    rng = np.random.default_rng(5)
    for _ in range(40):
        assert np.array_equal(a, b) and np.array_equal(a_info["action_mask"], b_info["action_mask"])
        actions = _random_legal(rng, a_info["action_mask"], copied.actions)
        a, *_, a_info = copied.step(actions)
        before = b
        b, *_, b_info = shared.step(actions)
        assert b is before and b_info["action_mask"] is shared.masks
        assert a is not copied.obs and a_info["action_mask"] is not copied.masks


def test_a_game_whose_result_the_machine_cannot_read_ends_truncated(tmp_path: Any) -> None:
    """The winner's key past the machine's range (an interpreter game would read it: its numbers
    have no bound) while nothing during play is: the game ends truncated, as one the machine
    stopped in; its seed's fresh game is never read as its result."""
    big = 999_999_999_999_999                  # the largest number the DSL writes: two multiplied pass 2**62
    (tmp_path / "knizia2016.yaml").write_bytes(RULES_PATH.read_bytes())
    rules = tmp_path / "huge-key.yaml"
    rules.write_text(f"extends: knizia2016.yaml\nwinner:\n  by: \"(my.vp + {big}) * {big} // {big} - {big}\"\n",
                     encoding="utf-8")
    envs = AmunreVectorEnv(str(rules), num_envs=2, opponents=None)
    _, info = envs.reset(seed=3)
    rng, ended = np.random.default_rng(1), 0
    for _ in range(1500):
        legal = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in info["action_mask"]]
        _, rewards, terminations, truncations, info = envs.step(np.array(legal))
        assert not terminations.any() and "result" not in info
        if truncations.any():
            assert np.array_equal(info["_stopped"], truncations) and not rewards[truncations].any()
            ended += int(truncations.sum())
    assert ended >= 2
