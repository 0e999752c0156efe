"""The OpenSpiel games: OpenSpiel's own random simulation test (legal actions sorted and masked,
clone, serialise round trip, observation and information-state tensors and strings, returns
within bounds) for every shipped rules file and the house rules, and what it does not check:
chance outcomes are the engine's draws, the tensors are the engine's, the information state
is perfect recall of what the seat saw and nothing else, a resampled state keeps a seat's
information state and OpenSpiel's ISMCTSBot runs on every shipped file as it is. Skipped
without OpenSpiel."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np

import amunre
from amunre.adapters.common import final_rewards
from amunre.adapters.openspiel import register, short_name
from amunre.interpreter.base import rng
from conftest import EDITIONS, REPO, fit

HOUSE = sorted(p.stem for p in (REPO / "rules" / "house").glob("*.yaml"))


def load(name: str, **params: Any) -> Any:
    return pyspiel.load_game(short_name(name), params)


@pytest.mark.parametrize("name,players", [(name, 3 + i % 3) for i, name in enumerate(EDITIONS)])
def test_openspiel_random_simulation_test_passes(name: str, players: int) -> None:
    """Each shipped file at 3, 4 or 5 players (as near as its rules allow)."""
    players = fit(amunre.load_rules(REPO / "rules" / f"{name}.yaml"), players)
    pyspiel.random_sim_test(load(name, players=players), num_sims=1, serialize=True, verbose=False)


def test_zero_sum_rewards_and_a_house_rule_pass_it_too() -> None:
    for reward in ("points", "win_loss_share"):
        game = load("knizia2016", players=4, reward=reward)
        assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM and game.utility_sum() == 0.0
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    assert load("knizia2016", players=4).get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (load("knizia2016", reward="win_loss_share").min_utility(), load("knizia2016").max_utility()) == (-1, 1)
    for house in HOUSE:
        name = register(REPO / "rules" / "house" / f"{house}.yaml")
        assert name == short_name(house)
    pyspiel.random_sim_test(pyspiel.load_game(short_name(HOUSE[0])), num_sims=1, serialize=True, verbose=False)


def test_every_shipped_file_is_registered_with_its_options() -> None:
    names = {game.short_name for game in pyspiel.registered_games()}
    assert {short_name(name) for name in EDITIONS} <= names
    assert short_name("knizia2016-expert") == "amunre_knizia2016_expert"
    game = load("knizia2016", players=5, component_limits="unlimited")
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    assert game.num_players() == 5 and game.num_distinct_actions() == rules.actions.size
    assert game.get_parameters()["component_limits"] == "unlimited"
    state = play(game, random.Random(0), stop=lambda s: not s.is_chance_node())
    assert state._play.game.state.options["component_limits"] == "unlimited"
    for bad in ({"players": 9}, {"reward": "score"}, {"no_such": 1}, {"component_limits": "soft"}):
        with pytest.raises(Exception, match="players|reward|no parameter|option"):
            load("knizia2016", **bad)


def play(game: Any, pick: random.Random, stop: Any = None, chance: Any = None) -> Any:
    """A state played at random (chance by `chance(n)` if given) until `stop(state)` or the end."""
    state = game.new_initial_state()
    while not state.is_terminal() and not (stop and stop(state)):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [o for o, _ in outcomes] == list(range(len(outcomes)))
            assert all(abs(p - 1 / len(outcomes)) < 1e-12 for _, p in outcomes)
            state.apply_action(chance(len(outcomes)) if chance else pick.choice(outcomes)[0])
        else:
            state.apply_action(pick.choice(state.legal_actions()))
    return state


def generator(seed: int) -> Any:
    state = [seed]

    def draw(n: int) -> int:
        state[0], value = rng.below(state[0], n)
        return value
    return draw


@pytest.mark.parametrize("seed", [1, 42])
def test_chance_outcomes_are_the_engines_draws(seed: int) -> None:
    """Choosing each chance outcome as the seeded generator would draws the engine's seeded
    game: the chance nodes are exactly its random draws, nothing more, nothing less."""
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    state = play(load("knizia2016", players=4), random.Random(seed), chance=generator(seed),
                 stop=lambda s: not s.is_chance_node())
    seeded = amunre.new_game(rules, players=4, seed=seed).state.to_json()
    reached = state._play.game.state.to_json()
    assert {k: v for k, v in reached.items() if k not in ("rng", "seed")} == \
           {k: v for k, v in seeded.items() if k not in ("rng", "seed")}


def test_tensors_strings_and_returns_are_the_engines() -> None:
    game = load("knizia2016-expert", players=4)
    state = play(game, random.Random(3), stop=lambda s: len(s.history()) > 150 and not s.is_chance_node())
    engine = state._play.game
    for seat in range(4):
        assert state.observation_tensor(seat) == pytest.approx(engine.observation_tensor(seat))
        assert state.information_state_tensor(seat) == state.observation_tensor(seat)
        assert state.observation_string(seat) == __import__("json").dumps(engine.observation(seat), sort_keys=True)
    assert state.legal_actions() == engine.legal_action_ids()
    assert state.current_player() == engine.to_move
    state = play(game, random.Random(3), stop=None)
    assert state.returns() == final_rewards(state._play.game.result(), "win_loss")
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_clone_and_serialisation_are_independent_exact_copies() -> None:
    game = load("knizia2003", players=3)
    pick = random.Random(5)
    state = play(game, pick, stop=lambda s: len(s.history()) > 120)
    copy = state.clone()
    back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    pickled = pickle.loads(pickle.dumps(state))
    moves = []
    while not state.is_terminal():
        legal = state.legal_actions()
        moves.append(pick.choice(legal))
        state.apply_action(moves[-1])
    assert len(copy.history()) == len(back.history()) == 121 < len(state.history())
    for other in (copy, back, pickled):
        for move in moves:
            other.apply_action(move)
        assert str(other) == str(state) and other.returns() == state.returns()


def test_tensors_worked_out_once_per_position_are_the_uncached_ones() -> None:
    """Each seat's tensor is kept for the position (through the chance nodes inside an
    action), never after it: at every node of a whole game, asked twice and through both
    tensors, it is the engine's for that position, and so is a clone's and a restored one's."""
    game = load("knizia2016-expert", players=3)
    state = game.new_initial_state()
    pick = random.Random(6)
    nodes = 0
    while not state.is_terminal():
        engine = state._play.game
        for seat in range(3):
            expected = [0.0] * game.observation_tensor_size() if engine is None else engine.observation_tensor(seat)
            assert state.observation_tensor(seat) == pytest.approx(expected, abs=0)
            assert state.information_state_tensor(seat) == state.observation_tensor(seat)
        if nodes % 25 == 0:
            for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
                assert [copy.observation_tensor(seat) for seat in range(3)] == \
                       [state.observation_tensor(seat) for seat in range(3)]
        state.apply_action(pick.choice([o for o, _ in state.chance_outcomes()] if state.is_chance_node()
                                       else state.legal_actions()))
        nodes += 1
    assert nodes > 200


