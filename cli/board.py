"""The board as one seat sees it, for a person at the keyboard: its own places first (its play
area), then each other seat's, then the places nobody owns that hold something; each with
its tokens and the values effects gave it (a place modifier such as the column a tile lies
in); then the cards lying face up beside their decks, and what only this seat may see.

Nothing here knows a game: every name comes from the observation and the rules file.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console

from .render import esc, place_facts, plain_value, seat_markup


def board_view(console: Console, rules: Any, obs: dict[str, Any], seat: int) -> None:
    owners, tokens = obs.get("owner", []), obs.get("tokens", [])
    mods = _place_modifiers(rules, obs)
    rows = [p for p in range(len(rules.place_ids))
            if (p < len(owners) and owners[p] >= 0) or (p < len(tokens) and any(tokens[p].values()))]
    groups: dict[int, list[int]] = {}
    for p in rows:
        groups.setdefault(owners[p] if p < len(owners) else -1, []).append(p)
    order = [seat] + [s for s in sorted(groups) if s not in (seat, -1)] + [-1]
    for owner in order:
        if owner not in groups:
            continue
        title = "Your places" if owner == seat else "Nobody's" if owner < 0 else f"{seat_markup(owner)}'s places"
        console.print(f"  {title}:", highlight=False)
        for p in groups[owner]:
            pieces = ", ".join(f"{esc(k)} {v}" for k, v in tokens[p].items() if v)
            held = ", ".join(f"{esc(name)} {esc(value)}" for name, value in mods.get(p, {}).items())
            console.print(f"    [bold]{esc(rules.place_ids[p])}[/]{(': ' + pieces) if pieces else ''}"
                          f"{(' [cyan]' + held + '[/]') if held else ''} [dim]({esc(place_facts(rules, p))})[/]",
                          highlight=False)
    for deck, cards in (obs.get("shown") or {}).items():
        if cards:
            console.print(f"  Face up beside {esc(deck)}: " + ", ".join(
                f"[bold]{esc(c)}[/]{_facts(rules, c)}" for c in cards), highlight=False)
    for phase_id, facts in (obs.get("private") or {}).items():
        for key, value in facts.items():
            console.print(f"  [yellow]Only you see[/] ({esc(phase_id)}): {esc(key)} [bold]{esc(plain_value(value))}[/]"
                          f"{_facts(rules, value)}", highlight=False)


def _place_modifiers(rules: Any, obs: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Per place, the place modifiers an effect has set to other than their default."""
    found: dict[int, dict[str, Any]] = {}
    for name, mod in rules.vocab.all_modifiers().items():
        values = (obs.get("mods") or {}).get(mod.name)
        if mod.scope != "place" or values is None:
            continue
        for p, value in enumerate(values):
            if value is not None and value != mod.default:
                found.setdefault(p, {})[name] = value
    return found


def _facts(rules: Any, card: Any) -> str:
    place = rules.place_index.get(card) if isinstance(card, str) else None
    return f" [dim]({esc(place_facts(rules, place))})[/]" if place is not None else ""
