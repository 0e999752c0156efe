"""The `amunre` command line: play, log, replay, validate, schema, and a human at the keyboard.

Most games here are played by random agents (a few hundredths of a second each); the greedy
default is exercised once.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from amunre.cli.human import HumanAgent, HumanQuit
from amunre.cli.render import PlayByPlay, action_text
from conftest import ok_line

RULES = str(Path(__file__).resolve().parents[1] / "rules" / "knizia2016.yaml")
RANDOM4 = ["--agents", "random,random,random,random"]

runner = CliRunner()
_real_load_rules = amunre.load_rules
_compiled: dict[tuple[str, str], object] = {}


@pytest.fixture(autouse=True)
def _compile_each_rules_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI compiles its rules file on every call; here each distinct text is compiled once
    (broken files are never cached, so their errors still come from a real load)."""
    monkeypatch.setattr("amunre.cli.app.load_rules", compiled)


def compiled(path=RULES):
    """The rules of a file, compiled once per distinct text (not to be changed by a test)."""
    key = (str(Path(path).resolve()), Path(path).read_text() if Path(path).is_file() else "")
    if key not in _compiled:
        _compiled[key] = _real_load_rules(path)
    return _compiled[key]


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def assert_clean_failure(result, *fragments: str) -> None:
    """A non-zero exit through SystemExit (a message, not a crash) mentioning every fragment."""
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


# ---- run ---------------------------------------------------------------------------------------

def test_run_with_defaults_plays_greedy_game_to_a_winner() -> None:
    result = invoke("run", RULES)
    assert result.exit_code == 0, result.output
    assert re.search(r"^Winners?( \(tied\))?: Seat \d", result.stdout, re.M), result.stdout
    assert result.stdout.count("greedy") >= 4          # every seat defaults to greedy
    assert re.search(r"seed \d+", result.stdout)       # a fresh seed is printed for replay


def test_play_by_play_shows_ages_auctions_offering_income_and_scoring() -> None:
    result = invoke("run", RULES, *RANDOM4, "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for needle in ("Age 1", "Age 2", "Round 3", "bids", "wins", "Offers revealed", "-> tile",
                   "collects", "scores", "Final scores"):
        assert needle in out, needle
    assert out.index("Age 1") < out.index("Age 2") < out.index("Final scores")