@pytest.mark.parametrize("engine", ["compiled", "interpreter"])
def test_a_seats_tensor_is_worked_out_once_per_position(monkeypatch: pytest.MonkeyPatch, engine: str) -> None:
    state = play(load("knizia2016", players=3, engine=engine), random.Random(2),
                 stop=lambda s: len(s.history()) > 90)
    worked_out = []
    kind = type(state._play.position)
    method = "tensor" if engine == "compiled" else "observation_tensor"      # a compiled position's, or a Game's
    tensor = getattr(kind, method)
    monkeypatch.setattr(kind, method, lambda position, seat: worked_out.append(seat) or tensor(position, seat))
    for _ in range(2):
        for seat in range(3):
            state.observation_tensor(seat), state.information_state_tensor(seat)
    assert worked_out == [0, 1, 2]


def test_information_state_is_perfect_recall_of_what_the_seat_saw() -> None:
    """Same moves: same string (however the state was made). A different hidden chance outcome
    that no seat's view shows: the same strings. A different own action: a different string
    for that seat, and another seat's string differs only if its view did."""
    game = load("knizia2016", players=3)

    def replay(moves: list[int]) -> Any:
        state = game.new_initial_state()
        for move in moves:
            state.apply_action(move)
        return state
    state = play(game, random.Random(8), stop=lambda s: not s.is_chance_node())
    moves = state.history()                       # the set-up's draws, up to the first decision
    strings = [state.information_state_string(seat) for seat in range(3)]
    assert strings == [replay(moves).information_state_string(seat) for seat in range(3)]
    assert len(set(strings)) == 3
    # Another outcome of one draw: the first that no seat's view shows (the first draws of a
    # shuffle choose the bottom cards of its deck) gives every seat the same string.
    views = [state.observation_string(seat) for seat in range(3)]
    twins = (replay(moves[:i] + [1 if move == 0 else move - 1] + moves[i + 1:]) for i, move in enumerate(moves))
    twin = next(t for t in twins if [t.observation_string(seat) for seat in range(3)] == views)
    assert str(twin) != str(state)
    assert [twin.information_state_string(seat) for seat in range(3)] == strings
    # The seat to move acts one way or another.
    seat = state.current_player()
    first, second = state.legal_actions()[:2]
    a, b = state.child(first), state.child(second)
    assert a.information_state_string(seat) != b.information_state_string(seat)
    for other in range(3):
        if other != seat and a.observation_string(other) == b.observation_string(other):
            assert a.information_state_string(other) == b.information_state_string(other)


