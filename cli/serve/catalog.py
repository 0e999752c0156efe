"""The rules files a server may open: those named on its command line and the shipped ones.

A request chooses among them by name; it never gives a path. A replayed log names the rules it
was played with by digest, and is matched against this list only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...interpreter.base.errors import AmunreError
from ...interpreter.load.rules_cache import load_rules
from ...interpreter.load.shipped import shipped_files
from ...interpreter.model import Rules
from ...rules import FIRST
from ...tools.rulebook import rulebook_of
from ...tools.rulebook_render import html_page
from .refused import Refused


class Catalog:
    """Rules files by name, loaded when first asked for (each load is checked and cached)."""

    def __init__(self, given: list[str] | None = None) -> None:
        shipped = shipped_files()
        by_path = {str(Path(p).resolve()): n for n, p in shipped.items()}
        self.paths: dict[str, str] = {}
        named = []
        for path in given or []:                      # a shipped file keeps its shipped name
            name = by_path.get(str(Path(path).resolve()))
            if name is None:                          # a file of the user's: its name, unless taken
                name = Path(path).stem if Path(path).stem not in {*self.paths, *shipped} else path
            self.paths[name] = path
            named.append(name)
        self.paths.update({n: p for n, p in shipped.items() if n not in self.paths})
        self.default = named[0] if named else FIRST
        if self.default not in self.paths:
            self.default = next(iter(self.paths), "")
        self._loaded: dict[str, Rules] = {}
        self._books: dict[str, str] = {}

    def rules(self, name: str) -> Rules:
        """The rules of that name; AmunreError (a Refused for the web) for a name not listed."""
        path = self.paths.get(name)
        if path is None:
            raise Refused(f"rules: no rules file called '{name[:60]}' here; choose one of the list")
        if name not in self._loaded:
            try:
                self._loaded[name] = load_rules(path)
            except AmunreError as error:
                raise Refused(f"rules {name} do not load: {error}") from None
        return self._loaded[name]

    def rulebook(self, name: str) -> str:
        """The rulebook of the file of that name as one HTML page (a house rule's changes
        marked); Refused for a name not listed."""
        path = self.paths.get(name)
        if path is None:
            raise Refused(f"rules: no rules file called '{name[:60]}' here", 404)
        if name not in self._books:
            try:
                self._books[name] = html_page(rulebook_of(path))
            except AmunreError as error:
                raise Refused(f"rules {name} do not load: {error}") from None
        return self._books[name]

    def listing(self) -> list[dict[str, Any]]:
        """Each file's name, title, player counts and options, for the start page."""
        listed = []
        for name in self.paths:
            try:
                rules = self.rules(name)
            except AmunreError:
                continue
            listed.append({"name": name, "title": rules.title or rules.id, "min_players": rules.min_players,
                           "max_players": rules.max_players,
                           "options": {o: {"values": list(d.values), "default": d.default, "doc": d.doc}
                                       for o, d in rules.options.items()}})
        return listed

    def logged(self, header: dict[str, Any]) -> Rules:
        """The rules a log was played with, by the digest its header gives: its own rules id's
        file first, then every other; AmunreError when none of them is those rules."""
        wanted, rules_id = header.get("digest"), header.get("rules_id")
        names = sorted(self.paths, key=lambda n: (Path(n).name != rules_id, n))
        for name in names:
            try:
                rules = self.rules(name)
            except AmunreError:
                continue
            if rules.digest == wanted:
                return rules
        raise AmunreError(f"it was played with rules (id '{str(rules_id)[:60]}', digest {str(wanted)[:20]}) "
                          "that this server does not have; start it with that rules file: amunre serve FILE")