def test_a_flow_without_ages_heads_rounds_only(tmp_path: Path) -> None:
    """A flow with no repeat named `age` (a game of rounds only) shows no "Age" heading."""
    path = tmp_path / "rounds.yaml"
    path.write_text(f"extends: {Path(RULES).resolve()}\n"
                    "flow:\n  - {name: round, times: 2, repeat: [auction, market]}\n  - final_scoring\n",
                    encoding="utf-8")
    result = invoke("run", str(path), *RANDOM4, "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "Round 2" in result.stdout and "Age" not in result.stdout


def test_json_prints_only_the_result() -> None:
    result = invoke("run", RULES, *RANDOM4, "--seed", "11", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["scores"]) == 4
    assert data["winners"] and set(data["winners"]) <= {0, 1, 2, 3}
    assert max(data["scores"]) == data["scores"][data["winners"][0]]
    assert data["over"] is True


def test_json_without_seed_reports_the_seed_on_stderr_and_it_replays() -> None:
    first = invoke("run", RULES, "--agents", "random,random,random", "--json")
    assert first.exit_code == 0, first.output
    seed = re.search(r"seed (\d+)", first.stderr).group(1)
    again = invoke("run", RULES, "--agents", "random,random,random", "--json", "--seed", seed)
    assert json.loads(again.stdout) == json.loads(first.stdout)


def test_quiet_prints_only_the_table_and_its_seed_replays() -> None:
    first = invoke("run", RULES, *RANDOM4, "--quiet")
    assert first.exit_code == 0, first.output
    assert "bids" not in first.stdout and "Age 1" not in first.stdout
    assert "Final scores" in first.stdout
    seed = re.search(r"seed (\d+)", first.stdout).group(1)
    again = invoke("run", RULES, *RANDOM4, "--quiet", "--seed", seed)
    assert again.stdout == first.stdout


def test_same_seed_gives_identical_output_and_another_seed_does_not() -> None:
    one = invoke("run", RULES, *RANDOM4, "--seed", "42")
    two = invoke("run", RULES, *RANDOM4, "--seed", "42")
    other = invoke("run", RULES, *RANDOM4, "--seed", "43")
    assert one.exit_code == two.exit_code == other.exit_code == 0
    assert one.stdout == two.stdout
    assert one.stdout != other.stdout


def test_log_is_jsonl_with_header_actions_and_events_and_replays(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    result = invoke("run", RULES, "--agents", "random,greedy,random", "--seed", "8", "--json", "--log", str(log))
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in log.read_text().splitlines()]
    header = records[0]
    assert header["seed"] == 8 and header["players"] == 3
    assert header["agents"] == ["random", "greedy", "random"]
    actions = [r for r in records if "action" in r]
    events = [r for r in records if "event" in r]
    assert actions and all(set(r) == {"seat", "action"} for r in actions)
    assert events[0]["cause"]["kind"] == "start" and events[-1]["event"] == "game_over"   # the set-up's first
    assert len(actions) + len(events) == len(records) - 1
    # the log is enough to replay: same seed, same actions, same result
    game = amunre.new_game(compiled(header["rules"]), players=3, seed=8)
    for record in actions:
        assert game.to_move == record["seat"]
        game.apply(record["action"])
    printed = json.loads(result.stdout)
    assert game.over and game.result() == {k: v for k, v in printed.items() if k in game.result()}
    assert [e for e in game.log] == events


def test_replay_command_reprints_a_logged_game(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    played = invoke("run", RULES, *RANDOM4, "--seed", "5", "--log", str(log))
    replayed = invoke("replay", str(log))
    assert played.exit_code == replayed.exit_code == 0, replayed.output
    table = played.stdout[played.stdout.index("Age 1"):]
    assert replayed.stdout[replayed.stdout.index("Age 1"):] == table


def test_replay_rejects_a_file_that_is_not_a_log(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"event": "phase"}\n')
    assert_clean_failure(invoke("replay", str(bad)), "not an amunre game log")


def test_bad_player_count_is_a_clear_error() -> None:
    assert_clean_failure(invoke("run", RULES, "--players", "9"), "--players", "3 to 5 players, not 9")


def test_unknown_agent_is_a_clear_error() -> None:
    assert_clean_failure(invoke("run", RULES, "--agents", "foo,greedy,greedy"), "unknown agent 'foo'",
                         "random, greedy, heuristic, ismcts, human")


def test_agent_options_on_the_command_line() -> None:
    result = invoke("run", RULES, "--agents", "ismcts:iterations=3,horizon=2,random, Heuristic:style=build",
                    "--seed", "2", "--quiet")
    assert result.exit_code == 0, result.output
    assert "--agents ismcts:iterations=3,horizon=2,random,heuristic:style=build" in invoke(
        "run", RULES, "--agents", "ismcts:iterations=3,horizon=2,random,heuristic:style=build").output
    assert_clean_failure(invoke("run", RULES, "--agents", "ismcts:budget=3,random,random"),
                         "agent 'ismcts' has no option 'budget'", "its options: iterations, ms")
    assert_clean_failure(invoke("run", RULES, "--agents", "human:fast=1,random,random"), "human has no options")


def test_agents_lists_every_agent_and_option() -> None:
    result = invoke("agents", "--json")
    assert result.exit_code == 0
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert set(rows) == {"random", "greedy", "heuristic", "ismcts", "human"}
    assert {"iterations", "ms", "c", "horizon"} <= {o["key"] for o in rows["ismcts"]["options"]}
    assert "style" in invoke("agents").stdout


def test_agent_list_shorter_than_the_players_is_a_clear_error() -> None:
    assert_clean_failure(invoke("run", RULES, "--players", "4", "--agents", "random,random,random"),
                         "3 agents given for 4 players")


def test_missing_rules_file_is_a_clear_error(tmp_path: Path) -> None:
    assert_clean_failure(invoke("run", str(tmp_path / "nope.yaml")), "cannot read rules file")


def test_shipped_rules_file_can_be_named_without_its_path() -> None:
    result = invoke("run", Path(RULES).stem, *RANDOM4, "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["over"] is True


# ---- validate and schema ---------------------------------------------------------------------

def test_validate_accepts_the_shipped_rules() -> None:
    result = invoke("validate", RULES)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == ok_line(RULES)


def test_validate_reports_a_broken_copy_with_position_and_fails(tmp_path: Path) -> None:
    text = Path(RULES).read_text()
    assert "mechanic: auction\n" in text
    broken = tmp_path / "broken.yaml"
    broken.write_text(text.replace("mechanic: auction\n", "mechanic: auctoin\n", 1))
    result = invoke("validate", RULES, str(broken))
    assert result.exit_code == 1
    assert f"OK {RULES}" in result.stdout
    line = text[:text.index("mechanic: auction\n")].count("\n") + 1
    assert re.search(rf"{re.escape(str(broken))}:{line}:\d+: .*auctoin", result.stdout), result.stdout
    assert "did you mean 'auction'" in result.stdout
    assert "^" in result.stdout and "Traceback" not in result.output


def test_validate_provenance_lists_reconstructed_facts_per_place() -> None:
    rules = compiled()
    result = invoke("validate", "--provenance", RULES)
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.stdout.splitlines()[2:]}
    for place, names in rules.reconstructed.items():
        for name in names:
            assert f"{name}=" in lines[place], place


def test_schema_prints_the_json_schema() -> None:
    result = invoke("schema")
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    assert schema["type"] == "object" and "properties" in schema


def test_help_describes_every_command() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for command in ("run", "validate", "schema", "replay"):
        assert re.search(rf"^\s+{command}\s+\S", result.stdout, re.M), command


# ---- the human agent -------------------------------------------------------------------------

def _human(text: str) -> tuple[HumanAgent, io.StringIO]:
    out = io.StringIO()
    return HumanAgent(Console(file=out, width=100), input=io.StringIO(text)), out


def _game(players: int = 3, seed: int = 4, rules=None):
    return amunre.new_game(rules or compiled(), players=players, seed=seed)


def test_human_sees_own_hand_and_numbered_actions_and_reasks_on_bad_input() -> None:
    game = _game()
    legal = game.legal_actions()
    agent, out = _human("bid\n0\n99\n2\n")
    assert agent.choose(game, legal) == legal[1]
    text = out.getvalue()
    seat = game.to_move
    for card in set(game.state.hands[seat]):
        assert card in text
    first = re.sub(r"\[/?[a-z ]*\]", "", action_text(game.rules, legal[0]))
    assert f" 1) {first}" in text
    assert text.count("is not a choice") == 3
    assert f"Seat {seat} to move" in text             # seats are numbered from 0, as in the API


def test_human_does_not_see_other_seats_hidden_cards() -> None:
    game = _game(players=3, seed=9, rules=_real_load_rules(RULES))
    seat = game.to_move
    other = (seat + 1) % 3
    rules = game.rules                                    # a fresh compile, ours to change
    hidden = next(c for c in rules.cards.values() if rules.decks[c.deck].hidden)
    rules.cards["a_secret_card_id"] = dataclasses.replace(hidden, id="a_secret_card_id")
    game.state.hands[other].append("a_secret_card_id")     # a card only its holder may see
    agent, out = _human("1\n")
    agent.choose(game, game.legal_actions())
    assert "a_secret_card_id" not in out.getvalue()
    assert "hidden" in out.getvalue()


@pytest.mark.parametrize("text", ["", "q\n", "x\n"])
def test_human_end_of_input_or_q_quits(text: str) -> None:
    game = _game()
    agent, _ = _human(text)
    with pytest.raises(HumanQuit):
        agent.choose(game, game.legal_actions())


def test_human_seat_in_the_cli_then_end_of_input_exits_cleanly() -> None:
    result = invoke("run", RULES, "--agents", "human,random,random", "--seed", "5", input="x\n1\n")
    assert result.exit_code == 0, result.output
    assert "is not a choice" in result.stdout
    assert "Game left (end of input). The same game again: amunre run" in result.stdout
    assert "--seed 5 --agents human,random,random" in result.stdout
    assert "Traceback" not in result.output and "Final scores" not in result.stdout


def test_human_can_play_a_whole_game_against_bots() -> None:
    result = invoke("run", RULES, "--agents", "human,random,random", "--seed", "2", input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Seat 0, choose:" in result.stdout and "Final scores" in result.stdout


def test_human_with_json_talks_on_stderr_and_keeps_stdout_json() -> None:
    result = invoke("run", RULES, "--agents", "random,human,random", "--seed", "2", "--json",
                    input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Seat 1, choose:" in result.stderr
    assert json.loads(result.stdout)["over"] is True


# ---- rendering -------------------------------------------------------------------------------

def test_unknown_events_and_actions_render_generically() -> None:
    out = io.StringIO()
    show = PlayByPlay(Console(file=out, width=100), compiled())
    show.step(1, {"type": "teleport", "to": "x"}, [{"event": "meteor", "seat": 1, "size": 3}, {"event": 7}])
    show.flush()
    text = out.getvalue()
    assert "Seat 1: meteor (size: 3)" in text
    assert "7" in text
    assert action_text(compiled(), {"type": "teleport", "to": "x"}) == "teleport (to: x)"


def test_repeated_lines_are_counted_and_secret_offers_never_printed() -> None:
    out = io.StringIO()
    show = PlayByPlay(Console(file=out, width=100), compiled())
    place = {"type": "place", "token": "t", "at": "p"}
    placed = {"event": "place", "seat": 0, "token": "t", "at": "p"}
    show.step(0, place, [placed])
    show.step(0, place, [placed])
    show.step(0, {"type": "offer", "amount": 17}, [])
    show.flush()
    text = out.getvalue()
    assert "Seat 0 places t on p (x2)" in text
    assert "17" not in text


def render(events: list[dict]) -> str:
    out = io.StringIO()
    show = PlayByPlay(Console(file=out, width=200), compiled())
    show.step(None, None, events)
    show.flush()
    return out.getvalue()


def test_what_a_card_a_win_a_sale_and_a_theft_gave_is_told_with_its_cause() -> None:
    def cause(kind: str, id_: str) -> dict:
        return {"kind": kind, "id": id_, "at": "r.yaml:1:1"}
    win, card = cause("on_win", "auction"), cause("card", "theft_card")
    text = render([
        {"event": "phase", "phase": "auction", "age": 1, "round": 1},
        {"event": "won", "seat": 2, "lot": "dakhla", "price": 5},
        {"event": "gain", "seat": 2, "resource": "gold", "amount": -5, "cause": cause("price", "auction")},
        {"event": "owner", "place": "dakhla", "seat": 2, "cause": win},
        {"event": "gain", "seat": 2, "resource": "gold", "amount": 12, "cause": win},
        {"event": "draw", "seat": 2, "deck": "favor", "count": 1, "cause": win},
        {"event": "play", "seat": 0, "card": "theft_card"},
        {"event": "gain", "seat": 1, "resource": "gold", "amount": -2, "to": 0, "cause": card},
        {"event": "gain", "seat": 0, "resource": "gold", "amount": 2, "from": 1, "cause": card},
        {"event": "sell", "seat": 1, "card": "x"},
        {"event": "gain", "seat": 1, "resource": "gold", "amount": 1, "cause": cause("sale", "sold x")},
        {"event": "gain", "seat": 3, "resource": "gold", "amount": 3, "cause": cause("steal", "theft")},
        {"event": "score", "seat": 3, "source": "temples", "points": 4},
        {"event": "gain", "seat": 3, "resource": "vp", "amount": 4, "cause": cause("score", "temples")},
    ])
    lines = [line.strip() for line in text.splitlines()]
    assert "Seat 2 wins dakhla for 5 gold: owns dakhla, +12 gold, draws 1 favor (on_win: auction)" in lines
    assert "Seat 0 plays theft_card: Seat 1 -2 gold to Seat 0, +2 gold from Seat 1" in lines
    assert "Seat 1 sells x: +1 gold" in lines
    assert "Seat 3 +3 gold (steal: theft)" in lines
    assert "Seat 3 scores 4 for temples" in lines                  # the points are told once
    assert not any("price" in line or "score:" in line for line in lines)


# ---- ties a tie-break decided ------------------------------------------------------------------

EVERY_SEAT_TIES = ("extends: knizia2016\nid: all-tie\ntitle: every seat ranks alike before the tie-breaks\n"
                   "winner:\n  by: \"0\"\n")


def test_a_tie_lost_on_a_tie_break_is_said_everywhere(tmp_path: Path) -> None:
    """With `winner.by: "0"` every seat ties, so the pyramids tie-break decides: run (text and
    --json), replay, explain and the browser's end view each say who lost the tie, on which
    tie-break, and by how much (issue 36); the winner itself is unchanged."""
    from amunre.cli.serve.views import game_view
    path = tmp_path / "all-tie.yaml"
    path.write_text(EVERY_SEAT_TIES, encoding="utf-8")
    log = tmp_path / "game.jsonl"
    data = json.loads(invoke("run", str(path), "--agents", "random,random,random", "--seed", "3", "--json",
                             "--log", str(log)).stdout)
    ties = data["ties"]
    assert ties and {t["seat"] for t in ties} == {0, 1, 2} - set(data["winners"])
    assert all(t["tiebreak"] == "sum(my.provinces, pyramids)" and t["value"] < t["against"] for t in ties)
    text = invoke("run", str(path), "--agents", "random,random,random", "--seed", "3", "-q").stdout
    tie = ties[0]
    assert f"tied and lost on sum(my.provinces, pyramids), {tie['value']} against {tie['against']}" in text
    assert "tied and lost on" in invoke("replay", str(log), "-q").stdout
    assert f"lost on sum(my.provinces, pyramids), {tie['value']} against" in invoke("explain", str(log)).stdout
    game = amunre.new_game(amunre.load_rules(path), players=3, seed=3)
    chooser = random.Random(0)
    while not game.over:
        game.apply_id(chooser.choice(game.legal_action_ids()))
    view = game_view(game, None, ["random"] * 3)["result"]
    assert view["ties"] == game.lost_ties() and (not view["ties"] or "tied and lost on" in view["text"])


@pytest.mark.parametrize("seed", ["11", "12", "13"])
def test_the_ties_are_the_seats_with_the_top_score_that_did_not_win(seed: str) -> None:
    """In the 2016 rules the ranking is the score, then the tie-breaks: a lost tie is a seat on
    the top score that is not among the winners, and only such a seat."""
    data = json.loads(invoke("run", RULES, *RANDOM4, "--seed", seed, "--json").stdout)
    top = max(data["scores"])
    expected = {s for s, score in enumerate(data["scores"]) if score == top} - set(data["winners"])
    assert {t["seat"] for t in data["ties"]} == expected
    text = invoke("run", RULES, *RANDOM4, "--seed", seed, "-q").stdout
    assert ("tied and lost on" in text) == bool(expected)
