"""The rules cache: a second load reads the stored document instead of the YAML, builds the
very same rules, and is never used when the file, a file it extends, or the schema changed;
a broken entry or a cache that cannot be written never stops a load."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import amunre
from amunre.interpreter.load import loader
from amunre.interpreter.load.rules_cache import load_rules_and_document
from conftest import RULES_PATH, play_random


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("AMUNRE_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def yaml_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records every time the YAML loader runs."""
    calls: list[str] = []
    real = loader.load_document

    def counting(path: Any) -> Any:
        calls.append(str(path))
        return real(path)
    monkeypatch.setattr(loader, "load_document", counting)
    return calls


def family(tmp_path: Path) -> Path:
    shutil.copy(RULES_PATH, tmp_path / "knizia2016.yaml")
    child = tmp_path / "child.yaml"
    child.write_text("extends: knizia2016.yaml\nresources:\n  gold: {start: 25}\n", encoding="utf-8")
    return child


def test_a_second_load_uses_the_cache_and_builds_the_same_rules(cache: Path, yaml_loads: list[str]) -> None:
    first = amunre.load_rules(RULES_PATH)
    assert len(yaml_loads) == 1 and len(list(cache.glob("rules-*.json"))) == 1
    second = amunre.load_rules(RULES_PATH)
    assert len(yaml_loads) == 1                                 # no YAML parsing the second time
    assert second.digest == first.digest and second.actions.size == first.actions.size
    a, b = play_random(first, 4, 3), play_random(second, 4, 3)
    assert a.history == b.history and a.result() == b.result() and a.log == b.log


