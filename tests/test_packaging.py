"""The repository root is the `amunre` package: every subpackage on disk must be listed in
pyproject (setuptools cannot rename folders with `find`), and the data files must be reachable
through importlib.resources, as an installed package would see them.
"""

from __future__ import annotations

import importlib
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest

from conftest import REPO

LAYERS = ("interpreter", "cli", "grammar", "rules", "adapters")


def pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def subpackages_on_disk(root: Path = REPO) -> set[str]:
    """`amunre.<dotted path>` for every folder with an __init__.py under the layers."""
    found = set()
    for layer in LAYERS:
        for init in (root / layer).rglob("__init__.py"):
            folder = init.parent.relative_to(root)
            if any(part.startswith(".") or part == "__pycache__" or part.endswith(".egg-info")
                   for part in folder.parts):
                continue
            found.add("amunre." + ".".join(folder.parts))
    return found


def listed_packages() -> set[str]:
    return set(pyproject()["tool"]["setuptools"]["packages"])


def test_finder_sees_nested_packages_and_skips_caches(tmp_path: Path) -> None:
    for folder in ("interpreter", "interpreter/mechanics/extra", "cli/__pycache__", "rules/.hidden",
                   "docs/notes"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text("")
    assert subpackages_on_disk(tmp_path) == {"amunre.interpreter", "amunre.interpreter.mechanics.extra"}


def test_every_layer_is_a_package_on_disk() -> None:
    found = subpackages_on_disk()
    for layer in LAYERS:
        assert (REPO / layer / "__init__.py").is_file(), f"{layer}/ needs an __init__.py"
        assert f"amunre.{layer}" in found
    assert "amunre.interpreter.mechanics" in found


def test_every_subpackage_is_listed_in_pyproject() -> None:
    missing = sorted(subpackages_on_disk() - listed_packages())
    assert not missing, f"subpackages missing from [tool.setuptools] packages: {missing}"


def test_listed_packages_exist_on_disk() -> None:
    listed = listed_packages()
    assert "amunre" in listed
    assert pyproject()["tool"]["setuptools"]["package-dir"] == {"amunre": "."}
    stale = sorted(p for p in listed - {"amunre"}
                   if not (REPO.joinpath(*p.split(".")[1:]) / "__init__.py").is_file())
    assert not stale, f"listed in pyproject but not on disk: {stale}"


@pytest.mark.parametrize("package", sorted(subpackages_on_disk()))
def test_subpackage_imports_from_this_repository(package: str) -> None:
    module = importlib.import_module(package)
    where = Path(module.__file__).resolve().parent
    assert where == REPO.joinpath(*package.split(".")[1:]).resolve()


def test_rules_and_grammar_are_package_resources() -> None:
    rules = files("amunre.rules")
    assert rules.joinpath("knizia2016.yaml").is_file()
    assert "id: knizia2016" in rules.joinpath("knizia2016.yaml").read_text(encoding="utf-8")
    grammar = files("amunre.grammar")
    assert grammar.joinpath("effects.lark").is_file()
    assert "effect:" in grammar.joinpath("effects.lark").read_text(encoding="utf-8")
    assert grammar.joinpath("rules.schema.json").is_file()
    names = {entry.name for entry in grammar.iterdir()}
    assert {"effects.lark", "rules.schema.json", "log.schema.json"} <= names


def test_package_data_globs_cover_the_data_files() -> None:
    data = pyproject()["tool"]["setuptools"]["package-data"]
    assert "*.yaml" in data["amunre.rules"]
    assert {"*.lark", "*.json"} <= set(data["amunre.grammar"])


def test_rules_load_through_resources() -> None:
    import amunre
    path = files("amunre.rules").joinpath("knizia2016.yaml")
    rules = amunre.load_rules(str(path))
    assert rules.id == "knizia2016" and len(rules.place_ids) == 15


def test_the_suite_runs_in_a_clone_whose_folder_is_not_an_identifier(tmp_path: Path) -> None:
    """CI clones into a folder of any name: the root's __init__.py (a relative import) must not
    be imported as a test package under that name (pyproject's pytest settings see to it)."""
    import subprocess
    import sys
    clone = tmp_path / "a-clone"
    (clone / "tests").mkdir(parents=True)
    (clone / "pyproject.toml").write_text((REPO / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (clone / "__init__.py").write_text("from .interpreter import nothing\n", encoding="utf-8")
    (clone / "tests" / "test_one.py").write_text("def test_one():\n    assert True\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=clone,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]
