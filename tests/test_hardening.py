"""What a careless or hostile command line must never do (issue 21): write over one of its own
inputs, leave a half-written output, read without bound, or end in a raw Python exception.

Each test here failed before the fix it names.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import stat
import threading
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from amunre.cli.human import HumanAgent
from amunre.cli.outputs import output_file, refuse_overwriting, replacing
from amunre.interpreter.base.errors import IllegalAction, shown_repr, shown_value
from amunre.interpreter.base.reading import FileRefused, read_bytes, read_text
from conftest import RULES_PATH

runner = CliRunner()
RANDOM3 = "random,random,random"


def invoke(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def assert_usage_error(result, *fragments: str) -> None:
    """Exit status 2 (a mistake in the command line), one message, no traceback."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


@pytest.fixture
def rules_copy(tmp_path: Path) -> Path:
    """A copy of the 2016 rules, and beside it a house rule that extends it."""
    path = tmp_path / "rules.yaml"
    shutil.copy(RULES_PATH, path)
    (tmp_path / "house.yaml").write_text("extends: rules.yaml\nid: house\n", encoding="utf-8")
    return path


def leftovers(folder: Path) -> list[str]:
    """Temporary files an output left behind."""
    return sorted(p.name for p in folder.iterdir() if ".part" in p.name)


# ---- no command writes over its own input ---------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["run", "{rules}", "--agents", RANDOM3, "--seed", "1", "--log", "{rules}"],
    ["run", "{house}", "--agents", RANDOM3, "--seed", "1", "--log", "{rules}"],         # the file it extends
    ["run", "{rules}", "--agents", RANDOM3, "--seed", "1", "--log", "{dir}/./rules.yaml"],
    ["simulate", "{rules}", "-n", "2", "-j", "1", "-q", "--csv", "{rules}"],
    ["simulate", "{rules}", "-n", "2", "-j", "1", "-q", "--json", "{rules}"],
    ["simulate", "{rules}", "-n", "2", "-j", "1", "-q", "--plot", "{rules}"],
    ["compare", "{rules}", "{house}", "-n", "2", "-j", "1", "-q", "--json", "{rules}"],
    ["compare", "{rules}", "{house}", "-n", "2", "-j", "1", "-q", "--csv", "{rules}"],
    ["arena", "{rules}", "-a", "greedy,random,random", "-n", "2", "-j", "1", "-q", "--csv", "{rules}"],
    ["arena", "{rules}", "-a", "greedy,random,random", "-n", "2", "-j", "1", "-q", "--json", "{rules}"],
])
def test_an_output_that_is_an_input_is_refused_before_any_work(rules_copy: Path, command: list[str]) -> None:
    folder = rules_copy.parent
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    args = [a.format(rules=rules_copy, house=folder / "house.yaml", dir=folder) for a in command]
    result = invoke(*args)
    assert_usage_error(result, "would destroy it")
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_a_hard_link_to_the_rules_is_the_rules(rules_copy: Path) -> None:
    link = rules_copy.parent / "link.jsonl"
    link.hardlink_to(rules_copy)
    before = rules_copy.read_bytes()
    assert_usage_error(invoke("run", rules_copy, "--agents", RANDOM3, "--log", link), "the rules file")
    assert rules_copy.read_bytes() == before


def test_two_outputs_in_one_file_are_refused(tmp_path: Path) -> None:
    result = invoke("simulate", RULES_PATH, "-n", "2", "-j", "1", "-q", "--json", tmp_path / "out",
                    "--csv", tmp_path / "out")
    assert_usage_error(result, "give each output its own file")
    assert not (tmp_path / "out").exists()


# ---- outputs are written whole -------------------------------------------------------------------

