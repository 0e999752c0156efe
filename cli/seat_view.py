"""What one seat sees, for a person at the keyboard: every seat's purse and hand (its own cards
with their text), what phases keep, the board, and the running phase's lots and offers.

The board comes in the order a player looks at it: its own places first (its play area),
then each other seat's, then the places nobody owns that hold something; each with its tokens
and the values effects gave it (a place modifier such as the column a tile lies in); then the
cards lying face up beside their decks, and what only this seat may see.

Nothing here knows a game: every name comes from the observation and the rules file.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console

from ..interpreter.game import Game
from ..interpreter.model import Rules
from .render import card_doc, esc, kept_text, offer_text, phase_unit, place_facts, plain_value, seat_markup


def board_view(console: Console, rules: Rules, obs: dict[str, Any], seat: int) -> None:
    owners, tokens = obs.get("owner", []), obs.get("tokens", [])
    mods = place_modifiers(rules, obs)
    rows = [p for p in range(len(rules.place_ids)) if occupied(p, owners, tokens)]
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


def occupied(p: int, owners: list[int], tokens: list[dict[str, int]]) -> bool:
    """Whether a place is in use: owned, or holding a token."""
    return (p < len(owners) and owners[p] >= 0) or (p < len(tokens) and any(tokens[p].values()))


def place_modifiers(rules: Rules, obs: dict[str, Any]) -> dict[int, dict[str, Any]]:
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


def _facts(rules: Rules, card: Any) -> str:
    place = rules.place_index.get(card) if isinstance(card, str) else None
    return f" [dim]({esc(place_facts(rules, place))})[/]" if place is not None else ""


def current_bids(game: Game) -> dict[int, dict[str, Any]]:
    """Each seat's latest bid in the running phase, from the (public) event log."""
    bids: dict[int, dict[str, Any]] = {}
    for event in reversed(game.log or []):
        if event.get("event") == "phase":
            break
        if event.get("event") == "bid" and event.get("seat") not in bids:
            bids[event["seat"]] = event
    return bids


def observation_view(console: Console, game: Game, seat: int) -> None:
    """Print what `seat` may see, from game.observation(seat): purse, hand, board, lots, what
    phases keep (such as a tile)."""
    rules = game.rules
    obs = game.observation(seat)
    step = game.step
    console.print()
    console.rule(f"{seat_markup(seat)} to move - age {esc(step.age)}, round {esc(step.round)}, "
                 f"[bold cyan]{esc(step.phase)}[/]")
    for other, res in enumerate(obs.get("resources", [])):
        hand = obs["hands"][other] if other < len(obs.get("hands", [])) else []
        purse = ", ".join(f"{esc(k)} {esc(v)}" for k, v in res.items())
        if other == seat:
            console.print(f"  You ({seat_markup(seat)}): {purse}", highlight=False)
            for name, per_seat in (obs.get("held") or {}).items():      # a resource held as cards
                cards = " ".join(map(str, per_seat[seat])) or "none"
                console.print(f"    your {esc(name)} cards: {cards}", highlight=False)
        else:
            shown = [c for c in hand if c != "?"]
            hidden = len(hand) - len(shown)
            cards = ", ".join(esc(c) for c in shown) + (f" + {hidden} hidden" if hidden else "")
            console.print(f"  {seat_markup(other)}: {purse}; {len(hand)} card(s)"
                          + (f": {cards}" if cards else ""), highlight=False)
    own = sorted(obs["hands"][seat]) if obs.get("hands") else []
    console.print("  Your hand:" + ("" if own else " empty"), highlight=False)
    for card in sorted(set(own)):
        count = own.count(card)
        console.print(f"    {esc(card)}{f' x{count}' if count > 1 else ''}{card_doc(rules, card)}", highlight=False)
    for phase_id, values in (obs.get("kept") or {}).items():
        for key, value in values.items():
            if value is not None:
                console.print(f"  {esc(phase_id)}: [bold magenta]{esc(kept_text(rules, phase_id, key, value))}[/]",
                              highlight=False)
    board_view(console, rules, obs, seat)
    lots = (obs.get("phase") or {}).get("lots") or []
    if lots:
        bids = current_bids(game)
        console.print("  Lots:", highlight=False)
        for p in lots:
            pid = rules.place_ids[p]
            on = [f"{seat_markup(s)} {esc(b.get('space'))}" for s, b in sorted(bids.items()) if b.get("lot") == pid]
            console.print(f"    [bold]{esc(pid)}[/] [dim]({esc(place_facts(rules, p))})[/]"
                          + (f" - bids: {', '.join(on)}" if on else ""), highlight=False)
    offers = (obs.get("phase") or {}).get("offers")
    if isinstance(offers, list):
        unit = phase_unit(rules, step.phase)
        made = [f"{seat_markup(s)} {offer_text(o, unit)}" for s, o in enumerate(offers) if o is not None]
        if made:
            console.print("  Offers: " + "; ".join(made), highlight=False)
