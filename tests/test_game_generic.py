"""The engine, the tools, the CLI and the adapters know no edition: no name a rules file gives (its places, cards,
resources, tokens, decks, goods, phases, tiles and their values, options, modifiers, derived
values, or its own id) appears in their code (comments aside). Everything game-specific lives
in rules/. (Place properties are left out: `fields` or `side` are ordinary words of code.)

A phase may be named after the mechanic it runs (`auction: {mechanic: auction}`): mechanic
names are the engine's own words, so they are not game words.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path
from typing import Any

import pytest

from amunre.interpreter.load.loader import load_document
from amunre.interpreter.mechanics import MECHANICS
from conftest import REPO, RULES_PATH

SCANNED = ("interpreter", "tools", "cli", "adapters")
EDITION = r"knizia20\d\d"
# The games' own words that no rules file gives as an id but that code could still slip in (in
# any case, singular or plural): Pharaoh's Heir's pieces, people and actions; Modern Art's
# paintings, artists and people, and its one auction type that is no style of the auction
# mechanic (the others, once around, open, sealed and fixed price, are the mechanic's words).
THEME_WORDS = ("overseer", "nile", "nile tile", "floodwall", "altar", "acolyte", "villager", "farmer", "piecepack",
               "pharaoh", "grain", "sacrifice", "temple", "village", "crop", "canal", "drought", "flood",
               "painting", "artist", "auctioneer", "art dealer", "museum", "double auction", "value tile")


def game_words(rules_file: Path) -> set[str]:
    """Every name a rules file gives, read from the (merged) file itself, less mechanic names."""
    data = load_document(rules_file).data
    words = {item["id"] for item in data["places"]["items"]}
    for section in ("cards", "resources", "tokens", "decks", "goods", "options", "modifiers", "derived", "phases"):
        words |= set(data.get(section, {}))
    for phase in data.get("phases", {}).values():
        for row in phase.get("tiles", []):
            words |= {row["id"]} | {k for k in row if k not in ("id", "same_as", "label", "min", "max")}
    words.add(data["id"])
    return words - set(MECHANICS)


def forbidden_pattern(words: set[str]) -> re.Pattern[str]:
    alternatives = sorted(map(re.escape, words), key=len, reverse=True) + [EDITION]
    themes = "|".join(re.escape(w) + "s?" for w in sorted(THEME_WORDS, key=len, reverse=True))
    return re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(alternatives) + r"|(?i:" + themes + r"))(?![A-Za-z0-9_])")


def scan_source(source: str, pattern: re.Pattern[str]) -> list[tuple[int, str, str]]:
    """(line, word, line text) for each whole-word hit outside comments."""
    hits = []
    lines = source.splitlines()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                        tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        for match in pattern.finditer(tok.string):
            # the line of the hit inside a multi-line token (a docstring)
            line = tok.start[0] + tok.string.count("\n", 0, match.start())
            hits.append((line, match.group(0), lines[line - 1].strip() if line <= len(lines) else ""))
    return hits


def python_files() -> list[Path]:
    files = []
    for folder in SCANNED:
        files += sorted(p for p in (REPO / folder).rglob("*.py") if "__pycache__" not in p.parts)
    return files


@pytest.fixture(scope="module")
def pattern() -> re.Pattern[str]:
    rules_files = sorted((REPO / "rules").glob("*.yaml"))
    assert RULES_PATH in rules_files
    words: set[str] = set()
    for path in rules_files:
        words |= game_words(path)
    return forbidden_pattern(words)


def test_the_second_game_s_words_are_read() -> None:
    words = game_words(REPO / "rules" / "pharaohs-heir.yaml")
    assert {"pharaohs-heir", "overseer", "nile_tiles", "land_tiles", "population", "floodwall", "altar", "canal",
            "grain", "gods", "serves_as", "tier", "piecepacks", "temple_6a", "mat1_river", "lane"} <= words
    assert not {"moves", "select", "draft", "reveal"} & words          # mechanic names are the engine's


def test_rules_file_words_are_read(rules: Any) -> None:
    words = game_words(RULES_PATH)
    assert set(rules.place_ids) <= words and len(rules.place_ids) == 15
    assert set(rules.cards) <= words
    assert {"thebes", "buto", "architect", "theft", "knizia2016"} <= words
    assert {"gold", "vp", "farmer", "stone", "pyramid", "favor", "provinces", "offering", "harvest",
            "mid_low", "camel", "temple_vp", "nile_side_bonus", "offering_adjustment", "harvest_bonus",
            "pyramids"} <= words
    assert not {"auction", "market"} & words          # phases named after their mechanic


def test_scanner_finds_code_and_ignores_comments() -> None:
    pat = forbidden_pattern({"thebes", "architect", "buto"})
    source = (
        "# thebes in a comment is fine\n"
        "x = 'thebes'  # buto here too\n"
        "def f():\n"
        '    """Docstring naming architect."""\n'
        "    thebes_count = architects = 1\n"
        "    return rules['knizia2021']\n"
    )
    hits = scan_source(source, pat)
    assert [(line, word) for line, word, _ in hits] == [(2, "thebes"), (4, "architect"), (6, "knizia2021")]
    themed = "x = 'the Overseer'\n# Floodwalls here are fine\ny = 'acolytes, Nile tile'\nnile_sized = 1\n"
    assert [word for _, word, _ in scan_source(themed, pat)] == ["Overseer", "acolytes", "Nile tile"]


def test_there_are_files_to_scan() -> None:
    files = python_files()
    names = {p.relative_to(REPO).as_posix() for p in files}
    assert {"interpreter/game.py", "interpreter/dsl/compile.py", "cli/app.py", "adapters/openspiel.py"} <= names
    assert any(p.parts[-2] == "mechanics" for p in files)


def test_engine_and_cli_name_no_province_card_or_edition(pattern: re.Pattern[str]) -> None:
    hits = []
    for path in python_files():
        for line, word, text in scan_source(path.read_text(encoding="utf-8"), pattern):
            hits.append(f"{path.relative_to(REPO)}:{line}: '{word}' in: {text}")
    assert not hits, "game-specific names in game-generic code:\n" + "\n".join(hits)
