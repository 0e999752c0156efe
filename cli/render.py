"""Turning a game into text: the play-by-play of its event log, actions, a seat's view, the result.

Nothing here knows any particular game: names come from the rules file (ids, `doc` strings,
phase descriptions) and from the events themselves. An event type this module has never
heard of is printed generically, so a new mechanic never breaks the command line.
All data text is escaped before it reaches rich, so ids or docs with brackets print as written.
Seats are numbered from 0, as in the Python API, JSON and logs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..interpreter.dsl.sentences import words
from ..interpreter.model import Rules
from .changes import CHANGES, TOLD, Story, cause_label, change_text, start_text

SEAT_COLORS = ("red", "blue", "green", "yellow", "magenta", "cyan", "bright_red", "bright_blue")


def seat_label(seat: int) -> str:
    """The plain name of a seat, numbered from 0 as everywhere in amunre: 'Seat 0'."""
    return f"Seat {seat}"


def seat_markup(seat: int | None) -> str:
    """A seat's name in its color (rich markup); '-' when there is no seat."""
    if seat is None or not isinstance(seat, int) or seat < 0:
        return "-"
    return f"[bold {SEAT_COLORS[seat % len(SEAT_COLORS)]}]{seat_label(seat)}[/]"


def esc(value: Any) -> str:
    return escape(str(value))


