"""The command line checks what it can before any game (issue 21, item 6): a `--plot` file in
a format matplotlib cannot write, an output in a folder that is not there; the Ray backend
joins a cluster within a time limit and obeys Ctrl-C while it tries; listings never cut a
name a user must type. Each test here failed before."""

from __future__ import annotations

import _thread
import signal
import threading
import time
import types
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from amunre.cli.app import app
from amunre.interpreter.base.errors import AmunreError
from amunre.tools.simulate import ray_backend

REPO = Path(__file__).resolve().parents[1]
RULES = str(REPO / "rules" / "knizia2016.yaml")


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def assert_usage_error(result: Any, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    for fragment in fragments:
        assert fragment in result.output, result.output


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played fails the test: the checks come before them."""
    from amunre.cli import simulate

    def played(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game was played before the outputs were checked")
    monkeypatch.setattr(simulate, "run_study", played)


# ---- outputs checked before the games -----------------------------------------------------------

@pytest.mark.parametrize("name", ["scores.txt", "scores", "scores.png.bak", "scores."])
@pytest.mark.parametrize("command", [["simulate", RULES], ["compare", RULES]])
def test_a_plot_in_no_picture_format_is_refused_before_any_game(tmp_path: Path, no_games: None, name: str,
                                                                 command: list[str]) -> None:
    pytest.importorskip("matplotlib")
    result = invoke(*command, "-n", "2", "-j", "1", "-q", "--plot", str(tmp_path / name))
    assert_usage_error(result, "--plot", "does not end in the extension of a picture format", ".png", ".svg")
    assert list(tmp_path.iterdir()) == []


def test_a_plot_in_any_format_matplotlib_writes_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    picture = tmp_path / "scores.SVG"
    result = invoke("simulate", RULES, "-n", "2", "-j", "1", "-q", "-a", "random,random,random", "--seed", "1",
                    "--plot", str(picture))
    assert result.exit_code == 0, result.output
    assert b"<svg" in picture.read_bytes()[:400]


@pytest.mark.parametrize("option", ["--json", "--csv", "--plot"])
def test_an_output_in_a_folder_that_is_not_there_is_refused_before_any_game(tmp_path: Path, no_games: None,
                                                                           option: str) -> None:
    result = invoke("simulate", RULES, "-n", "2", "-j", "1", "-q", option, str(tmp_path / "missing" / "out.png"))
    assert_usage_error(result, option, "does not exist")


def test_a_log_in_a_folder_that_is_not_there_is_refused_before_the_game(tmp_path: Path) -> None:
    result = invoke("run", RULES, "-a", "random,random,random", "--seed", "1", "-q",
                    "--log", str(tmp_path / "missing" / "game.jsonl"))
    assert_usage_error(result, "--log", "does not exist")
    assert "Final scores" not in result.output


# ---- the Ray backend: a time limit, and Ctrl-C ---------------------------------------------------

class StuckRay:
    """A Ray whose `init` never reaches its cluster and, like Ray's retries in its own code,
    does not let a Ctrl-C through; it gives up after `give_up` seconds."""

    def __init__(self, give_up: float = 3.0) -> None:
        self.give_up = give_up
        self.release = threading.Event()

    def is_initialized(self) -> bool:
        return False

    def init(self, **kwargs: Any) -> None:
        end = time.monotonic() + self.give_up
        while time.monotonic() < end and not self.release.is_set():
            try:
                self.release.wait(0.05)
            except KeyboardInterrupt:           # swallowed, as a C++ retry loop does
                pass
        raise ConnectionError("Failed to connect to GCS")


@pytest.fixture
def stuck() -> Any:
    ray = StuckRay()
    yield ray
    ray.release.set()


def test_joining_a_cluster_that_never_answers_ends_at_the_time_limit(stuck: StuckRay,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ray_backend, "RAY_CONNECT_SECONDS", 0.3)
    began = time.monotonic()
    with pytest.raises(AmunreError, match="no Ray cluster answered at nope:1 within 0.3 s"):
        ray_backend._start(types.SimpleNamespace(is_initialized=stuck.is_initialized, init=stuck.init), None,
                           "nope:1")
    assert time.monotonic() - began < 2


def test_ctrl_c_while_joining_a_cluster_stops_at_once(stuck: StuckRay) -> None:
    ray = types.SimpleNamespace(is_initialized=stuck.is_initialized, init=stuck.init)
    # Python's own Ctrl-C: an earlier test in this worker (a local Ray started and stopped)
    # may have left SIGINT with another handler, and then `interrupt_main` is not heard (two
    # clone CI runs waited out the stuck join instead).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, _thread.interrupt_main)      # as Ctrl-C: SIGINT in the main thread
    timer.start()
    began = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            ray_backend._start(ray, None, "nope:1")
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - began < 2


def test_a_cluster_that_refuses_is_an_error_naming_its_address(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(**kwargs: Any) -> None:
        raise ConnectionError("Failed to connect to GCS at address nope:1")
    ray = types.SimpleNamespace(is_initialized=lambda: False, init=refused)
    monkeypatch.setitem(__import__("sys").modules, "ray", ray)
    result = invoke("simulate", RULES, "-n", "2", "-q", "--backend", "ray", "--address", "nope:1", "--seed", "1")
    assert result.exit_code == 1, result.output
    assert "cannot join the Ray cluster at nope:1: Failed to connect" in result.output


# ---- listings never cut a name a user must type ---------------------------------------------------

def shipped_names() -> list[str]:
    import json
    return [row["name"] for row in json.loads(invoke("editions", "--json").stdout)]


def option_names() -> list[str]:
    import json
    rows = json.loads(invoke("options", RULES, "--json").stdout)
    return [row["name"] for row in rows] + [value for row in rows for value in row["values"]]


@pytest.mark.parametrize("columns", ["20", "40", "80", "200"])
def test_listings_in_a_pipe_give_every_name_whole(columns: str) -> None:
    """Not on a terminal (a pipe, a file, a script), whatever COLUMNS says."""
    env = {"COLUMNS": columns}
    editions = CliRunner().invoke(app, ["editions"], env=env).output
    assert all(name in editions.split() for name in shipped_names()), editions
    options = CliRunner().invoke(app, ["options", RULES], env=env).output
    assert all(name in options.replace(",", " ").split() for name in option_names()), options
    agents = CliRunner().invoke(app, ["agents"], env=env).output
    assert all(key in agents.split() for key in ("iterations", "horizon", "style", "high_offer")), agents
    assert "…" not in editions + options + agents


@pytest.mark.parametrize("width", [30, 60, 90, 140, 250])
def test_a_listing_on_a_terminal_of_any_width_gives_every_name_whole(width: int) -> None:
    import io

    from rich.console import Console

    from amunre.cli.listing import print_listing
    names = ["knizia2016-expert", "nile_side_without_pyramids", "a" * 45]
    rows = [[name, "a title that goes on " * 4, "2016", "word " * 30] for name in names]
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system=None)
    print_listing(console, ["name", "title", "year", "source"], rows, {"name"}, title="Listing")
    text = out.getvalue()
    assert all(name in text for name in names) and "…" not in text, text
    assert max(len(line) for line in text.splitlines()) <= width or "name: " not in text
