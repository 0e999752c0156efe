"""Shared fixtures: the 2016 rules (loaded once per session) and random play helpers."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import amunre
from amunre.interpreter.base.cache_dir import folder_of_this_process
from amunre.interpreter.base.causes import Cause
from amunre.tools.agents import make_agent

# The rules cache of the test session (and of the commands it runs) lives apart from the user's,
# and goes when the process that made it (a worker, or the session) exits: not with a forked child.
os.environ["AMUNRE_CACHE_DIR"] = str(folder_of_this_process("amunre-test-cache-"))
# ... but the compiled engine's machine code (keyed by the digest of its sources: never stale) is
# shared by the session's workers and kept between sessions: compiling it takes minutes.
os.environ.setdefault("AMUNRE_COMPILED_CACHE_DIR", os.path.join(tempfile.gettempdir(), "amunre-test-machine-code"))

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
RULES_PATH = REPO / "rules" / "knizia2016.yaml"
MAX_ACTIONS = 5000          # a game that runs longer than this is taken to be stuck


def effect_bindings(game: amunre.Game, seat: int, effect: Any) -> list[dict[str, Any]]:
    """Every allowed combination of an effect's choices, as the actions of its block make them."""
    from amunre.interpreter.base.actions import ActionSpace
    from amunre.interpreter.play import choices
    space = ActionSpace()
    material = type("Material", (), {"places": game.rules.place_ids, "players": game.rules.max_players})
    block = space.declare("test", None, choices.choice_fields(effect, material))
    space.number()
    allowed = choices.allowed_ids(game, seat, effect, block, Cause("card", "t"))
    return [choices.env_of(block, block.indices(i)) for i in allowed]


def move_to(game: amunre.Game, phase: str, age: int = 1, round: int = 1) -> None:
    """Put the cursor of the game's flow at a phase (not begun), in the given age and round: the
    start of a scenario. The first leaf of the flow that runs the phase is taken."""
    flow, state = game.rules.flow, game.state
    state.at = next(at for at, node in enumerate(flow.leaves) if flow.nodes[node].phase == phase)
    if flow.age >= 0:
        state.passes[flow.age] = age
    if flow.round >= 0:
        state.passes[flow.round] = round
    state.working = None


def walked(rules: Any) -> list[Any]:
    """The phases the flow runs, in order, with their age and round, as it goes when nothing
    is decided (tools/flow_walk.py): a step's number there is state.step when it runs."""
    from amunre.interpreter.dsl.context import Ctx
    from amunre.tools.flow_walk import walk
    game = amunre.new_game(rules, players=rules.min_players, seed=0, events=False)
    return list(walk(rules.flow, Ctx(game)))


def phase_steps(rules: Any, phase: str) -> list[int]:
    """The numbers of the steps at which a phase runs (see `walked`)."""
    return [i for i, step in enumerate(walked(rules)) if step.phase == phase]


def ok_line(path: Path | str) -> str:
    """What `amunre validate` prints for a file that passes without warnings: OK, and how many
    worked examples it holds."""
    count = len(amunre.load_rules(path).examples)
    return f"OK {path}" + (f" ({count} example{'s' if count != 1 else ''})" if count else "")


def house(tmp_path: Path, body: str) -> Any:
    """Rules from a file that extends (a copy of) the 2016 edition with `body`."""
    shutil.copy(RULES_PATH, tmp_path / "knizia2016.yaml")
    path = tmp_path / "house.yaml"
    path.write_text("extends: knizia2016.yaml\n" + body, encoding="utf-8")
    return amunre.load_rules(path)


def position(text: str, anchor: str, inner: str) -> tuple[int, int]:
    """1-based line and column of `inner` inside the first occurrence of `anchor` in `text`."""
    start = text.index(anchor) + anchor.index(inner)
    line = text.count("\n", 0, start) + 1
    col = start - (text.rfind("\n", 0, start) + 1) + 1
    return line, col


def interruptible(command: list[str]) -> subprocess.Popen:
    """Start a command that a test will interrupt with SIGINT (Ctrl-C). The child starts with
    SIGINT at its default, so that Python turns it into KeyboardInterrupt: a shell runs a
    background job with SIGINT ignored, and a child inherits that."""
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def rows_written(path: Path, command: subprocess.Popen, seconds: float = 240) -> int:
    """Wait until a running study's CSV file holds a game (its rows reach the file in progress,
    `.NAME.*.part.csv` beside it, as each game ends), the command ends or the time runs out;
    the games the file in progress holds."""
    deadline = time.monotonic() + seconds
    while command.poll() is None and time.monotonic() < deadline:
        if _lines(_in_progress(path)) > 1:
            break
        time.sleep(0.2)
    return max(_lines(_in_progress(path)) - 1, 0)


def _in_progress(path: Path) -> Path | None:
    """The file a command is writing for `path` (cli/outputs.py), else `path` once written."""
    found = sorted(path.parent.glob(f".{path.stem}.*.part{path.suffix}"))
    return found[0] if found else path if path.exists() else None


def _lines(path: Path | None) -> int:
    try:
        return len(path.read_text(encoding="utf-8").splitlines()) if path is not None else 0
    except OSError:                  # renamed into place, or removed, between the look and the read
        return 0


