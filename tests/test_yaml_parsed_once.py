"""A rules file's YAML text is parsed once: the composer builds the tree from the very events
the guard checked (interpreter/load/yaml_guard.py, `EventReplay`), where it used to parse the
text a second time. The documents, every position in them and every error are what the second
parse gave, over the shipped files, the hostile ones and texts that reach the parser's corners."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from amunre.interpreter.base.errors import RulesError
from amunre.interpreter.load import loader
from conftest import REPO, TESTS

# Each game's own file, a house rule (which extends one: the parent is loaded too), and the
# hostile files aimed at the YAML itself (the others extend a shipped file, and differ from it
# where the YAML has nothing to say).
FILES = [*(REPO / "rules" / f"{name}.yaml" for name in ("knizia2016", "knizia2003", "pharaohs-heir", "modern-art")),
         REPO / "rules" / "house" / "cheap_farmers.yaml", *sorted(TESTS.glob("hostile/yaml-*.yaml")),
         TESTS / "hostile" / "places-integer-key.yaml", TESTS / "hostile" / "extends-nul.yaml"]
TEXTS = {
    "anchors and merges": "id: x\nbase: &b {a: 1, b: [1, 2]}\nother:\n  <<: *b\n  c: 2\nagain: *b\n",
    "a YAML 1.1 directive": "%YAML 1.1\n---\nid: x\nflag: yes\nport: 0777\n",
    "a tag directive": "%TAG !e! tag:example.com,2000:\n---\nid: x\n",
    "two documents": "id: x\n---\nid: y\n",
    "nothing but a comment": "# nothing\n",
    "nothing": "",
    "a syntax error": "id: x\nitems: [1, 2\n",
    "a key twice": "id: x\nid: y\n",
    "block scalars and quotes": "id: x\ntext: |\n  two\n  lines\nfolded: >-\n  a\n  b\nq: 'it''s'\nd: \"\\u00e9\"\n",
    "flow in block in flow": "id: x\nm: {a: [1, {b: 2}], c: []}\nl:\n- [1, 2]\n- {}\n",
    "a tag not allowed": "id: !!python/object:os.system x\n",
}


def outcome(load: Any) -> Any:
    try:
        return load().to_json()
    except RulesError as error:
        return error.format()


def both_ways(load: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """What it loads to from the checked events, and from the text parsed again."""
    once = outcome(load)
    with monkeypatch.context() as patch:
        patch.setattr(loader, "_compose", lambda yaml, text, events: yaml.compose(text))
        twice = outcome(load)
    return once, twice


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(REPO)))
def test_a_file_loads_as_when_parsed_twice(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    once, twice = both_ways(lambda: loader.load_document(path), monkeypatch)
    assert once == twice


@pytest.mark.parametrize("name", TEXTS)
def test_a_text_loads_as_when_parsed_twice(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    once, twice = both_ways(lambda: loader.load_rules_text(TEXTS[name], f"{name}.yaml"), monkeypatch)
    assert once == twice


def test_the_text_of_a_sound_file_is_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the guard found nothing, the composer never parses the text itself; it does at a
    directive, whose YAML version the composer's resolver must read from its own parse."""
    def parsed_again(*args: Any) -> Any:
        raise AssertionError("the text was parsed a second time")
    with monkeypatch.context() as patch:
        patch.setattr(YAML, "compose", parsed_again)
        assert loader.load_document(REPO / "rules" / "knizia2016.yaml").data["id"] == "knizia2016"
        with pytest.raises(AssertionError, match="a second time"):
            loader.load_rules_text(TEXTS["a YAML 1.1 directive"])
    assert loader.load_rules_text(TEXTS["a YAML 1.1 directive"]).data["flag"] is True      # 1.1: yes is true