def plain_value(value: Any) -> str:
    """A JSON value written briefly: lists joined by commas, dicts as k=v."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k}={plain_value(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(plain_value(v) for v in value)
    return str(value)


def extras(data: dict[str, Any], skip: tuple[str, ...]) -> str:
    """The remaining fields of an event or action as ' (k: v, ...)', or ''."""
    rest = {k: v for k, v in data.items() if k not in skip}
    if not rest:
        return ""
    return " (" + ", ".join(f"{esc(k)}: {esc(plain_value(v))}" for k, v in rest.items()) + ")"


def phase_unit(rules: Rules, phase_id: str | None) -> str:
    """The resource a phase pays or collects in (e.g. the auction's `pay`), or ''."""
    mechanic = getattr(rules, "phases", {}).get(phase_id) if phase_id else None
    for attr in ("pay", "resource"):
        unit = getattr(mechanic, attr, None)
        if isinstance(unit, str):
            return unit
    return ""


def describe_phase(rules: Rules, phase_id: str) -> str:
    mechanic = rules.phases.get(phase_id)
    try:
        return mechanic.describe() if mechanic is not None else ""
    except Exception:          # a description is a nicety; never let it stop a game
        return ""


def kept_text(rules: Rules, phase_id: str, key: str, value: Any) -> str:
    """A value a phase keeps after it ends (e.g. the row its total picked), as its mechanic words it."""
    mechanic = getattr(rules, "phases", {}).get(phase_id)
    describe = getattr(mechanic, "describe_kept", None)
    return describe(key, value) if describe is not None else f"{key} {plain_value(value)}"


def with_unit(amount: Any, unit: str) -> str:
    return f"{amount} {unit}" if unit else str(amount)


def offer_text(offer: Any, unit: str = "") -> str:
    """An offer as markup: an amount, or the card offered instead."""
    if isinstance(offer, dict) and "card" in offer:
        return f"card {esc(offer['card'])}"
    if isinstance(offer, dict) and offer.get("steal"):
        return "steals"
    if isinstance(offer, dict) and "amount" in offer:
        return esc(with_unit(offer["amount"], unit))
    return "(hidden)" if offer == "hidden" else esc(plain_value(offer))


# ---- the play-by-play -------------------------------------------------------------------------

class PlayByPlay:
    """Prints events as they come, grouped under age, round and phase headings."""

    def __init__(self, console: Console, rules: Rules, agents: list[str] | None = None) -> None:
        self.console = console
        self.rules = rules
        self.agents = agents or []
        self.age: Any = None
        self.round: Any = None
        self.phase: str | None = None
        self.described: set[str] = set()
        self.told: str | None = None       # the phase whose description its heading just printed
        self._pending: list[Any] | None = None
        self._story: Story | None = None   # the line being written: a story event and its changes

    def step(self, seat: int | None, action: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        """One action and the events it caused (the runner's report). Actions are told by their
        events only, so secret ones (offers, cards attached to an offer) never show early."""
        for event in events:
            self.event(event)

    def event(self, event: dict[str, Any]) -> None:
        kind = event.get("event")
        if kind in CHANGES:
            self._change(event)
            return
        self._close()
        handler = getattr(self, f"_on_{kind}", None) if isinstance(kind, str) else None
        text = self._generic(event) if handler is None else handler(event)
        if text or kind in TOLD:
            seat = event.get("seat")
            self._story = Story(str(kind), seat if isinstance(seat, int) else None, text,
                                event.get("card", event.get("move")), dict(TOLD.get(str(kind), {})))

    def _change(self, e: dict[str, Any]) -> None:
        """A change event: told on the open story's line, or on a line of its own."""
        given = e.get("cause")
        cause = given if isinstance(given, dict) else {}
        kind, seat, story = cause.get("kind"), e.get("seat"), self._story
        if story is not None and story.hides(e, str(kind)):
            return
        if kind == "start" and e.get("event") == "start_player":
            self._close()
            self._line(change_text(e, seat_markup))
        elif kind == "start":                                               # a seat's set-up, on one line
            if story is None or story.kind != "start" or story.seat != seat:
                self._close()
                story = self._story = Story("start", seat, f"{seat_markup(seat)} starts with")
            story.add("", start_text(e))
        elif kind == "deal" and e.get("event") == "draw":
            self._close()
            story = self._story = Story("deal", seat, f"{seat_markup(seat)} is dealt")
            story.add("", start_text(e))
        elif story is not None and story.seat is not None and story.accepts(cause):
            story.add("" if story.own_label(cause) else cause_label(cause), change_text(e, seat_markup, story.seat))
        else:
            self._close()
            label = "" if kind == "start" or not cause else f" [dim]({cause_label(cause)})[/]"
            self._line(change_text(e, seat_markup) + label)

    def _close(self) -> None:
        """The open story's line is complete: print it (held back to count its repeats)."""
        story, self._story = self._story, None
        if story is not None:
            text = story.markup()
            if text:
                self._line(text)

    def _line(self, text: str) -> None:
        """Print an event line; a run of identical lines prints once, with a count."""
        if self._pending is not None and self._pending[0] == text:
            self._pending[1] += 1
            return
        self.flush()
        self._pending = [text, 1]

    def flush(self) -> None:
        """Print the line held back to count its repeats (call before anything else is printed)."""
        self._close()
        if self._pending is not None:
            text, count = self._pending
            self._pending = None
            self.console.print("    " + text + (f" [dim](x{count})[/]" if count > 1 else ""),
                               highlight=False, soft_wrap=True)

    def _generic(self, event: dict[str, Any]) -> str:
        kind = esc(event.get("event", "event"))
        who = f"{seat_markup(event['seat'])}: " if isinstance(event.get("seat"), int) else ""
        return f"{who}[italic]{kind}[/]{extras(event, ('event', 'seat'))}"

    # One method per known event; each returns one line of markup (or prints its own).
    def _on_phase(self, e: dict[str, Any]) -> str:
        self.flush()
        age, rnd, phase = e.get("age"), e.get("round"), str(e.get("phase"))
        if age != self.age:
            self.console.print()
            if self.rules.flow.age >= 0:            # a flow with no repeat named `age` has no ages to head
                self.console.rule(f"[bold]Age {esc(age)}[/]")
            self.age, self.round = age, None
        if rnd != self.round:
            self.console.print(f"[bold]Round {esc(rnd)}[/]", highlight=False)
            self.round = rnd
        self.phase, self.told = phase, None
        self.console.print(f"  [bold cyan]{esc(phase)}[/]", highlight=False)
        if phase not in self.described:
            self.described.add(phase)
            text = describe_phase(self.rules, phase)
            if text:
                self.console.print(f"    [dim]{esc(text)}[/]", highlight=False)
                self.told = phase
        return ""

    def _on_skip(self, e: dict[str, Any]) -> str:
        """A phase its `skip_if` skipped (one an option turns off, say): nothing happened."""
        return ""

    def _on_picked(self, e: dict[str, Any]) -> str:
        return f"{seat_markup(e.get('seat'))} picks a card, face down"

    def _on_revealed(self, e: dict[str, Any]) -> str:
        picks = [f"{seat_markup(seat)} {esc(card)}" for seat, card in enumerate(e.get("picks") or []) if card]
        return "Picks revealed: " + (", ".join(picks) or "none")

    def _on_lots(self, e: dict[str, Any]) -> str:
        lots = e.get("lots") or []
        return "Up for auction: " + (", ".join(f"[bold]{esc(p)}[/]" for p in lots) or "nothing")

    def _on_bid(self, e: dict[str, Any]) -> str:
        return f"{seat_markup(e.get('seat'))} bids {esc(e.get('space'))} on {esc(e.get('lot'))}"

    def _on_won(self, e: dict[str, Any]) -> str:
        price = with_unit(e.get("price"), phase_unit(self.rules, self.phase))
        return f"{seat_markup(e.get('seat'))} [green]wins {esc(e.get('lot'))}[/] for {esc(price)}"

    def _on_buy(self, e: dict[str, Any]) -> str:
        price = with_unit(e.get("price"), phase_unit(self.rules, self.phase))
        return f"{seat_markup(e.get('seat'))} buys {esc(e.get('count'))} {esc(e.get('good'))} for {esc(price)}"

    def _on_play(self, e: dict[str, Any]) -> str:
        return f"{seat_markup(e.get('seat'))} plays [bold]{esc(e.get('card'))}[/]{extras(e, ('event', 'seat', 'card'))}"

    def _on_sell(self, e: dict[str, Any]) -> str:
        return f"{seat_markup(e.get('seat'))} sells {esc(e.get('card'))}"

    def _on_reshuffle(self, e: dict[str, Any]) -> str:
        return f"[dim]the {esc(e.get('deck'))} deck is reshuffled[/]"

    def _on_reveal(self, e: dict[str, Any]) -> str:
        unit = phase_unit(self.rules, self.phase)
        parts = []
        attached = e.get("attached") or []
        for seat, offer in enumerate(e.get("offers") or []):
            what = offer_text(offer, unit)
            cards = attached[seat] if seat < len(attached) else []
            if cards:
                what += " + " + ", ".join(esc(c) for c in cards)
            parts.append(f"{seat_markup(seat)} {what}")
        return f"Offers revealed: {'; '.join(parts)} -> total [bold]{esc(e.get('total'))}[/]"

    def _on_adjust(self, e: dict[str, Any]) -> str:
        return f"{seat_markup(e.get('seat'))} resolves {esc(e.get('card'))}{extras(e, ('event', 'seat', 'card'))}"

    def _on_settled(self, e: dict[str, Any]) -> str:
        ranking = ", ".join(seat_markup(s) for s in e.get("ranking") or []) or "nobody"
        label = e.get("label", e.get("tile"))
        text = (f"Offers total [bold]{esc(e.get('total'))}[/] -> tile [bold magenta]{esc(label)}[/]"
                f" ({esc(e.get('tile'))}); ranking: {ranking}")
        if "start_player" in e:
            text += f"; start player: {seat_markup(e['start_player'])}"
        return text

    def _on_place(self, e: dict[str, Any]) -> str:
        return f"{seat_markup(e.get('seat'))} places {esc(e.get('token'))} on {esc(e.get('at'))}"

    def _on_reward(self, e: dict[str, Any]) -> str:
        where = f" at {esc(e['at'])}" if e.get("at") else ""
        return f"{seat_markup(e.get('seat'))} takes {esc(e.get('good'))}{where}"

    def _on_income(self, e: dict[str, Any]) -> str:
        unit = phase_unit(self.rules, self.phase)
        places = e.get("places") or {}
        detail = ", ".join(f"{esc(p)} {esc(v)}" for p, v in places.items())
        return (f"{seat_markup(e.get('seat'))} collects [bold]{esc(with_unit(e.get('total'), unit))}[/]"
                + (f" ({detail})" if detail else ""))

    def _on_score(self, e: dict[str, Any]) -> str:
        return f"{seat_markup(e.get('seat'))} scores [bold]{esc(e.get('points'))}[/] for {esc(e.get('source'))}"

    def _on_reset(self, e: dict[str, Any]) -> str:
        """What the reset did: its phase's description, unless the heading has just shown it."""
        if self.phase is not None and self.phase == self.told:
            return ""
        return f"[dim]{esc(describe_phase(self.rules, self.phase) or 'reset')}[/]" if self.phase else "[dim]reset[/]"

    def _on_move(self, e: dict[str, Any]) -> str:
        return f"{seat_markup(e.get('seat'))} [bold]{esc(e.get('move'))}[/]{extras(e, ('event', 'seat', 'move'))}"

    def _on_chosen(self, e: dict[str, Any]) -> str:
        return f"{seat_markup(e.get('seat'))} chooses [bold]{esc(e.get('option'))}[/]"

    def _on_took(self, e: dict[str, Any]) -> str:
        return f"{seat_markup(e.get('seat'))} takes [bold]{esc(e.get('card'))}[/]{extras(e, ('event', 'seat', 'card'))}"

    def _on_turned(self, e: dict[str, Any]) -> str:
        card = e.get("card")
        place = self.rules.place_index.get(card) if isinstance(card, str) else None
        facts = f" [dim]({esc(place_facts(self.rules, place))})[/]" if place is not None else ""
        return f"turned up from {esc(e.get('deck'))}: [bold magenta]{esc(card)}[/]{facts}"

    def _on_laid_out(self, e: dict[str, Any]) -> str:
        return f"face up beside {esc(e.get('deck'))}: " + ", ".join(f"[bold]{esc(c)}[/]" for c in e.get("cards") or [])

    def _on_game_over(self, e: dict[str, Any]) -> str:
        self.flush()
        self.console.print()
        self.console.rule("[bold]Game over[/]")
        return ""


# ---- the result ------------------------------------------------------------------------------

def result_table(result: dict[str, Any], agents: list[str] | None = None, title: str = "",
                 score: str = "score") -> Table:
    """Final scores: one column per seat (so that five seats fit any terminal), one row per
    source of points under the total (`score` names the resource, as the rules do), then the
    resources the rules report; winners are marked."""
    scores = result.get("scores", [])
    seats = range(len(scores))
    breakdown = result.get("breakdown") or [{} for _ in seats]
    sources: list[str] = []
    for row in breakdown:
        sources += [s for s in row if s not in sources]
    winners = set(result.get("winners", []))
    table = Table(title=title or None)
    table.add_column("")
    for seat in seats:
        table.add_column(seat_markup(seat), justify="right")
    if agents:
        table.add_row("agent", *[esc(agents[s]) if s < len(agents) else "" for s in seats])
    table.add_row(f"[bold]{esc(score)}[/]", *[f"[bold]{esc(scores[s])}[/]" for s in seats])
    for source in sources:
        table.add_row(f"  [dim]{esc(source)}[/]",
                      *[esc(breakdown[s].get(source, "")) if s < len(breakdown) else "" for s in seats])
    table.add_section()
    for key, value in result.items():
        if key not in ("scores", "winners", "breakdown", "over") and isinstance(value, list) \
                and len(value) == len(scores):
            table.add_row(esc(key), *[esc(plain_value(v)) for v in value])
    table.add_row("", *["[bold yellow]winner[/]" if s in winners else "" for s in seats])
    return table


def winner_line(result: dict[str, Any], agents: list[str] | None = None, score: str = "points",
                ties: Sequence[dict[str, Any]] = ()) -> str:
    """Who won; then each seat that tied with the winners but lost on a tie-break, and on
    which (`Game.lost_ties`): 'Seat 2, 25 points, tied and lost on TIEBREAK, 2 against 4'."""
    winners = result.get("winners", [])
    scores = result.get("scores", [])

    def name(seat: int) -> str:
        agent = f" ({esc(agents[seat])})" if agents and seat < len(agents) else ""
        return f"{seat_markup(seat)}{agent}"
    if not winners:
        return "No winner."
    points = f"{esc(scores[winners[0]])} {esc(score)}" if winners[0] < len(scores) else ""
    if len(winners) == 1:
        line = f"Winner: {name(winners[0])} with {points}"
    else:
        line = f"Winners (tied): {', '.join(name(s) for s in winners)} with {points} each"
    for tie in ties:
        had = f"{esc(scores[tie['seat']])} {esc(score)}" if tie["seat"] < len(scores) else ""
        line += (f"; {name(tie['seat'])}, {had}, tied and lost on {esc(tie['tiebreak'])}, "
                 f"{esc(tie['value'])} against {esc(tie['against'])}")
    return line


# ---- actions and what a seat sees ------------------------------------------------------------

def _amounts(amounts: dict[str, int]) -> str:
    return ", ".join(f"{n:+d} {name}" for name, n in sorted(amounts.items()))


def outcome_text(outcome: dict[str, Any]) -> str:
    """What an action would change (an outcome's JSON, interpreter/play/outcomes.py) in words:
    '-15 coins', '-6 coins if it stands', '+3 coins on collect', '+1 worker on the hill'."""
    parts = []
    if outcome.get("now"):
        parts.append(_amounts(outcome["now"]))
    if outcome.get("later"):
        parts.append(f"{_amounts(outcome['later'])} if it stands")
    if outcome.get("then"):
        parts.append(f"{_amounts(outcome['then'])} on {outcome.get('closing', 'closing')}")
    for place, tokens in sorted((outcome.get("tokens") or {}).items()):
        parts.append(f"{_amounts(tokens)} on {place}")
    if outcome.get("owns"):
        parts.append("takes " + ", ".join(outcome["owns"]))
    cards = outcome.get("cards", 0)
    if cards:
        drawn = " drawn" if cards > 0 and outcome.get("chance") else ""
        parts.append(f"{cards:+d} card{'' if abs(cards) == 1 else 's'}{drawn}")
    elif outcome.get("chance"):
        parts.append("by chance")
    return "; ".join(parts)


def action_text(rules: Rules, action: dict[str, Any], docs: bool = True) -> str:
    """One legal action in words (markup), e.g. 'bid 6 on <place>'; unknown types generically."""
    kind = action.get("type")
    a = {k: esc(plain_value(v)) for k, v in action.items()}
    if kind == "bid":
        return _bid_text(action, a)
    doc = card_doc(rules, action.get("card")) if docs else ""
    if kind == "play":
        return f"play [bold]{a.get('card')}[/]{extras(action, ('type', 'card'))}{doc}"
    if kind == "sell":
        deck = _deck_of(rules, action.get("card"))
        gain = f" for {deck.sell} {esc(deck.sell_resource)}" if deck is not None and deck.sell else ""
        return f"sell {a.get('card')}{gain}"
    if kind == "buy" and "good" in action:
        return f"buy no {a.get('good')}" if action.get("count") == 0 else f"buy {a.get('count')} {a.get('good')}"
    if kind == "place":
        return f"place {a.get('token')} on [bold]{a.get('at')}[/]"
    if kind == "done":
        return "done"
    if kind == "attach":
        return f"add card [bold]{a.get('card')}[/] to your offer{doc}"
    if kind == "offer":
        return f"offer card [bold]{a['card']}[/]" if "card" in action else f"offer {a.get('amount')}"
    if kind == "resolve":
        return f"resolve {a.get('card')}{extras(action, ('type', 'card'))}"
    if kind == "take":
        return f"take {a.get('good')}" + (f" on [bold]{a['at']}[/]" if action.get("at") else "")
    if kind == "collect":
        return "collect income"
    return f"{esc(kind)}{extras(action, ('type',))}"


def _bid_text(action: dict[str, Any], a: dict[str, str]) -> str:
    """A bid on a space of a lot (a placement auction), or of an amount on the lot up (a lot auction)."""
    if "space" in action:
        return f"bid {a.get('space')} on [bold]{a.get('lot')}[/]"
    return f"bid {a.get('amount')}{extras(action, ('type', 'amount'))}"


def card_doc(rules: Rules, card_id: Any) -> str:
    card = getattr(rules, "cards", {}).get(card_id)
    doc = getattr(card, "doc", "") if card is not None else ""
    return f" [dim]- {esc(doc)}[/]" if doc else ""


def _deck_of(rules: Rules, card_id: Any) -> Any:
    card = getattr(rules, "cards", {}).get(card_id)
    return getattr(rules, "decks", {}).get(card.deck) if card is not None else None


def place_facts(rules: Rules, place: int, leave_out: frozenset[str] = frozenset()) -> str:
    """A place's printed properties (but those left out), briefly and in words: text values,
    true flags, non-zero numbers (`some limit 3`, not the file's key `some_limit`)."""
    parts = []
    for name, value in rules.place_props[place].items():
        if name in leave_out:
            continue
        said = words(name)
        if isinstance(value, bool):
            if value:
                parts.append(said)
        elif isinstance(value, (int, float)):
            if value:
                parts.append(f"{said} {value}")
        else:
            parts.append(words(value))
    return ", ".join(parts)