def test_an_output_replaces_the_old_file_only_when_it_is_complete(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old\n", encoding="utf-8")
    with pytest.raises(RuntimeError), output_file(target) as handle:
        handle.write("half")
        raise RuntimeError("stopped half-way")
    assert target.read_text(encoding="utf-8") == "old\n" and not leftovers(tmp_path)
    with output_file(target) as handle:
        handle.write("new\n")
        assert target.read_text(encoding="utf-8") == "old\n"      # not yet: the new text is beside it
    assert target.read_text(encoding="utf-8") == "new\n" and not leftovers(tmp_path)


def test_a_temporary_output_ends_as_its_file_does(tmp_path: Path) -> None:
    """A writer that picks its format by the name's extension (matplotlib) sees the same one."""
    with replacing(tmp_path / "plot.png") as temporary:
        assert temporary.endswith(".png") and Path(temporary).parent == tmp_path
        Path(temporary).write_bytes(b"png")
    assert (tmp_path / "plot.png").read_bytes() == b"png"


def _reading(fifo: Path) -> tuple[threading.Thread, list[bytes]]:
    """A reader of a FIFO in a thread (a writer opening it waits for one); what it read."""
    read: list[bytes] = []
    thread = threading.Thread(target=lambda: read.append(fifo.read_bytes()), daemon=True)
    thread.start()
    return thread, read


def test_a_device_or_a_pipe_is_written_to_not_replaced(tmp_path: Path) -> None:
    """`--log /dev/null`, a FIFO or a link to one (issue 34, item 7): written through, as a
    shell's `>` would; renamed over, a device would become a plain file (as root: /dev/null)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(fifo)
    for target in (fifo, link):
        thread, read = _reading(fifo)
        with output_file(target) as handle:
            handle.write("a line\n")
        thread.join(10)
        assert read == [b"a line\n"]
        assert stat.S_ISFIFO(os.stat(fifo).st_mode) and link.is_symlink() and not leftovers(tmp_path)
    thread, read = _reading(fifo)
    result = invoke("run", RULES_PATH, "--agents", RANDOM3, "--seed", "1", "-q", "--log", link)
    thread.join(60)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and read and read[0].startswith(b"{")
    refuse_overwriting({"--log": os.devnull, "--json": os.devnull}, [])    # one device twice: the user's choice


def test_a_game_that_stops_leaves_an_existing_log_untouched(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(f"extends: {RULES_PATH}\nid: broken\nphases:\n  final_scoring:\n    rules:\n"
                      "      - {id: gold, rank: ~, points: \"1 // (my.gold - my.gold)\"}\n", encoding="utf-8")
    log = tmp_path / "game.jsonl"
    log.write_text("the log of another game\n", encoding="utf-8")
    result = invoke("run", broken, "--agents", RANDOM3, "--seed", "1", "-q", "--log", log)
    assert result.exit_code == 1 and "the game stopped" in result.output, result.output
    assert log.read_text(encoding="utf-8") == "the log of another game\n"
    assert not leftovers(tmp_path)


def test_a_written_log_gets_the_permissions_of_a_new_file(tmp_path: Path) -> None:
    """Not those of the temporary file it was written as (private: 0600)."""
    log = tmp_path / "game.jsonl"
    result = invoke("run", RULES_PATH, "--agents", RANDOM3, "--seed", "1", "-q", "--log", log)
    assert result.exit_code == 0, result.output
    mask = os.umask(0)
    os.umask(mask)
    assert log.stat().st_mode & 0o777 == 0o666 & ~mask
    assert log.read_text(encoding="utf-8").startswith('{"amunre_log"') and not leftovers(tmp_path)


# ---- every file is read bounded, and only if it is a file ---------------------------------------

@pytest.fixture
def quick():
    """Fail a test that blocks (a FIFO opened for reading waits for a writer) instead of hanging."""
    def stuck(signum, frame):
        raise TimeoutError("blocked: the file was read without bound or waited for a writer")
    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def odd_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Names that are there but are no regular file, and what each must be called."""
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    (tmp_path / "folder.yaml").mkdir()
    found = {"fifo": (fifo, "a FIFO (named pipe)"), "directory": (tmp_path / "folder.yaml", "a directory")}
    if Path("/dev/zero").exists():
        found["device"] = (Path("/dev/zero"), "a character device")
    return found


@pytest.mark.parametrize("kind", ["fifo", "directory", "device"])
def test_the_reader_refuses_what_is_not_a_file_saying_what_it_is(odd_files, kind: str, quick) -> None:
    if kind not in odd_files:
        pytest.skip("no /dev/zero here")
    path, words = odd_files[kind]
    with pytest.raises(FileRefused, match=f"it is {re.escape(words)}, not a file"):
        read_text(path, 1000)
    with pytest.raises(amunre.RulesError, match=f"cannot read rules file .*it is {re.escape(words)}"):
        amunre.load_rules(path)


def test_the_size_limit_holds_while_reading_not_after(tmp_path: Path, quick) -> None:
    """A sparse file of 10 GB: read whole, it would exhaust the memory long before the check."""
    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as handle:
        handle.truncate(10 ** 10)
    with pytest.raises(FileRefused, match="larger than 1,000 bytes"):
        read_bytes(huge, 1000)
    with pytest.raises(amunre.RulesError, match="larger than 1,000,000 bytes"):
        amunre.load_rules(huge)
    assert read_text(_written(tmp_path / "small", "a\r\nb\rc\n"), 1000) == "a\nb\nc\n"   # as text files read


def _written(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.mark.parametrize("kind", ["fifo", "directory", "device"])
@pytest.mark.parametrize("command", ["validate", "run", "resolve", "replay", "explain"])
def test_commands_refuse_what_is_not_a_file(odd_files, kind: str, command: str, quick) -> None:
    if kind not in odd_files:
        pytest.skip("no /dev/zero here")
    path, words = odd_files[kind]
    result = invoke(command, path)
    assert result.exit_code == 1, result.output
    assert f"it is {words}, not a file" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("kind", ["fifo", "directory", "device"])
def test_a_log_naming_what_is_not_a_file_as_its_rules_is_refused(tmp_path: Path, odd_files, kind: str,
                                                                quick) -> None:
    if kind not in odd_files:
        pytest.skip("no /dev/zero here")
    path, words = odd_files[kind]
    log = tmp_path / "game.jsonl"
    log.write_text(json.dumps({"amunre_log": 1, "rules": str(path), "rules_id": "", "digest": "0", "seed": 1,
                               "players": 3}) + "\n", encoding="utf-8")
    result = invoke("replay", log)
    assert result.exit_code == 1 and f"it is {words}, not a file" in result.output, result.output


@pytest.mark.parametrize("kind", ["fifo", "directory", "device"])
def test_extends_of_what_is_not_a_file_says_what_it_is(tmp_path: Path, odd_files, kind: str, quick) -> None:
    if kind not in odd_files:
        pytest.skip("no /dev/zero here")
    path, words = odd_files[kind]
    house = _written(tmp_path / "house.yaml", f"extends: {path}\n")
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(house)
    text = info.value.format()
    assert f"'extends' names {words}, not a rules file" in text and "does not exist" not in text
    assert text.startswith(f"{house}:1:10: ")


# ---- no raw exception from a rules file -----------------------------------------------------------

@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "\ufeff# a comment after a BOM\n"])
def test_an_empty_rules_file_is_an_error_at_its_first_line(tmp_path: Path, text: str) -> None:
    path = _written(tmp_path / "empty.yaml", text)
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(path)
    assert info.value.format().startswith(f"{path}:1:1: empty rules file")
    result = invoke("validate", path)
    assert result.exit_code == 1 and f"{path}:1:1: empty rules file" in result.output, result.output