def agent_seeds(seed: int, players: int) -> list[int]:
    """The random agents' seeds for the game of `seed`: one per seat, all different."""
    return [seed * 101 + seat + 1 for seat in range(players)]


def random_agents(seed: int, players: int) -> list[Any]:
    return [make_agent("random", s) for s in agent_seeds(seed, players)]


def play_random(rules: Any, players: int, seed: int, *, stop: Callable[[Any], bool] | None = None,
                after: Callable[[Any, dict[str, Any], int], None] | None = None,
                max_actions: int = MAX_ACTIONS) -> amunre.Game:
    """Play a game with seeded random agents until it is over (or `stop(game)` holds).

    `after(game, action, index)` runs after every action. Fails the test when a game runs
    past `max_actions` or a seat to move has no legal action.
    """
    game = amunre.new_game(rules, players=players, seed=seed)
    agents = random_agents(seed, players)
    index = 0
    while not game.over:
        if stop is not None and stop(game):
            return game
        legal = game.legal_actions()
        assert legal, f"seed {seed}: seat {game.to_move} to move with no legal action at action {index}"
        action = agents[game.to_move].choose(game, legal)
        game.apply(action)
        if after is not None:
            after(game, action, index)
        index += 1
        assert index < max_actions, f"seed {seed}, {players} players: no end after {index} actions"
    return game


@pytest.fixture(scope="session")
def rules_path() -> Path:
    return RULES_PATH


@pytest.fixture(scope="session")
def rules() -> Any:
    return amunre.load_rules(RULES_PATH)


@pytest.fixture(scope="session")
def rules_2016() -> Any:
    """The 2016 rules, for tests about their particulars in modules run for every edition."""
    return amunre.load_rules(RULES_PATH)


EDITIONS = sorted(p.stem for p in (REPO / "rules").glob("*.yaml"))
# Option values that change how the engine plays, not only a number or a formula: the modules
# run for every edition run for each of these too, as that edition with the value as default.
OPTION_VARIANTS = ["knizia2003@gold_change=payments_only"]


@pytest.fixture(scope="session", params=EDITIONS + OPTION_VARIANTS)
def edition(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Each bundled rules file in turn, then each option variant. A module whose tests must
    hold for every edition overrides `rules` with it (`every_edition` below), and so runs them
    all for each."""
    name, _, option = request.param.partition("@")
    if not option:
        return amunre.load_rules(REPO / "rules" / f"{name}.yaml")
    return with_option(name, *option.split("="), tmp_path_factory.mktemp("variant"))


def with_option(edition: str, option: str, value: str, folder: Path) -> Any:
    """A shipped rules file with one option's default changed: a two-line house rule."""
    path = folder / f"{edition}-{option}-{value}.yaml"
    path.write_text(f"extends: {edition}\noptions: {{{option}: {{default: {value}}}}}\n", encoding="utf-8")
    return amunre.load_rules(path)


def every_edition(edition: Any) -> Any:
    return edition


def fit(rules: Any, players: int) -> int:
    """A player count the rules allow, as near `players` as may be (a test written for 3 to 5
    players runs a 3-4 player game at 4 instead of 5)."""
    return min(max(players, rules.min_players), rules.max_players)


@pytest.fixture
def play(rules: Any) -> Callable[..., amunre.Game]:
    """play(players, seed, stop=..., after=...): a game of seeded random agents."""
    def run(players: int, seed: int, **kwargs: Any) -> amunre.Game:
        return play_random(rules, players, seed, **kwargs)
    return run


# The suite's longest tests, longest first (`pytest --durations=40`): they run first, so that
# `-n auto`'s workers do not end with one of them running while the other waits (the suite's
# last minutes were spent so: three of them sat at the end of the collection). A test left off
# this list only runs later; none is skipped.
LONGEST_FIRST = (
    "tests/test_fuzz.py::test_corrupted_logs",
    "tests/test_serve_browser.py::test_a_2016_game_played",
    "tests/test_fuzz.py::test_rules_text_with_broken_lines",
    "tests/test_fuzz.py::test_mutated_rules_files",
    "tests/test_compiled_corpora.py::test_fuzzed_rules_files",
    "tests/test_random_play.py::test_random_games_keep_every_invariant[pharaohs-heir",
    "tests/test_adapter_engines.py::test_openspiel_games_are_the_same_on_both_engines[pharaohs-heir]",
    "tests/test_fmt.py::test_the_shipped_rules_files_are_in_canonical_form",
    "tests/test_random_play.py::test_random_games_keep_every_invariant",
    "tests/test_serve_browser.py",
    "tests/test_replay.py::test_same_game_under_any_hash_seed",
    "tests/test_fuzz.py",
    "tests/test_compiled_corpora.py",
    "tests/test_adapter_engines.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first (LONGEST_FIRST), the rest in their order."""
    def rank(item: pytest.Item) -> int:
        return next((i for i, prefix in enumerate(LONGEST_FIRST) if item.nodeid.startswith(prefix)),
                    len(LONGEST_FIRST))
    items.sort(key=rank)
