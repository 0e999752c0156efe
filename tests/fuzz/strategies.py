"""Hypothesis strategies that make hostile inputs, and the checks of what they must lead to.

Used by tests/test_fuzz.py. Every input must end in a clean amunre error or a game that ends:
`outcome_of_*` return a short word for what happened and raise AssertionError otherwise.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

import amunre
from amunre.interpreter.base.errors import AmunreError, IllegalAction
from amunre.interpreter.dsl import Dsl, Scope
from amunre.interpreter.load.loader import load_document

REPO = Path(__file__).resolve().parent.parent.parent
RULES_PATH = REPO / "rules" / "knizia2016.yaml"
RULES_TEXT = RULES_PATH.read_text(encoding="utf-8")    # read once: a fuzz run must not see the file change
BASE_DATA = load_document(RULES_PATH).data
GAME_ACTIONS = 5_000

# ---- values ---------------------------------------------------------------------------------------

numbers = st.one_of(st.integers(-3, 60), st.integers(-10 ** 20, 10 ** 20),
                    st.sampled_from([0, 1, -1, 10 ** 15, 2 ** 63]))
texts = st.one_of(st.sampled_from(["", "gold", "vp", "thebes", "favor", "stone", "auction", "my.gold", "n",
                                   "players", "¿ünïcode?", "1 +", "{", "'"]),
                  st.integers(250, 3000).map(lambda n: "x" * n), st.text(max_size=12))
scalars = st.one_of(numbers, texts, st.booleans(), st.none(), st.floats(allow_nan=True))
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                            st.dictionaries(texts, inner, max_size=4)),
                           max_leaves=12)


# ---- mutating data (a rules file, a save) ----------------------------------------------------------

def paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into nested dicts and lists."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += paths(value, prefix + (i,))
    return found


DSL_EDITS = ["+", "-", "*", "//", "(", ")", ",", ";", ".", "==", "<", " where ", " when ", " and ", " not ",
             "my", "it", "players", "others", "gold", "farmers", "99", "0", "choose t from ", "require ",
             "each s in seats: ", "if true then ", "sum(", "count(", "'x'", "[1, 2]", ""]


@st.composite
def mutated(draw: Any, data: Any, steps: int = 3) -> Any:
    """`data` changed in up to `steps` places: values replaced, keys or items dropped or
    doubled, DSL strings edited token by token."""
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, steps))):
        where = draw(st.sampled_from(paths(data)))
        if not where:
            continue
        *head, last = where
        parent = data
        for part in head:
            parent = parent[part]
        kind = draw(st.sampled_from(["replace", "drop", "double", "edit"]))
        if kind == "drop":
            del parent[last]
        elif kind == "double" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        elif kind == "edit" and isinstance(parent[last], str):
            text = parent[last]
            at = draw(st.integers(0, len(text)))
            cut = draw(st.integers(0, 3))
            parent[last] = text[:at] + draw(st.sampled_from(DSL_EDITS)) + text[at + cut:]
        else:
            parent[last] = draw(json_values)
    return data


JUNK_LINES = ["&a [*a]", "!!binary AA==", "<<: *x", "- [[[[[[", "{1: 2}", "x: 99999999999999999999", "'unclosed",
              "\t\t\tkey: v"]


@st.composite
def broken_lines(draw: Any, text: str, junk: bool = True) -> str:
    """`text` with one to three lines dropped, doubled, indented, cut short or (with `junk`)
    replaced by a line of YAML that means trouble."""
    lines = text.split("\n")
    edits = ["drop", "double", "indent", "cut"] + (["junk"] if junk else [])
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(edits))
        if edit == "drop":
            del lines[at]
        elif edit == "double":
            lines.insert(at, lines[at])
        elif edit == "indent":
            lines[at] = "  " + lines[at]
        elif edit == "cut":
            lines[at] = lines[at][: draw(st.integers(0, max(len(lines[at]) - 1, 0)))]
        else:
            lines[at] = draw(st.sampled_from(JUNK_LINES))
    return "\n".join(lines)


# ---- rules files ------------------------------------------------------------------------------------

def outcome_of_rules_text(text: str, folder: Path, name: str = "fuzzed.yaml") -> str:
    """Load a rules text and, if it loads, play a random game with it."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    try:
        rules = amunre.load_rules(path)
    except AmunreError:
        return "refused"
    return outcome_of_play(rules, seed=len(text))


def outcome_of_play(rules: Any, seed: int) -> str:
    try:
        game = amunre.new_game(rules, players=rules.min_players, seed=seed, events=False)
        rng = random.Random(seed)
        for _ in range(GAME_ACTIONS):
            if game.over:
                return "played"
            ids = game.legal_action_ids()
            assert ids, "a live game with no legal action"
            game.apply_id(rng.choice(ids))
        return "long game"           # it goes on: what matters is that every step was clean
    except AmunreError:
        return "game error"


# ---- DSL -----------------------------------------------------------------------------------------------

def outcome_of_dsl(rules: Any, game: Any, kind: str, text: str) -> str:
    """Compile a DSL string against the 2016 vocabulary and run it on a position: problems
    reported, or a value, or a GameError; nothing else."""
    problems: list = []
    dsl = Dsl(rules.vocab, lambda *p: problems.append(p))
    compiled = getattr(dsl, kind)(text, Scope())
    if problems:
        return "refused"
    from amunre.interpreter.base.causes import Cause
    from amunre.interpreter.dsl.context import Ctx
    try:
        trial = game.clone(events=False)
        if kind == "effect":
            compiled.run(Ctx(trial, 0, {c.name: 0 for c in compiled.choices}, None, Cause("card", "fuzz")))
        else:
            compiled.fn(Ctx(trial, 0))
    except AmunreError:
        return "game error"
    return "ran"


dsl_soup = st.lists(st.sampled_from(DSL_EDITS + ["vp", "stone", "in", "to", "per", "place", "draw", "+1", "-2"]),
                    max_size=12).map(" ".join)


# ---- saves and logs ---------------------------------------------------------------------------------------

def outcome_of_save(rules: Any, data: Any) -> str:
    try:
        game = amunre.Game.from_json(data, rules)
    except AmunreError:
        return "refused"
    state = data["state"] if isinstance(data, dict) else None
    assert game.to_json()["state"] == state, "a save restored into another position"
    return "restored"


def outcome_of_log(lines: list[str], folder: Path) -> str:
    from typer.testing import CliRunner

    from amunre.cli.app import app
    path = folder / "fuzzed.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", "--quiet", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return "replayed" if result.exit_code == 0 else "refused"


# ---- actions --------------------------------------------------------------------------------------------

def outcome_of_garbage_action(game: Any, action: Any) -> str:
    """An action that is not a legal one is refused and changes nothing."""
    before = json.dumps(game.state.to_json(), sort_keys=True)
    legal, legal_ids = game.legal_actions(), game.legal_action_ids()
    try:
        if type(action) is int:
            game.apply_id(action)
        else:
            game.apply(action)
    except IllegalAction:
        assert json.dumps(game.state.to_json(), sort_keys=True) == before, "a refused action changed the game"
        return "refused"
    assert (action in legal_ids) if type(action) is int else (action in legal), f"accepted {action!r}"
    return "legal by chance"