@pytest.mark.parametrize("parent", ["", "# nothing\n", "/dev/null"])
def test_extends_of_an_empty_file_is_an_error(tmp_path: Path, parent: str) -> None:
    if parent.startswith("/"):
        target = parent
    else:
        _written(tmp_path / "parent.yaml", parent)
        target = "parent.yaml"
    house = _written(tmp_path / "house.yaml", f"extends: {target}\nid: house\n")
    with pytest.raises(amunre.RulesError, match="empty rules file|names a character device"):
        amunre.load_rules(house)
    for command in ("validate", "run", "resolve", "diff", "simulate", "options"):
        args = [command, house] + ([house] if command == "diff" else [])
        result = invoke(*args)
        assert result.exit_code in (1, 2) and "Traceback" not in result.output, (command, result.output)
        assert isinstance(result.exception, SystemExit), (command, result.exception)


@pytest.mark.parametrize("target", ['"a\\0b"', "a" * 5000, "/".join(["x" * 300] * 3)])
def test_an_extends_name_no_file_can_have_is_an_error(tmp_path: Path, target: str) -> None:
    house = _written(tmp_path / "house.yaml", f"extends: {target}\nid: house\n")
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(house)
    assert info.value.format().startswith(f"{house}:1:10: ")
    result = invoke("validate", house)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output


def test_a_rules_name_too_long_for_the_system_is_an_error() -> None:
    result = invoke("run", "a" * 5000)
    assert result.exit_code == 1 and "cannot read rules file" in result.output, result.output
    assert isinstance(result.exception, SystemExit), result.exception


# ---- an integer too long to print is refused like any other bad value ----------------------------

HUGE = 10 ** 5000          # Python refuses to turn an integer of more than 4,300 digits into text


@pytest.fixture(scope="module")
def rules_2016():
    return amunre.load_rules(RULES_PATH)


@pytest.mark.parametrize("attempt", [
    lambda game: game.apply_id(HUGE),
    lambda game: game.apply_id(-HUGE),
    lambda game: game.action_from_id(HUGE),
    lambda game: game.action_to_id({**game.legal_actions()[0], "space": HUGE}),
    lambda game: game.apply({**game.legal_actions()[0], "space": HUGE}),
    lambda game: game.apply({"type": [[HUGE]]}),
    lambda game: game.apply({"type": "bid", HUGE: 1}),
    lambda game: game.apply(HUGE),
], ids=["apply_id", "apply_id-negative", "action_from_id", "action_to_id", "apply", "apply-nested", "apply-key",
        "apply-not-a-dict"])
