"""The games a server holds: live tables (people and bots at one game) and replays of logs.

A table is reached only through unguessable tokens: one per human seat, one to watch. Bots move
in a thread of the table's own, one move at a time, with a pause between moves so that a person
can follow them; every change bumps the table's `version`, which the pages' event streams
watch. Everything a page is sent is made by views.py from one seat's observation.

A replay plays a log again from its seed with `LogCheck` (cli/logs.py), which believes no line
it cannot reproduce, and keeps the position after each action to step through. Its rules are
found by the digest the log gives, among the rules files the server may read (the shipped ones
and those named on its command line): a log never names a file that the server opens.
"""

from __future__ import annotations

import io
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from rich.console import Console

from ...interpreter.base.errors import AmunreError, IllegalAction
from ...interpreter.game import Game, new_game
from ...interpreter.model import Rules
from ...tools.agents import AGENTS, make_agent
from ...tools.agents.hints import hint
from ...tools.rulebook import slug
from ...tools.simulate.seeds import agent_seed
from ..logs import LogCheck
from ..play import JsonlLog, read_log_lines
from ..render import PlayByPlay, action_text
from .refused import Refused
from .views import MOST_REPEATED, drawn_places, game_view, plain

HUMAN = "human"
LINES_SENT = 600            # the play-by-play's latest lines a view carries (a whole game tells thousands)
CHECKPOINT = 16             # a replay keeps the position of every 16th step, and plays on from it
log = logging.getLogger("amunre.serve")


def latest(lines: list[str], told: int) -> dict[str, Any]:
    """The last LINES_SENT of the first `told` lines, and how many earlier ones are left out."""
    start = max(0, told - LINES_SENT)
    return {"log": lines[start:told], "log_skipped": start}


