"""The adapters on both engines (adapters/engine.py): the same seeds and the same actions give
the very same episodes, step by step (the seat to move, every agent's observation and mask,
rewards, terminations, infos and results), whether the compiled engine or the interpreter
steps the game; "auto" is the compiled engine where it plays the rules file. Skipped without
PettingZoo, Gymnasium or OpenSpiel (each test needs its own)."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import amunre
from conftest import REPO

FILES = ["knizia2016", "knizia2003-online", "modern-art", "pharaohs-heir", "house/once_around_auction"]


def path(name: str) -> Any:
    return REPO / "rules" / f"{name}.yaml"


def same(a: Any, b: Any) -> bool:
    """Equal values, numpy arrays equal in dtype, shape and every number, inside dicts and lists."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype
                and np.array_equal(a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def assert_same_episodes(got: list[Any], expected: list[Any]) -> None:
    assert len(got) == len(expected)
    for step, (a, b) in enumerate(zip(got, expected)):
        assert same(a, b), f"step {step}: {a!r:.300} against {b!r:.300}"


# ---- PettingZoo -------------------------------------------------------------------------------------

def pettingzoo_episode(name: str, engine: str, players: int, seed: int, flat: bool = False) -> list[Any]:
    """A seeded random game through the AEC loop: at every step what every agent observes."""
    pytest.importorskip("pettingzoo")
    from amunre.adapters.pettingzoo import raw_env
    environment = raw_env(path(name), players=players, engine=engine, flat=flat, reward="points")
    environment.reset(seed=seed)
    if engine == "compiled":
        assert environment.game.engine == "compiled"
    pick = random.Random(seed)
    seen = []
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, info = environment.last()
        views = {other: environment.observe(other) for other in environment.agents}
        seen.append((agent, observation, reward, terminated, truncated, info, views,
                     dict(environment.rewards), dict(environment._cumulative_rewards)))
        if terminated or truncated:
            environment.step(None)
            continue
        mask = info["action_mask"]
        environment.step(pick.choice(np.flatnonzero(mask).tolist()))
    return seen


@pytest.mark.parametrize("name", FILES)
def test_pettingzoo_episodes_are_the_same_on_both_engines(name: str) -> None:
    rules = amunre.load_rules(path(name))
    for i, seed in enumerate((3, 8)):
        players = rules.min_players + (i + len(name)) % (rules.max_players - rules.min_players + 1)
        compiled = pettingzoo_episode(name, "compiled", players, seed)
        assert_same_episodes(compiled, pettingzoo_episode(name, "interpreter", players, seed))
        assert compiled[-1][3]                                   # played to the end


def test_pettingzoo_flat_observations_and_auto_are_the_same_too() -> None:
    pytest.importorskip("pettingzoo")
    from amunre.adapters.pettingzoo import raw_env
    assert_same_episodes(pettingzoo_episode("knizia2016-expert", "auto", 3, 5, flat=True),
                         pettingzoo_episode("knizia2016-expert", "interpreter", 3, 5, flat=True))
    assert raw_env("knizia2016").game.engine == "compiled"    # auto: the compiled engine, where it plays
    assert isinstance(raw_env("knizia2016", engine="interpreter").game, amunre.Game)


def test_pettingzoo_renders_the_same_on_both_engines() -> None:
    pytest.importorskip("pettingzoo")
    from amunre.adapters.pettingzoo import raw_env
    texts = {}
    for engine in ("compiled", "interpreter"):
        environment = raw_env("knizia2016", players=3, engine=engine, render_mode="ansi")
        environment.reset(seed=4)
        pick, shown = random.Random(4), []
        for step, _agent in enumerate(environment.agent_iter()):
            _, _, terminated, _, info = environment.last()
            if step % 7 == 0 or terminated:
                shown.append(environment.render())
            environment.step(None if terminated else pick.choice(np.flatnonzero(info["action_mask"]).tolist()))
        texts[engine] = shown
    assert texts["compiled"] == texts["interpreter"]
    assert any("bids:" in text for text in texts["compiled"])    # the bids, from the event log
    assert "Final scores" in texts["compiled"][-1]


def test_a_bad_engine_is_refused() -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from amunre.adapters.gymnasium import AmunreGymEnv
    from amunre.adapters.pettingzoo import raw_env
    with pytest.raises(amunre.AmunreError, match="engine is one of interpreter, compiled, auto"):
        raw_env("knizia2016", engine="fast")
    with pytest.raises(amunre.AmunreError, match="engine is one of"):
        AmunreGymEnv("knizia2016", engine=None)


# ---- Gymnasium ----------------------------------------------------------------------------------------

def gymnasium_episodes(name: str, engine: str, opponents: Any, games: int = 2) -> list[Any]:
    pytest.importorskip("gymnasium")
    from amunre.adapters.gymnasium import AmunreGymEnv
    env = AmunreGymEnv(path(name), players=3, seat=None, opponents=opponents, engine=engine)
    seen: list[Any] = []
    for seed in range(games):
        observation, info = env.reset(seed=seed)
        if engine == "compiled":
            assert env.game.engine == "compiled"
        looking = [bot.engine for bot in env._playing if hasattr(bot, "engine")]     # greedy, heuristic, ismcts
        assert looking == [{"compiled": "compiled", "interpreter": "auto"}[engine]] * len(looking)
        seen.append((observation, info))
        pick = random.Random(seed)
        while True:
            action = pick.choice(np.flatnonzero(info["action_mask"]).tolist())
            observation, reward, terminated, truncated, info = env.step(action)
            seen.append((observation, reward, terminated, truncated, info, env.action_masks()))
            if terminated:
                break
    return seen


def policy(observation: Any, mask: Any) -> int:
    """A callable opponent: the legal id its observation's numbers point at."""
    legal = np.flatnonzero(mask)
    return int(legal[int(abs(observation).sum()) % len(legal)])


@pytest.mark.parametrize("name", FILES[:3])
def test_gymnasium_episodes_are_the_same_on_both_engines(name: str) -> None:
    for opponents in ("random", ["random", policy]):
        assert_same_episodes(gymnasium_episodes(name, "compiled", opponents),
                             gymnasium_episodes(name, "interpreter", opponents))


def test_gymnasium_searching_opponents_play_the_same_on_both_engines() -> None:
    """Our greedy agent reads the whole Game API: on the compiled engine it is given the
    interpreter's Game of the same position and looks ahead on the machine (compiled for it: a
    bot alone would not compile), and chooses as it does in the interpreter."""
    assert_same_episodes(gymnasium_episodes("knizia2016", "compiled", "greedy", games=1),
                         gymnasium_episodes("knizia2016", "interpreter", "greedy", games=1))


# ---- OpenSpiel ------------------------------------------------------------------------------------------

def openspiel_node(state: Any, players: int, public: Any) -> list[Any]:
    """All OpenSpiel shows of a node: whose it is, its moves, and every seat's view."""
    if state.is_chance_node():
        return ["chance", state.chance_outcomes(), str(state)]
    node = [state.current_player(), state.legal_actions(), state.is_terminal(), state.returns()]
    for seat in range(players):
        node += [state.observation_tensor(seat), state.observation_string(seat),
                 state.information_state_string(seat), state.information_state_tensor(seat)]
    public.set_from(state, 0)
    node += [public.tensor.tolist(), public.string_from(state, 0)]
    if not state.is_terminal():
        node.append(state.action_to_string(state.current_player(), state.legal_actions()[0]))
    return node


def openspiel_episode(name: str, engine: str, players: int, seed: int) -> list[Any]:
    """A game with random chance outcomes and actions; what OpenSpiel shows at every node, and
    at a decision half-way, a state resampled for one seat played on to its end too."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.observation import make_observation

    from amunre.adapters.openspiel import register
    game = pyspiel.load_game(register(path(name)), {"players": players, "engine": engine})
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    state = game.new_initial_state()
    pick = random.Random(seed)
    seen, guessed, compiled = [], False, 0
    while True:
        seen.append(openspiel_node(state, players, public))
        if state.is_terminal():
            break
        if not guessed and not state.is_chance_node() and len(state.history()) > 150:
            guessed = True
            guess = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(seed, 0, 1))
            assert guess.history() == []
            while not guess.is_terminal():
                seen.append(openspiel_node(guess, players, public))
                moves = [o for o, _ in guess.chance_outcomes()] if guess.is_chance_node() else guess.legal_actions()
                guess.apply_action(pick.choice(moves))
            seen.append(openspiel_node(guess, players, public))
        moves = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(pick.choice(moves))
        compiled += state._play._fast is not None
    assert guessed and state.returns() == seen[-1][3]
    if engine == "compiled":
        assert compiled > len(seen) // 2                 # the compiled engine played most of it
    return seen


@pytest.mark.parametrize("name", FILES)
def test_openspiel_games_are_the_same_on_both_engines(name: str) -> None:
    rules = amunre.load_rules(path(name))
    players = min(max(3, rules.min_players), rules.max_players)
    assert_same_episodes(openspiel_episode(name, "compiled", players, 2),
                         openspiel_episode(name, "interpreter", players, 2))


def test_openspiel_states_clone_and_serialise_on_the_compiled_engine() -> None:
    """A clone, a pickled and a serialised state of a game on the compiled engine play on as
    the state does, with the same views."""
    pyspiel = pytest.importorskip("pyspiel")
    import pickle

    from amunre.adapters.openspiel import short_name
    game = pyspiel.load_game(short_name("knizia2016"), {"players": 4, "engine": "compiled"})
    assert game.get_parameters()["engine"] == "compiled"
    state = game.new_initial_state()
    pick = random.Random(9)
    while len(state.history()) < 140 or state.is_chance_node():
        state.apply_action(pick.choice([o for o, _ in state.chance_outcomes()] if state.is_chance_node()
                                       else state.legal_actions()))
    copies = [state.clone(), pickle.loads(pickle.dumps(state)),
              pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]]
    assert all(copy._play.engine == "compiled" for copy in copies)
    while not state.is_terminal():
        move = pick.choice([o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions())
        for copy in (state, *copies):
            copy.apply_action(move)
        views = [[copy.observation_tensor(seat) for seat in range(4)] for copy in (state, *copies)]
        assert all(view == views[0] for view in views)
    assert all(str(copy) == str(state) and copy.returns() == state.returns() for copy in copies)
    with pytest.raises(pyspiel.SpielError, match="engine"):
        pyspiel.load_game(short_name("knizia2016"), {"engine": "fast"})


def test_an_explicit_game_the_compiled_engine_does_not_play_is_the_interpreters_or_refused() -> None:
    """"auto" plays a set-up the compiled engine does not (dealt hands) on the interpreter,
    "compiled" refuses it; and an explicit game on the compiled engine is the interpreter's."""
    from amunre.adapters.explicit import ExplicitGame
    from amunre.interpreter.compiled.not_compiled import NotCompiled
    rules = amunre.load_rules(path("knizia2016"))
    dealt = {"hands": [[], [], []]}
    assert ExplicitGame(rules, 3, dealt)._machine is None
    with pytest.raises(NotCompiled, match="hands"):
        ExplicitGame(rules, 3, dealt, engine="compiled")
    with pytest.raises(amunre.AmunreError, match="engine is one of"):
        ExplicitGame(rules, 3, engine="machine")
    games = [ExplicitGame(rules, 4, engine=engine) for engine in ("compiled", "interpreter")]
    pick, drew = random.Random(1), 0
    while not games[1].over:
        assert games[0].legal_moves() == games[1].legal_moves() and games[0].to_move == games[1].to_move
        drew += games[0].pending_action() is not None
        move = pick.choice(games[1].legal_moves())
        for game in games:
            game.apply(move)
    assert games[0].over and games[0].result() == games[1].result() and drew > 0   # reshuffles: chance nodes inside
    assert games[0].game.state.to_json() == games[1].game.state.to_json()
    assert ExplicitGame.from_json(games[0].to_json(), rules, engine="compiled").game.state.to_json() == \
        games[1].game.state.to_json()