def test_a_huge_integer_in_an_action_is_an_illegal_action(rules_2016, attempt) -> None:
    game = amunre.new_game(rules_2016, players=4, seed=1)
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        attempt(game)
    assert "integer of about 5,001 digits" in str(info.value) and len(str(info.value)) < 1000
    assert game.to_json() == before


def test_messages_show_a_huge_integer_by_its_size() -> None:
    assert shown_value(HUGE) == "<an integer of about 5,001 digits>"
    assert shown_value([1, -HUGE]) == "[1, <a negative integer of about 5,001 digits>]"
    assert shown_repr({"x": HUGE}) == "{'x': <an integer of about 5,001 digits>}"
    assert shown_value(10 ** 4000).endswith("...") and shown_value(7) == "7"      # printable: shown, cut short


def test_a_save_or_a_setup_holding_a_huge_integer_is_refused(rules_2016) -> None:
    game = amunre.new_game(rules_2016, players=4, seed=1)
    game.apply_id(game.legal_action_ids()[0])
    for edit in (lambda save: save["actions"].append(HUGE), lambda save: save["actions"].__setitem__(0, HUGE),
                 lambda save: save["state"].__setitem__(HUGE, 1)):
        save = game.to_json()
        edit(save)
        with pytest.raises(amunre.AmunreError, match="integer of about 5,001 digits"):
            amunre.Game.from_json(save, rules_2016)
    for setup in ({"x": HUGE}, {"start_player": HUGE}, {"options": {"x": HUGE}}):
        with pytest.raises(amunre.AmunreError, match="integer of about 5,001 digits"):
            amunre.new_game(rules_2016, players=4, seed=1, setup=setup)


@pytest.mark.parametrize("typed", ["²", "9" * 5000, "١"])          # a superscript, a huge number, an Arabic digit
def test_a_person_typing_an_odd_number_is_asked_again(rules_2016, typed: str) -> None:
    game = amunre.new_game(rules_2016, players=3, seed=4)
    out = io.StringIO()
    agent = HumanAgent(Console(file=out, width=100), input=io.StringIO(f"{typed}\n1\n"))
    assert agent.choose(game, game.legal_actions()) == game.legal_actions()[0]
    assert "is not a choice" in out.getvalue()


# ---- values checked at the edge: seats, agent budgets, game counts ----------------------------------

@pytest.mark.parametrize("seat", [-1, 4, 99, True, False, 1.0, "0", None, HUGE],
                         ids=["-1", "4", "99", "True", "False", "1.0", "text", "None", "huge"])
def test_an_observation_is_of_a_seat_of_the_game(rules_2016, seat) -> None:
    """Python would take -1 as the last seat and True as seat 1: another seat's hidden hand."""
    game = amunre.new_game(rules_2016, players=4, seed=1)
    for observe in (game.observation, game.observation_tensor):
        with pytest.raises(amunre.AmunreError, match="a seat of this game is a whole number from 0 to 3"):
            observe(seat)


def test_an_observation_takes_any_integral_seat(rules_2016) -> None:
    class Seat:
        def __index__(self) -> int:
            return 2
    game = amunre.new_game(rules_2016, players=4, seed=1)
    assert game.observation(Seat()) == game.observation(2)


@pytest.mark.parametrize("command, message", [
    (["run", RULES_PATH, "--agents", "ismcts:iterations=0,greedy,greedy"], "give a budget"),
    (["run", RULES_PATH, "--agents", "ismcts:iterations=99999999999,greedy,greedy"], "from 0 to 10,000,000"),
    (["run", RULES_PATH, "--agents", "ismcts:ms=99999999999,greedy,greedy"], "from 0 to 3,600,000"),
    (["simulate", RULES_PATH, "-n", "10000001", "-q"], "10000000"),
    (["simulate", RULES_PATH, "-n", "9" * 30, "-q"], "10000000"),
    (["compare", RULES_PATH, "-n", "10000001", "-q"], "10000000"),
    (["arena", RULES_PATH, "-a", "greedy,random", "-n", "10000001", "-q"], "10000000"),
    (["validate", RULES_PATH, "--play", "10000001"], "10000000"),
])
def test_a_budget_that_never_ends_is_a_usage_error(command: list[str], message: str) -> None:
    assert_usage_error(invoke(*command), message)