class Story:
    """The play-by-play as text lines: the command line's words (cli/render.py), in plain text."""

    def __init__(self, rules: Rules, agents: list[str]) -> None:
        self.buffer = io.StringIO()
        console = Console(file=self.buffer, width=100, color_system=None, force_terminal=False,
                          highlight=False, soft_wrap=True)
        self.play_by_play = PlayByPlay(console, rules, agents)
        self.lines: list[str] = []

    def tell(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            self.play_by_play.event(event)
        self.play_by_play.flush()
        self.lines += [line.rstrip() for line in self.buffer.getvalue().splitlines() if line.strip()]
        self.buffer.seek(0)
        self.buffer.truncate(0)


@dataclass
class Seen:
    """What a person saw after their last move: the lines told so far, and the owners, tokens
    and purses of their observation, to mark what changed since."""
    seat: int
    told: int
    owner: list[Any]
    tokens: list[Any]
    resources: list[Any]

    @classmethod
    def of(cls, game: Game, seat: int, told: int) -> Seen:
        obs = game.observation(seat)
        return cls(seat, told, obs["owner"], obs["tokens"], obs["resources"])

    def since(self, game: Game, told: int) -> dict[str, Any]:
        """The lines told since (`since`, a count), and the places and seats' resources that
        changed (`changed`), as the seat sees them now."""
        obs, ids = game.observation(self.seat), game.rules.place_ids
        places = [ids[p] for p in range(len(ids))
                  if self.owner[p] != obs["owner"][p] or self.tokens[p] != obs["tokens"][p]]
        purses = [[other, name] for other, purse in enumerate(obs["resources"]) for name, value in purse.items()
                  if self.resources[other].get(name) != value]
        return {"since": told - self.told, "changed": {"places": places, "resources": purses}}


@dataclass
class Table:
    """A live game: its seats' agents, the links of its human seats, and what has been told."""
    rules: Rules
    players: int
    seed: int
    agents: list[str]
    options: dict[str, str]
    pace: float = 0.5                       # seconds between two bots' moves
    game: Game = field(init=False)
    tokens: dict[str, int] = field(init=False)     # a human seat's token -> its seat
    watch: str = field(init=False)                 # the token of the public view
    version: int = 0
    touched: float = field(default_factory=time.monotonic)
    failure: str = ""                               # a bot's error, shown on every page
    closed: bool = False
    rulebook: str = ""                              # the address of its rules' rulebook, if served
    hints: bool = False                             # a person may ask a bot to rank their moves

    def __post_init__(self) -> None:
        self.game = new_game(self.rules, players=self.players, seed=self.seed, setup={"options": self.options})
        self.bots = {s: make_agent(spec, agent_seed(self.seed, s)) for s, spec in enumerate(self.agents)
                     if spec != HUMAN}
        self.tokens = {secrets.token_urlsafe(18): s for s, spec in enumerate(self.agents) if spec == HUMAN}
        self.watch = secrets.token_urlsafe(18)
        self.lock = threading.RLock()
        self.story = Story(self.rules, self.agents)
        self.record = io.StringIO()
        self.log = JsonlLog(self.record)
        # The file's name only: the log goes to remote players, and where the server keeps its
        # files is none of theirs (a replay finds the rules by digest, or by --rules).
        self.log.header(self.rules, PurePath(self.rules.path).name, self.seed, self.players, self.agents,
                        self.options)
        self._told(None, None, list(self.game.log or []))
        self._running = False               # a bots' thread is playing (set and cleared under the lock)
        self.seen: dict[int, Seen] = {}     # each person's position after their last move
        self.forced = 0                     # moves made for a person who had no other
        self._play_forced()

    def view(self, seat: int | None) -> dict[str, Any]:
        with self.lock:
            self.touched = time.monotonic()
            view = game_view(self.game, seat, self.agents)
            view.update(latest(self.story.lines, len(self.story.lines)))
            view["version"], view["failure"] = self.version, self.failure
            view["thinking"] = not self.game.over and self.game.to_move in self.bots
            if seat is not None and seat not in self.bots and not self.game.over:
                view["bots"] = list(AGENTS)             # what the seat may be handed to (hand_over)
            if seat in self.seen:
                view.update(self.seen[seat].since(self.game, len(self.story.lines)))
                drawn = drawn_places(view)
                changed = view["changed"]            # a place that left the board cannot be marked
                changed["places"] = [place for place in changed["places"] if place in drawn]
            if self.rulebook:
                view["rulebook"] = f"{self.rulebook}#phase-{slug(self.game.step.phase)}"
            view["hints"] = self.hints and seat is not None and seat not in self.bots
            return view

    def hint(self, seat: int, spec: str) -> dict[str, Any]:
        """The seat's legal moves as a bot ranks them (tools/agents/hints.py), asked by its
        person; the bot thinks on a copy, outside the lock, from what the seat sees. Refused
        unless the game's starter turned hints on and the seat is to move. The bot's seed is
        the game's, moved on by the moves made: the same position, the same hint."""
        with self.lock:
            self.touched = time.monotonic()
            if not self.hints:
                raise Refused("hints are off in this game (whoever starts a game may turn them on)", 403)
            if self.game.over or self.game.to_move != seat:
                raise Refused("a hint is for the seat to move", 409)
            game = self.game.clone(events=False)
        try:
            found = hint(game, spec, self.seed + len(game.history))
        except ValueError as error:
            raise Refused(f"agent: {error}") from None
        for move in found["moves"]:
            move["label"] = plain(action_text(game.rules, game.action_from_id(move["id"])))
        return found

    def act(self, seat: int, action_id: Any, times: Any = 1) -> None:
        """The seat's choice, by the engine's action id; Refused when it is not the seat's turn
        or not a legal action (the game is then unchanged). With `times`, the same move again
        while it stays legal, the seat's turn going on in the same phase ("all N": every piece
        bought placed on one place), at most that many times."""
        with self.lock:
            self.touched = time.monotonic()
            game = self.game
            if game.over:
                raise Refused("the game is over")
            if game.to_move != seat:
                raise Refused(f"it is seat {game.to_move}'s turn, not yours", 409)
            if type(action_id) is not int:
                raise Refused("an action is chosen by its id, a whole number")
            if type(times) is not int or not 1 <= times <= MOST_REPEATED:
                raise Refused(f"times: a whole number from 1 to {MOST_REPEATED}")
            step = game.state.step
            try:
                self._apply(seat, action_id)
            except (IllegalAction, AmunreError) as error:
                raise Refused(f"not a legal action now: {error}", 409) from None
            for _ in range(times - 1):
                if game.over or game.to_move != seat or game.state.step != step \
                        or action_id not in game.legal_action_ids():
                    break
                self._apply(seat, action_id)
            self._play_forced()
            self.seen[seat] = Seen.of(game, seat, len(self.story.lines))
        self.wake_bots()

    def _play_forced(self) -> None:
        """Make a person's only legal move for them (placing a token where one place is left,
        say), as often as one is to move with no choice; under the lock, in the same step as the
        move before, so no page sees the position waiting for it. The play-by-play tells the move
        as any other, and not that it was the only one: where a purse is hidden, that would tell
        the others what it cannot pay."""
        game = self.game
        while not game.over and game.to_move is not None and game.to_move not in self.bots:
            legal = game.legal_action_ids()
            if len(legal) != 1:
                return
            self._apply(game.to_move, legal[0])
            self.forced += 1

    def hand_over(self, seat: int, spec: str) -> None:
        """A human seat played by a bot from now on (its player left the table, or wants to
        watch); the seat's link still shows what the seat sees. Refused once the game is over or
        when a bot plays the seat already."""
        with self.lock:
            self.touched = time.monotonic()
            if self.game.over:
                raise Refused("the game is over")
            if seat in self.bots:
                raise Refused(f"seat {seat} is played by a bot already ({self.agents[seat]})", 409)
            self.bots[seat] = make_agent(spec, agent_seed(self.seed, seat))
            self.agents[seat] = spec
            self.story.lines.append(f"    Seat {seat} is played by {spec} from here on")
            self.version += 1
        self.wake_bots()

    def wake_bots(self) -> None:
        """Let the bots play until a person is to move (in a thread: a bot may think for seconds).
        Whether a thread runs is decided under the lock, where the thread also decides to stop,
        so a move made as the thread ends can never leave a bot to move with no thread."""
        with self.lock:
            if self._running or self.game.over or self.game.to_move not in self.bots or self.closed \
                    or self.failure:
                return
            self._running = True
        threading.Thread(target=self._run_bots, name="amunre-bots", daemon=True).start()

    def _run_bots(self) -> None:
        """Each bot thinks on a copy of the position, outside the lock, so that pages are served
        while it thinks (a search may take seconds); only a bot is to move meanwhile, so the
        position cannot change under it."""
        while True:
            with self.lock:
                if self.closed or self.game.over or self.game.to_move not in self.bots:
                    self._running = False
                    return
                seat, position = self.game.to_move, self.game.clone()
            try:
                action_id = self.bots[seat].choose_id(position, position.legal_action_ids())
                with self.lock:
                    if self.closed:
                        self._running = False
                        return
                    self._apply(seat, action_id)
                    self._play_forced()
            except Exception:                  # a bot that fails stops the table; its error, which
                log.exception("seat %s's bot failed", seat)      # may name hidden cards, stays here
                with self.lock:
                    self.failure = f"seat {seat}'s bot ({self.agents[seat]}) failed; the server's console says why"
                    self.version += 1
                    self._running = False
                return
            if self.pace > 0:
                time.sleep(self.pace)

    def _apply(self, seat: int, action_id: int) -> None:
        """The seat's move applied and told (under the lock); the engine's errors pass through."""
        game, seen = self.game, len(self.game.log or [])
        action = game.action_from_id(action_id)
        game.apply_id(action_id)
        self._told(seat, action, (game.log or [])[seen:])

    def _told(self, seat: int | None, action: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        self.story.tell(events)
        self.log.step(seat, action, events)
        self.version += 1

    def log_text(self) -> str:
        """The game's log (`amunre run --log`'s format), once the game is over: before that it
        would tell every seat's secret choices."""
        with self.lock:
            if not self.game.over:
                raise Refused("the log is given once the game is over (it shows every secret choice)", 409)
            return self.record.getvalue()


@dataclass
class Frame:
    """A replay's step: who acted and how (or the set-up), and how far the story and the log
    had gone after it."""
    seat: int | None
    action: str
    told: int                  # play-by-play lines told up to here
    logged: int                # events logged up to here


class Replay:
    """A log played again and checked line by line. It keeps the position of every CHECKPOINT-th
    step and the action ids, and works a step out from the checkpoint before it when asked:
    a long log costs its checkpoints, not a whole copy of the game (and of its log) per step."""

    def __init__(self, text: str, find_rules: Callable[[dict[str, Any]], Rules]) -> None:
        header, body = read_log_lines(text.splitlines())
        self.rules = rules = find_rules(header)
        self.agents = [str(a) for a in header.get("agents", [])]
        self.header = header
        self.story = Story(rules, self.agents)
        self.frames: list[Frame] = []
        self.checkpoints: list[Game] = []
        self.touched = time.monotonic()
        game = new_game(rules, players=header["players"], seed=header["seed"],
                        setup={"options": header.get("options", {})})

        def keep(seat: int | None, action: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
            self.story.tell(events)
            label = plain(action_text(rules, action, docs=False)) if action is not None else "set-up"
            if len(self.frames) % CHECKPOINT == 0:
                self.checkpoints.append(game.clone(events=False))
            self.frames.append(Frame(seat, label, len(self.story.lines), len(game.log or [])))
        LogCheck(body).replay(game, keep)
        self.history = list(game.history)
        self.events = game.log or []

    def position(self, index: int) -> Game:
        """The game after step `index`, with its log up to there."""
        game = self.checkpoints[index // CHECKPOINT].clone(events=False)
        for action_id in self.history[len(game.history):index]:
            game.apply_id(action_id)
        game.log = self.events[:self.frames[index].logged]
        return game

    def view(self, index: int, seat: int | None) -> dict[str, Any]:
        self.touched = time.monotonic()
        if not 0 <= index < len(self.frames):
            raise Refused(f"a step of this replay is 0 to {len(self.frames) - 1}", 404)
        if seat is not None and not 0 <= seat < self.header["players"]:
            raise Refused(f"a seat of this game is 0 to {self.header['players'] - 1}", 404)
        frame = self.frames[index]
        previous = self.frames[index - 1].told if index else 0
        view = game_view(self.position(index), seat, self.agents, actions=False)
        view.update(latest(self.story.lines, frame.told))
        own = frame.seat is None or frame.seat == seat        # another seat's action may be a secret one
        view["replay"] = {"step": index, "steps": len(self.frames), "seat": frame.seat,
                          "action": frame.action if own else None,
                          "new_lines": frame.told - previous, "seed": self.header["seed"]}
        return view