def test_openspiel_algorithms_run_on_it() -> None:
    """A C++ bot and the RL environment play it (sampled chance, information-state tensors)."""
    from open_spiel.python import rl_environment
    game = load("knizia2003-online", players=3)
    bots = [pyspiel.make_uniform_random_bot(seat, seat) for seat in range(3)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)
    assert sorted(set(returns)) in ([-1.0, 1.0], [-1.0, 0.0], [0.0])
    env = rl_environment.Environment(game, chance_event_sampler=None)
    step = env.reset()
    while not step.last():
        seat = step.observations["current_player"]
        legal = step.observations["legal_actions"][seat]
        assert len(step.observations["info_state"][seat]) == game.information_state_tensor_size()
        step = env.step([int(np.random.default_rng(len(legal)).choice(legal))])
    assert sorted(set(step.rewards)) in ([-1.0, 1.0], [-1.0, 0.0], [0.0])


def seat_view(state: Any, seat: int) -> tuple:
    """All OpenSpiel shows one seat of a state."""
    return (state.current_player(), state.legal_actions() if state.current_player() == seat else None,
            state.information_state_string(seat), state.observation_string(seat),
            state.observation_tensor(seat), state.information_state_tensor(seat))


@pytest.mark.parametrize("name", ["knizia2016-expert", "modern-art"])
def test_resample_from_infostate_keeps_what_the_seat_knows(name: str) -> None:
    """A resampled state shows the seat exactly what the state shows it (every string and
    tensor), draws anew what it cannot see, is the same for the same sampler, plays on to the
    end, and refuses to be saved (it has no past)."""
    game = load(name, players=4)
    pick = random.Random(4)
    state = play(game, pick, stop=lambda s: len(s.history()) > 160 and not s.is_chance_node())
    views = [seat_view(state, seat) for seat in range(4)]
    redrawn = 0
    for seed in range(6):
        seat = (state.current_player() + seed) % 4          # the seat to move, and the others
        guess = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
        assert seat_view(guess, seat) == views[seat]
        again = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
        assert str(again) == str(guess)
        redrawn += str(guess) != str(state)
        assert guess.history() == []
    assert redrawn >= 5                              # the hidden facts are drawn anew, not copied
    with pytest.raises(amunre.AmunreError, match="cannot be saved"):
        pyspiel.serialize_game_and_state(game, guess)
    while not guess.is_terminal():
        guess.apply_action(pick.choice([o for o, _ in guess.chance_outcomes()] if guess.is_chance_node()
                                       else guess.legal_actions()))
    assert sorted(set(guess.returns())) in ([-1.0, 1.0], [-1.0, 0.0], [0.0])
    with pytest.raises(amunre.AmunreError, match="chance node"):
        game.new_initial_state().resample_from_infostate(0, random.random)


@pytest.mark.parametrize("name", EDITIONS)
def test_openspiels_ismcts_bot_plays_every_shipped_file(name: str) -> None:
    """OpenSpiel's own ISMCTSBot with its random-rollout evaluator, unmodified (it asks the
    state to resample_from_infostate), plays seat 0 of a whole game at the fewest players;
    the other seats and chance choose at random. Few simulations and short rollouts: this is
    about running, not playing well."""
    from open_spiel.python.algorithms import ismcts, mcts
    game = load(name, players=amunre.load_rules(REPO / "rules" / f"{name}.yaml").min_players)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1), max_length=10)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2, random_state=np.random.RandomState(2))
    pick = np.random.RandomState(3)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(pick.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            searched += len(state.legal_actions()) > 1
            state.apply_action(int(bot.step(state)))
        else:
            state.apply_action(int(pick.choice(state.legal_actions())))
    assert searched > 10
    assert sorted(set(state.returns())) in ([-1.0, 1.0], [-1.0, 0.0], [0.0])
