"""The compiled engine plays the interpreter's games, on every shipped rules file.

For each rules file under rules/ (house rules included), at every player count it allows,
seeded random games are played in both engines side by side (tests/compiled_support.py): at
every decision the seat to move, the legal ids, every seat's observation tensor (and the
public one) and the whole position, packed region by region, must be the same, and so must
the result. Then every value of every option, each at a player count its `allowed_if` allows
(and refused alike where it does not); then hypothesis mixes files, counts, seeds, options,
start players and starting resources (derandomized: the same examples on every run). And
every shipped file must compile: a change that stops one compiling fails here, not silently
in the interpreter's slower games.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import amunre
from amunre.interpreter.base.errors import AmunreError
from amunre.interpreter.compiled.game import compiled
from amunre.interpreter.compiled.not_compiled import NotCompiled
from compiled_support import play_alike, play_both
from conftest import REPO

SHIPPED = sorted((REPO / "rules").glob("*.yaml")) + sorted((REPO / "rules" / "house").glob("*.yaml"))
NAMES = [str(p.relative_to(REPO / "rules").with_suffix("")) for p in SHIPPED]
SEEDS = (0, 1)                      # per file and player count (three until CI ran over 20 minutes)


@functools.cache
def shipped(name: str) -> Any:
    """A shipped rules file, loaded once per process (and so lowered once)."""
    return amunre.load_rules(REPO / "rules" / f"{name}.yaml")


def counts(name: str) -> list[int]:
    rules = shipped(name)
    return list(range(rules.min_players, rules.max_players + 1))


def test_every_shipped_rules_file_compiles() -> None:
    assert len(SHIPPED) >= 15, NAMES
    refused = {}
    for name in NAMES:
        try:
            compiled(shipped(name))
        except NotCompiled as error:
            refused[name] = str(error)
    assert refused == {}, f"shipped rules files the compiled engine does not play: {refused}"


GAMES = [(name, players) for name in NAMES for players in counts(name)]


@pytest.mark.parametrize("name, players", GAMES, ids=[f"{n}-{p}p" for n, p in GAMES])
def test_seeded_random_games_are_the_same(name: str, players: int) -> None:
    rules = shipped(name)
    for seed in SEEDS:
        assert play_both(rules, players, seed) > 10 * players


def option_values(name: str) -> list[tuple[str, str]]:
    return [(option, value) for option, spec in shipped(name).options.items() for value in spec.values]


OPTIONS = [(name, option, value) for name in NAMES for option, value in option_values(name)]


@pytest.mark.parametrize("name, option, value", OPTIONS, ids=[f"{n}-{o}={v}" for n, o, v in OPTIONS])
def test_every_option_value_plays_the_same_games(name: str, option: str, value: str) -> None:
    """One game per option value, at a player count that the option allows (each value's
    games move round the counts), and a set-up the option does not allow refused alike."""
    rules = shipped(name)
    setup = {"options": {option: value}}
    allowed = []
    for players in counts(name):
        outcome, _, handed = play_alike(rules, players, seed=players, setup=setup, limit=0)   # the set-up only
        assert handed is None, f"{players} players: the machine handed the set-up over"
        if outcome != "refused":
            allowed.append(players)
    assert allowed, f"{option}={value} is allowed at no player count"
    index = rules.options[option].values.index(value)
    players = allowed[index % len(allowed)]
    assert play_both(rules, players, seed=17 + index, setup=setup) > 10 * players


def test_an_option_a_player_count_does_not_allow_is_refused_alike() -> None:
    """Pharaoh's Heir plays with one set of piecepacks at 3 players only: both engines refuse
    it at 4 with the interpreter's message (play_alike compares the errors)."""
    rules = shipped("pharaohs-heir")
    assert play_alike(rules, 4, 1, setup={"options": {"piecepacks": "one"}})[0] == "refused"
    with pytest.raises(AmunreError, match="piecepacks=one is not for this game"):
        amunre.new_game(rules, 4, 1, setup={"options": {"piecepacks": "one"}}, events=False, engine="compiled")


@st.composite
def setups(draw: Any) -> tuple[str, int, int, dict[str, Any]]:
    """A shipped file, a player count, a seed, and a set-up the compiled engine plays itself:
    options at any value, maybe a start player, maybe some seats' starting amounts."""
    name = draw(st.sampled_from(NAMES))
    rules = shipped(name)
    players = draw(st.sampled_from(counts(name)))
    setup: dict[str, Any] = {}
    options = {option: draw(st.sampled_from(spec.values)) for option, spec in rules.options.items()}
    if options and draw(st.booleans()):
        setup["options"] = options
    if draw(st.booleans()):
        setup["start_player"] = draw(st.integers(0, players - 1))
    for resource in rules.resources:
        if draw(st.integers(0, 3)) == 0:
            top = min(rules.resource_top[resource], 400)
            setup.setdefault("resources", {})[resource] = draw(
                st.lists(st.integers(0, top), min_size=1, max_size=players))
    return name, players, draw(st.integers(0, 2 ** 64 - 1)), setup


@settings(max_examples=40, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(setups())
def test_mixed_setups_play_the_same_games(drawn: tuple[str, int, int, dict[str, Any]]) -> None:
    name, players, seed, setup = drawn
    outcome, _, handed = play_alike(shipped(name), players, seed, setup)
    assert outcome in ("over", "refused"), (name, players, seed, setup)
    assert handed is None, f"{name} {players}p seed {seed} {setup}: the machine handed over after {handed} actions"



def test_an_expression_with_else_plays_alike(tmp_path) -> None:
    """`X when C else Y` (and a chain of them) in the market's price and the harvest: the
    compiled engine's bytecode takes the same branch as the interpreter, game after game."""
    from conftest import house
    rules = house(tmp_path, "phases:\n  market:\n    price: \"n * (n + 1) // 2 when n < 3 else n * n\"\n"
                            "  harvest:\n    amount: \"gold_mine + farmers when round == 1 else farmers * 2 "
                            "when round == 2 else farmers + 1\"\n")
    for seed, players in ((0, 3), (1, 4), (2, 5)):
        assert play_both(rules, players, seed) > 50


def test_the_tensor_part_is_compiled_only_when_asked() -> None:
    """A machine answers TENSOR with -2 until a caller asks for tensors (studies and bots never
    do, and do not wait for that part); the first tensor asked of a game compiles or loads it,
    and then it is the interpreter's."""
    from amunre.interpreter.compiled.entry import START, TENSOR
    from amunre.interpreter.compiled.game import CompiledGame, CompiledRules

    rules = amunre.load_rules("knizia2016")
    machine = CompiledRules(rules)                  # a machine of its own: none has asked it yet
    S = machine.state(4, 5, {})
    machine.call(S, START, -1)
    assert machine.call(S, TENSOR, 1, machine.tensor_out) == -2
    game = CompiledGame(machine, S, 4, 5, {})
    assert game.observation_tensor(1) == amunre.new_game(rules, 4, 5, events=False).observation_tensor(1)
    assert machine.call(S, TENSOR, 1, machine.tensor_out) == len(game.observation_tensor(1))