def test_a_cached_load_names_the_file_as_this_load_does(cache: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The entry is found by the file, however it is named; the rules (and so a save's path)
    must name it as this load did, not as the load that stored the entry (another directory)."""
    shutil.copy(RULES_PATH, tmp_path / "edition.yaml")
    monkeypatch.chdir(tmp_path)
    assert amunre.load_rules("edition.yaml").path == "edition.yaml"
    monkeypatch.chdir(tmp_path.parent)
    absolute = str(tmp_path / "edition.yaml")
    rules = amunre.load_rules(absolute)
    assert rules.path == absolute and len(list(cache.glob("rules-*.json"))) == 1
    assert amunre.Game.from_json(amunre.new_game(rules, players=3, seed=1).to_json()).state.seed == 1


def test_located_errors_still_point_into_the_file_after_a_cached_load(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    text = RULES_PATH.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    amunre.load_rules(path)
    rules = amunre.load_rules(path)                             # from the cache
    game = amunre.new_game(rules, players=3, seed=1)
    price = rules.phases["market"].price.rule
    assert price.span is not None and price.span.file == str(path)
    assert 'price: "n * (n + 1) // 2"' in price.span.line_text and game is not None


def test_a_changed_parent_is_a_miss(cache: Path, tmp_path: Path, yaml_loads: list[str]) -> None:
    child = family(tmp_path)
    assert amunre.load_rules(child).resources["gold"] == 25
    amunre.load_rules(child)
    assert len(yaml_loads) == 1
    parent = tmp_path / "knizia2016.yaml"
    parent.write_text(parent.read_text(encoding="utf-8").replace("vp: {start: 0,", "vp: {start: 2,"), encoding="utf-8")
    rules = amunre.load_rules(child)
    assert len(yaml_loads) == 2 and rules.resources["vp"] == 2


def test_a_changed_file_is_a_miss(cache: Path, tmp_path: Path) -> None:
    child = family(tmp_path)
    amunre.load_rules(child)
    child.write_text("extends: knizia2016.yaml\nresources:\n  gold: {start: 30}\n", encoding="utf-8")
    assert amunre.load_rules(child).resources["gold"] == 30


def test_a_broken_entry_is_a_miss(cache: Path, yaml_loads: list[str]) -> None:
    amunre.load_rules(RULES_PATH)
    for broken in ("{not json", json.dumps({"chain": [], "document": {"path": 1}}), ""):
        for entry in cache.glob("rules-*.json"):
            entry.write_text(broken, encoding="utf-8")
        rules = amunre.load_rules(RULES_PATH)
        assert rules.id == "knizia2016"
    assert len(yaml_loads) == 4


def test_a_file_with_problems_is_not_cached(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(RULES_PATH.read_text(encoding="utf-8").replace("players: {min: 3, max: 5}", "players: {min: 3}"),
                    encoding="utf-8")
    for _ in range(2):
        with pytest.raises(amunre.RulesError, match="missing required key 'max'"):
            amunre.load_rules(path)
    assert not list(cache.glob("rules-*.json"))


def test_no_cache_when_turned_off_or_not_writable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AMUNRE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AMUNRE_NO_CACHE", "1")
    assert amunre.load_rules(RULES_PATH).id == "knizia2016"
    assert not (tmp_path / "cache").exists()
    monkeypatch.delenv("AMUNRE_NO_CACHE")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("AMUNRE_CACHE_DIR", str(blocker / "cache"))
    assert amunre.load_rules(RULES_PATH).id == "knizia2016"


def test_machine_code_with_the_cache_off_goes_when_its_process_exits(tmp_path: Path) -> None:
    """With AMUNRE_NO_CACHE the machine code lies in a temporary folder of the process: it is
    removed when that process exits, and not by a forked child (a pool's worker) before."""
    script = (
        "import os, sys\n"
        "from amunre.interpreter.compiled.cache import machine_code_dir\n"
        "folder = machine_code_dir(); print(folder, flush=True)\n"
        "if os.fork() == 0:\n"
        "    sys.exit(0)\n"                                 # a child that exits as Python does
        "os.wait(); print(folder.is_dir(), flush=True)\n"
    )
    env = {**os.environ, "AMUNRE_NO_CACHE": "1", "TMPDIR": str(tmp_path)}
    env.pop("AMUNRE_COMPILED_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    folder, kept_after_child = done.stdout.split()
    assert Path(folder).parent == tmp_path and kept_after_child == "True"
    assert not Path(folder).exists()


def parsed_files(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records the name of every YAML text the loader parses (a file, or a text given whole)."""
    names: list[str] = []
    real = loader.check_yaml

    def counting(text: str, src: Any) -> Any:
        names.append(Path(src.path).name)
        return real(text, src)
    monkeypatch.setattr(loader, "check_yaml", counting)
    return names


def test_a_parent_held_by_the_cache_is_not_parsed_again(cache: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A house rule loaded after the file it extends takes that file's document from the cache:
    the same merged document, positions and all, as when the parent is parsed; a parent changed
    since, a cycle or a cache turned off is parsed (and refused) as ever."""
    child = family(tmp_path)
    parsed = parsed_files(monkeypatch)
    fresh = loader.load_document(child)                     # nothing cached yet: both parsed
    assert parsed == ["child.yaml", "knizia2016.yaml"]
    amunre.load_rules(tmp_path / "knizia2016.yaml")         # the parent parsed and cached
    parsed.clear()
    kept = loader.load_document(child)
    assert parsed == ["child.yaml"]
    assert kept.to_json() == fresh.to_json() and kept.parents == fresh.parents
    assert kept.span(("phases",)) == fresh.span(("phases",)) and kept.span(("phases",)).file == str(
        tmp_path / "knizia2016.yaml")
    parent = tmp_path / "knizia2016.yaml"
    parent.write_text(parent.read_text(encoding="utf-8").replace("max: 392", "max: 393", 1), encoding="utf-8")
    parsed.clear()
    changed = loader.load_document(child)                   # the cached parent is not the file now
    assert parsed == ["child.yaml", "knizia2016.yaml"] and changed.data["resources"]["gold"]["max"] == 393
    amunre.load_rules(parent)                               # cached as it is now
    (tmp_path / "knizia2016.yaml").write_text("extends: child.yaml\n", encoding="utf-8")
    with pytest.raises(amunre.RulesError, match="cycle"):
        loader.load_document(child)
    monkeypatch.setenv("AMUNRE_NO_CACHE", "1")
    shutil.copy(RULES_PATH, parent)
    parsed.clear()
    loader.load_document(child)
    assert parsed == ["child.yaml", "knizia2016.yaml"]


def test_a_chain_too_long_is_refused_though_its_top_is_cached(cache: Path, tmp_path: Path) -> None:
    from amunre.interpreter.base.limits import MAX_EXTENDS
    shutil.copy(RULES_PATH, tmp_path / "f0.yaml")
    for k in range(1, MAX_EXTENDS + 1):
        (tmp_path / f"f{k}.yaml").write_text(f"extends: f{k - 1}.yaml\n", encoding="utf-8")
    amunre.load_rules(tmp_path / f"f{MAX_EXTENDS - 2}.yaml")            # the longest chain allowed, cached
    with pytest.raises(amunre.RulesError, match=f"chains more than {MAX_EXTENDS}"):
        loader.load_document(tmp_path / f"f{MAX_EXTENDS}.yaml")


def test_an_entry_whose_parents_were_named_from_another_directory_is_a_miss(
        cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, yaml_loads: list[str]) -> None:
    """Relative names of the files it extends hold only in the directory they were read from:
    elsewhere the entry is parsed again, so that neither its parents nor a file extending it
    (which takes it as its parent) names a file that is not there."""
    child = family(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert load_rules_and_document("child.yaml")[1].parents == ("knizia2016.yaml",)
    assert load_rules_and_document("child.yaml")[1].parents == ("knizia2016.yaml",) and len(yaml_loads) == 1
    monkeypatch.chdir(tmp_path.parent)
    assert load_rules_and_document(str(child))[1].parents == (str(tmp_path / "knizia2016.yaml"),)
    assert len(yaml_loads) == 2
