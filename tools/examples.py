"""Playing a rules file's worked examples (`examples:`, compiled by
interpreter/load/build_examples.py) and saying where the first one that does not hold goes wrong.

An example starts a game from its set-up, then runs its steps in order: a move (checked to be
legal, and made by the seat the step names), bots playing to a point, or expectations. The
first expectation that fails ends the example: its report names the check, where it is written,
the number it found and the move after which it was checked. Moves in words (`bid 10 on
PLACE`) are matched against the words of the legal moves, which the caller supplies
(`words`: the command line's own, so that an example reads as `amunre run` prints a game).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..interpreter.base.errors import AmunreError, GameError, Problem, Span
from ..interpreter.dsl import Dsl, Expression
from ..interpreter.dsl.checked import NOT_CONSTANT
from ..interpreter.dsl.context import Ctx
from ..interpreter.dsl.printer import to_text
from ..interpreter.dsl.types import PLACE, SEAT
from ..interpreter.game import new_game
from ..interpreter.model import Example, ExampleCheck, ExampleStep, Rules
from .agents import choose_id, make_agent
from .flow_style import flow_style

Words = Callable[[Rules, dict[str, Any]], str]
PLAY_LIMIT = 200_000          # decisions bots may make in one `play` step: a game that never ends stops here


@dataclass(frozen=True)
class Outcome:
    """How one example went: passed, or the first thing that failed, where, and after which move."""
    example: Example
    passed: bool
    problem: Problem | None = None
    after: str = ""

    def to_json(self) -> dict[str, Any]:
        span = self.problem.span if self.problem else None
        return {"id": self.example.id, "section": self.example.section, "passed": self.passed,
                "message": self.problem.message if self.problem else None,
                "where": f"{span.file}:{span.line}:{span.col}" if span else None,
                "after": self.after or None}


class Failed(Exception):
    """An example stops: what failed, and where it is written."""

    def __init__(self, message: str, span: Span | None) -> None:
        super().__init__(message)
        self.problem = Problem(message, span)


def check_examples(rules: Rules, words: Words | None = None) -> list[Outcome]:
    """Every example of the rules file, played in order."""
    return [run_example(rules, example, words) for example in rules.examples]


def run_example(rules: Rules, example: Example, words: Words | None = None) -> Outcome:
    run = _Run(rules, example, words)
    try:
        run.play()
    except Failed as failure:
        return Outcome(example, False, failure.problem, run.after)
    return Outcome(example, True)


class _Run:
    def __init__(self, rules: Rules, example: Example, words: Words | None) -> None:
        self.rules, self.example, self.words = rules, example, words
        self.after = ""                 # the last move made, as written ("" before the first)
        self.seen = 0                   # events of the log already looked at by an `expect`
        self.env: dict[str, Any] = {name: i for i, name in enumerate(rules.place_ids)}
        self.env.update({name: seat for seat, name in enumerate(example.seats)})

    def play(self) -> None:
        example = self.example
        try:
            self.game = new_game(self.rules, example.players, example.seed, example.setup)
        except AmunreError as error:
            raise Failed(f"the example's set-up cannot be played: {error}", example.span) from None
        for step in example.steps:
            try:
                {"move": self._move, "play": self._bots, "expect": self._expect}[step.kind](step)
            except (GameError, AmunreError) as error:
                if isinstance(error, Failed):
                    raise
                what = "a check cannot be worked out" if step.kind == "expect" else "the game stopped with an error"
                raise Failed(f"{what}: {error}", step.span) from None

    # ---- moves ----------------------------------------------------------------------------------
    def _move(self, step: ExampleStep) -> None:
        game = self.game
        if game.over:
            raise Failed("the game is over: there is no move to make", step.span)
        for time in range(step.times):
            if step.seat is not None and game.to_move != step.seat:
                raise Failed(f"{self._seat(step.seat)} is not to move: {self._seat(game.to_move)} is", step.span)
            matches = self._matching(step.action, step.span)
            if len(matches) != 1:
                legal = "; ".join(self._written(a) for a in game.legal_actions())
                what = "is not a legal move" if not matches else f"matches {len(matches)} legal moves"
                again = f" (time {time + 1} of {step.times})" if step.times > 1 else ""
                raise Failed(f"{flow_style(step.action)}{again} {what} of {self._seat(game.to_move)}; "
                             f"the legal moves: {legal}", step.span)
            game.apply_id(matches[0])
        who = self._seat(step.seat) if step.seat is not None else "move"
        self.after = f"{who}: {flow_style(step.action)}" + (f" ({step.times} times)" if step.times > 1 else "")

    def _matching(self, action: Any, span: Span) -> list[int]:
        """The legal ids a move as written stands for: an id, a mapping (exact, else every legal
        move holding its keys), or words."""
        game = self.game
        ids = game.legal_action_ids()
        if isinstance(action, int):
            return [action] if action in ids else []
        legal = game.legal_actions()
        if isinstance(action, dict):
            exact = [i for i, a in zip(ids, legal) if a == action]
            return exact or [i for i, a in zip(ids, legal) if all(k in a and a[k] == v for k, v in action.items())]
        if self.words is None:
            raise Failed("a move in words needs the words of the moves (run it with `amunre check`)", span)
        return [i for i, a in zip(ids, legal) if self.words(self.rules, a) == action]

    def _written(self, action: dict[str, Any]) -> str:
        return self.words(self.rules, action) if self.words is not None else flow_style(action)

    def _bots(self, step: ExampleStep) -> None:
        game = self.game
        try:
            agent = make_agent(step.action, self.example.seed)
        except ValueError as error:
            raise Failed(f"play: {error}", step.span) from None
        for _ in range(PLAY_LIMIT):
            if self._reached(step.until):
                self.after = f"bots ({step.action}) until {flow_style(step.until)}"
                return
            if game.over:
                raise Failed(f"the game ended before {flow_style(step.until)}", step.span)
            game.apply_id(choose_id(agent, game))
        raise Failed(f"{PLAY_LIMIT:,} moves played without reaching {flow_style(step.until)}", step.span)

    def _reached(self, until: Any) -> bool:
        if until == "end":
            return self.game.over
        if self.game.over:
            return False
        at = self.game.step
        return all(getattr(at, key) == value for key, value in until.items())

    # ---- expectations ---------------------------------------------------------------------------
    def _expect(self, step: ExampleStep) -> None:
        for check in step.checks:
            message = self._failure(check)
            if message is not None:
                raise Failed(message, check.span)
        if self.game.log is not None:
            self.seen = len(self.game.log)

    def _failure(self, check: ExampleCheck) -> str | None:
        """What is wrong, or None if the check holds."""
        game = self.game
        if check.kind == "condition":
            return self._condition(check)
        if check.kind in ("phase", "round", "age"):
            found = getattr(game.step, check.kind) if not game.over else "the game is over"
            return None if found == check.expected else f"the {check.kind} is {found}, expected {check.expected}"
        if check.kind == "to_move":
            found = game.to_move
            return None if found == check.expected else \
                f"{self._seat(found)} is to move, expected {self._seat(check.expected)}"
        if check.kind == "over":
            return None if game.over == check.expected else f"the game is {'' if game.over else 'not '}over"
        if check.kind == "winners":
            found = sorted(game.result()["winners"]) if game.over else []
            return None if found == check.expected else \
                f"the winners are {self._seats(found)}, expected {self._seats(check.expected)}"
        if check.kind in ("legal", "illegal"):
            return self._legal(check)
        if check.kind in ("hidden", "shown"):
            return self._sight(check)
        return self._events(check)

    def _condition(self, check: ExampleCheck) -> str | None:
        ctx = Ctx(self.game, None, dict(self.env))
        if check.expected.fn(ctx):
            return None
        dsl = Dsl(self.rules.vocab, lambda message, offset, hint: None)     # checked as a whole at load
        for tree in check.comparisons:
            part, left, right = (dsl.checked(node, check.scope) for node in (tree, tree.left, tree.right))
            if not part.fn(ctx):
                shown = [f"{_side_text(side)} is {self._value(side, ctx)}" for side in (left, right)
                         if not _literal(side)]
                which = "" if _side_text(part) == _side_text(check.expected) else f" ({_side_text(part)})"
                return f"{check.text} does not hold{which}: {', '.join(shown)}" if shown else \
                    f"{check.text} does not hold{which}"
        return f"{check.text} does not hold"

    def _value(self, side: Expression, ctx: Ctx) -> str:
        value = side.fn(ctx)
        if side.type == SEAT:
            return self._seat(value if isinstance(value, int) and value >= 0 else None)
        if side.type == PLACE and isinstance(value, int):
            return self.rules.place_ids[value]
        return str(value)

    def _legal(self, check: ExampleCheck) -> str | None:
        for action in check.expected:
            found = self._matching(action, check.span)
            if check.kind == "legal" and not found:
                return f"{flow_style(action)} is not a legal move of {self._seat(self.game.to_move)}"
            if check.kind == "illegal" and found:
                moves = "; ".join(self._written(self.game.action_from_id(i)) for i in found)
                return f"{self._seat(self.game.to_move)} may still make {moves}"
        return None

    def _sight(self, check: ExampleCheck) -> str | None:
        for looking, looked_at, resource in check.expected:
            seen = self.game.observation(looking)["resources"][looked_at].get(resource)
            if (seen == "hidden") != (check.kind == "hidden"):
                return (f"{self._seat(looking)} sees {self._seat(looked_at)}'s {resource}: {seen}" if seen != "hidden"
                        else f"{self._seat(looking)} does not see {self._seat(looked_at)}'s {resource}")
        return None

    def _events(self, check: ExampleCheck) -> str | None:
        log = self.game.log or []
        recent = log[self.seen:]
        if check.kind == "no_events":
            for unwanted in check.expected:
                found = [e for e in recent if all(k in e and e[k] == v for k, v in unwanted.items())]
                if found:
                    shown = flow_style({k: v for k, v in found[0].items() if k != "cause"})
                    return f"an event {flow_style(unwanted)} happened since the last check: {shown}"
            return None
        for wanted in check.expected:
            if not any(all(k in e and e[k] == v for k, v in wanted.items()) for e in recent):
                kind = wanted.get("event")
                alike = [e for e in recent if kind is None or e.get("event") == kind]
                seen = "; ".join(flow_style({k: v for k, v in e.items() if k != "cause"}) for e in alike[:6])
                return f"no event {flow_style(wanted)} since the last check" + (f"; there were: {seen}" if seen else "")
        return None

    # ---- words ----------------------------------------------------------------------------------
    def _seat(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return self.example.seats[seat] if 0 <= seat < len(self.example.seats) else f"seat {seat}"

    def _seats(self, seats: list[int]) -> str:
        return ", ".join(self._seat(s) for s in seats) or "nobody"


def _literal(side: Expression) -> bool:
    """A side that is written as its value (`14`): saying what it is adds nothing."""
    return side.constant is not NOT_CONSTANT and _side_text(side) == str(side.constant)


def _side_text(side: Expression) -> str:
    return to_text(side.tree) if side.tree is not None else "?"
