"""The web app of `amunre serve`: pages, a JSON API and event streams, on Starlette.

Routes (every game is reached through a token, never by a number one could guess):

    GET  /                     the start page: pick rules, players, options, agents; open a replay
    GET  /seat/TOKEN           a human seat's page;   GET /api/seat/TOKEN        its view (JSON)
    POST /api/seat/TOKEN/act   {"id": N}: the seat's action, by the engine's action id
    POST /api/seat/TOKEN/bot   {"agent": SPEC}: the seat played by that bot from now on
    GET  /watch/TOKEN          a watcher's page (the public view); GET /api/watch/TOKEN its view
    GET  /api/{seat,watch}/TOKEN/log  the game's log once it is over (`amunre run --log`'s format)
    GET  /replay/TOKEN         a replay;   GET /api/replay/TOKEN?step=K&seat=S  a step's view
    GET  /api/{seat,watch}/TOKEN/stream   server-sent events: the view's version (ends with the game)
    GET  /qr/seat/TOKEN        the seat's link as a QR code (SVG), for a friend's phone
    GET  /api/setup            the rules files, their options and players, the agents
    POST /api/games            start a game;   POST /api/replays  a log's text, to step through

What a request may do is bounded: the rules files are those named on the command line and the
shipped ones, chosen by name (no request names a path); bodies, games and replays are limited
and idle ones dropped; every error is JSON (under /api/) or a short page, never a traceback.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...interpreter.base.errors import AmunreError
from ...interpreter.base.limits import MAX_PLAYERS
from ...tools.agents import AGENTS, check_spec
from ...tools.rulebook_render import style_hash
from .catalog import Catalog
from .links import qr_svg, seat_links
from .refused import Refused
from .tables import HUMAN, Replay, Table

log = logging.getLogger("amunre.serve")

SMALL_BODY = 16_384                 # a start form or an action
MOST_EFFORT = 2000                  # the largest whole-number option of a bot a request may set
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
GONE = "no game has this link (it may have ended and been dropped)"
STREAM_POLL = 0.15                  # seconds between two looks at a view's version
KEEP_ALIVE = 15.0                   # seconds between two comments on a quiet stream
RULEBOOK_POLICY = (f"default-src 'none'; style-src 'sha256-{style_hash()}'; base-uri 'none'; "
                   "frame-ancestors 'none'; form-action 'none'")
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    "referrer-policy": "no-referrer",          # a page's address holds its seat's token
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
}


@dataclass
class Limits:
    """How much one server holds: what a shared machine can afford, and no request can raise."""
    games: int = 16                 # live games at once
    replays: int = 8
    idle: float = 3600.0            # seconds after its last request that a game or replay is dropped
    log_bytes: int = 20_000_000     # the largest log a replay reads
    pace: float = 0.5               # seconds between two bots' moves


@dataclass
class Server:
    """The server's state: its rules, its games and replays by token, its limits. Requests are
    served on several threads: every look at the games or replays held is made under `lock`."""
    catalog: Catalog
    limits: Limits = field(default_factory=Limits)
    tables: dict[str, tuple[Table, int | None]] = field(default_factory=dict)   # a token -> game, seat (None: watch)
    replays: dict[str, Replay] = field(default_factory=dict)                    # by token
    lock: threading.Lock = field(default_factory=threading.Lock)
    hosts: tuple[str, ...] = LOOPBACK_HOSTS          # the Host names accepted; () takes any
    public: str | None = None       # the address other machines reach it by (links.public_base); None: this one only
    told: Callable[[str], None] | None = None        # the terminal, told each new game's seat links (public only)

    def seat(self, token: str) -> tuple[Table, int]:
        found = self._table(token)
        if found[1] is None:
            raise Refused(GONE, 404)
        return found[0], found[1]

    def watched(self, token: str) -> Table:
        table, seat = self._table(token)
        if seat is not None:
            raise Refused(GONE, 404)
        return table

    def _table(self, token: str) -> tuple[Table, int | None]:
        with self.lock:
            found = self.tables.get(token)
        if found is None:
            raise Refused(GONE, 404)
        return found

    def replay(self, token: str) -> Replay:
        with self.lock:
            replay = self.replays.get(token)
        if replay is None:
            raise Refused("no replay has this link (it may have been dropped)", 404)
        return replay

    def games(self) -> list[Table]:
        """The games held, each once, oldest first."""
        with self.lock:
            return self._games()

    def _games(self) -> list[Table]:
        return list({id(table): table for table, _ in self.tables.values()}.values())

    def _drop(self, table: Table) -> None:
        table.closed = True
        for token in [k for k, (held, _) in self.tables.items() if held is table]:
            del self.tables[token]

    def _make_room(self) -> None:
        """Drop what has been idle too long; at the limit, the game over longest ago goes too."""
        now = time.monotonic()
        for table in [g for g in self._games() if now - g.touched > self.limits.idle]:
            self._drop(table)
        for key, replay in list(self.replays.items()):
            if now - replay.touched > self.limits.idle:
                del self.replays[key]
        games = self._games()
        over = sorted((g for g in games if g.game.over), key=lambda g: g.touched)
        if len(games) >= self.limits.games and over:
            self._drop(over[0])

    def start(self, request: dict[str, Any]) -> Table:
        """A new game from the start form; Refused saying which field is wrong."""
        rules = self.catalog.rules(_text(request, "rules"))
        agents = request.get("agents")
        if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents) \
                or not 1 <= len(agents) <= MAX_PLAYERS:
            raise Refused("agents: a list of one agent name per seat")
        agents = [_agent(a.strip().lower()) for a in agents]
        seed = request.get("seed")
        if seed is None or seed == "":
            seed = secrets.randbelow(2**63)          # a seed tells the deck: too many to try them all
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise Refused("seed: a whole number from 0, or nothing for a fresh one")
        hints = request.get("hints", False)
        if type(hints) is not bool:
            raise Refused("hints: true or false")
        options = request.get("options") or {}
        if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
            raise Refused("options: a mapping of option names to values")
        unknown = sorted(set(options) - set(rules.options))
        if unknown:
            raise Refused(f"options: {rules.title or rules.id} has no option {', '.join(unknown)}")
        try:
            table = Table(rules, len(agents), seed, agents, dict(options), pace=self.limits.pace,
                          rulebook=f"/rules/{_text(request, 'rules')}", hints=hints)
        except AmunreError as error:
            raise Refused(str(error)) from None
        with self.lock:
            self._make_room()
            if len(self._games()) >= self.limits.games:
                raise Refused(f"this server holds {self.limits.games} games already; finish one or wait", 503)
            self.tables.update({token: (table, seat) for token, seat in table.tokens.items()})
            self.tables[table.watch] = (table, None)
        if self.public is not None and self.told is not None and table.tokens:
            self.told(seat_links(self.public, sorted((seat, f"/seat/{token}") for token, seat in table.tokens.items())))
        table.wake_bots()
        return table

    def base(self, request: Request) -> str:
        """Where links to this server point: its public address, else the one the request used."""
        return self.public if self.public is not None else str(request.base_url).rstrip("/")

    def open_replay(self, text: str) -> str:
        try:
            replay = Replay(text, self.catalog.logged)
        except AmunreError as error:
            raise Refused(f"this log cannot be replayed: {error}") from None
        token = secrets.token_urlsafe(18)
        with self.lock:
            self._make_room()
            while len(self.replays) >= self.limits.replays:
                oldest = min(self.replays, key=lambda k: self.replays[k].touched)
                del self.replays[oldest]
            self.replays[token] = replay
        return token


def _text(request: dict[str, Any], key: str) -> str:
    value = request.get(key)
    if not isinstance(value, str) or not value:
        raise Refused(f"{key}: a name is needed")
    return value


def _agent(spec: str) -> str:
    """An agent spec checked, its whole-number options (time, iterations, samples) at most
    MOST_EFFORT: a request may not set a bot thinking for hours."""
    if spec == HUMAN:
        return spec
    try:
        _, settings = check_spec(spec)
    except ValueError as error:
        raise Refused(f"agents: {error}") from None
    heavy = sorted(k for k, v in settings.items() if type(v) is int and v > MOST_EFFORT)
    if heavy:
        raise Refused(f"agents: this server lets a bot's {', '.join(heavy)} be at most {MOST_EFFORT}")
    return spec


# ---- the HTTP side ------------------------------------------------------------------------------

def create_app(server: Server) -> Starlette:
    static = files("amunre.cli.serve").joinpath("static")
    api = _Api(server, static.joinpath("page.html").read_text(encoding="utf-8"))
    routes = [
        Route("/", api.shell),
        Route("/rules/{name:path}", api.rulebook),
        Route("/seat/{token}", api.shell), Route("/watch/{token}", api.shell), Route("/replay/{token}", api.shell),
        Route("/api/setup", api.setup),
        Route("/api/games", api.start, methods=["POST"]),
        Route("/api/seat/{token}", api.seat_view), Route("/qr/seat/{token}", api.seat_qr),
        Route("/api/seat/{token}/act", api.act, methods=["POST"]),
        Route("/api/seat/{token}/bot", api.hand_over, methods=["POST"]),
        Route("/api/seat/{token}/hint", api.hint),
        Route("/api/watch/{token}", api.watch_view),
        Route("/api/replays", api.replay_open, methods=["POST"]),
        Route("/api/replay/{token}", api.replay_view),
        *[Route(f"/api/{kind}/{{token}}/stream", api.stream) for kind in ("seat", "watch")],
        *[Route(f"/api/{kind}/{{token}}/log", api.game_log) for kind in ("seat", "watch")],
        Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
    ]
    handlers = {Refused: _refused, HTTPException: _http_error, Exception: _failure}
    middleware = [Middleware(_Headers)]
    if server.hosts:               # on this machine only: refuse other host names (DNS rebinding)
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(server.hosts)))
    return Starlette(routes=routes, exception_handlers=handlers, middleware=middleware)


class _Api:
    """The endpoints, over one server's state. Engine work runs in worker threads: a view or an
    action takes milliseconds, but the event loop must keep every page's stream flowing."""

    def __init__(self, server: Server, page: str) -> None:
        self.server, self.page = server, page

    def shell(self, request: Request) -> Response:
        return HTMLResponse(self.page)

    async def rulebook(self, request: Request) -> Response:
        """A rules file's rulebook: one page, its own style allowed by its hash, nothing else."""
        page = await anyio.to_thread.run_sync(self.server.catalog.rulebook, request.path_params["name"])
        return HTMLResponse(page, headers={"content-security-policy": RULEBOOK_POLICY})

    async def setup(self, request: Request) -> Response:
        catalog = self.server.catalog
        listing = await anyio.to_thread.run_sync(catalog.listing)      # the first call loads every file
        return JSONResponse({"rules": listing, "default": catalog.default,
                             "agents": [HUMAN, *AGENTS], "max_players": MAX_PLAYERS})

    async def start(self, request: Request) -> Response:
        body = await _json_body(request, SMALL_BODY)
        table = await anyio.to_thread.run_sync(self.server.start, body)
        base = self.server.base(request)
        seats = [{"seat": s, "agent": spec, "url": f"/seat/{token}" if (token := _token_of(table, s)) else None,
                  "link": f"{base}/seat/{token}" if token else None, "qr": f"/qr/seat/{token}" if token else None}
                 for s, spec in enumerate(table.agents)]
        return JSONResponse({"watch": f"/watch/{table.watch}", "seats": seats}, status_code=201)

    async def seat_qr(self, request: Request) -> Response:
        token = request.path_params["token"]
        self.server.seat(token)                             # a seat's token, or 404
        return Response(qr_svg(f"{self.server.base(request)}/seat/{token}"), media_type="image/svg+xml")

    async def seat_view(self, request: Request) -> Response:
        table, seat = self.server.seat(request.path_params["token"])
        return JSONResponse(await anyio.to_thread.run_sync(table.view, seat))

    async def act(self, request: Request) -> Response:
        table, seat = self.server.seat(request.path_params["token"])
        body = await _json_body(request, SMALL_BODY)
        await anyio.to_thread.run_sync(table.act, seat, body.get("id"), body.get("times", 1))
        return JSONResponse(await anyio.to_thread.run_sync(table.view, seat))

    async def hand_over(self, request: Request) -> Response:
        table, seat = self.server.seat(request.path_params["token"])
        body = await _json_body(request, SMALL_BODY)
        spec = body.get("agent")
        if not isinstance(spec, str) or _agent(spec.strip().lower()) == HUMAN:
            raise Refused("agent: the name of a bot (amunre agents), to play the seat from now on")
        await anyio.to_thread.run_sync(table.hand_over, seat, spec.strip().lower())
        return JSONResponse(await anyio.to_thread.run_sync(table.view, seat))

    async def hint(self, request: Request) -> Response:
        table, seat = self.server.seat(request.path_params["token"])
        spec = request.query_params.get("agent", "greedy").strip().lower()
        if _agent(spec) == HUMAN:
            raise Refused("agent: the name of a bot that ranks moves (greedy, heuristic or ismcts)")
        return JSONResponse(await anyio.to_thread.run_sync(table.hint, seat, spec))

    async def watch_view(self, request: Request) -> Response:
        table = self.server.watched(request.path_params["token"])
        return JSONResponse(await anyio.to_thread.run_sync(table.view, None))

    async def game_log(self, request: Request) -> Response:
        table = self._target(request)
        return PlainTextResponse(await anyio.to_thread.run_sync(table.log_text), media_type="application/x-ndjson",
                                 headers={"content-disposition": 'attachment; filename="amunre-game.jsonl"'})

    async def replay_open(self, request: Request) -> Response:
        _content_type(request, ("application/x-ndjson", "application/json"))
        text = (await _body(request, self.server.limits.log_bytes)).decode("utf-8", errors="replace")
        token = await anyio.to_thread.run_sync(self.server.open_replay, text)
        return JSONResponse({"url": f"/replay/{token}"}, status_code=201)

    async def replay_view(self, request: Request) -> Response:
        replay = self.server.replay(request.path_params["token"])
        step = _whole(request.query_params.get("step", "0"), "step")
        seat_text = request.query_params.get("seat", "")
        seat = None if seat_text in ("", "public") else _whole(seat_text, "seat")
        return JSONResponse(await anyio.to_thread.run_sync(replay.view, step, seat))

    async def stream(self, request: Request) -> Response:
        return StreamingResponse(_versions(request, self._target(request)), media_type="text/event-stream")

    def _target(self, request: Request) -> Table:
        """The game of a /api/seat/TOKEN/... or /api/watch/TOKEN/... address."""
        kind, token = request.url.path.split("/")[2], request.path_params["token"]
        return self.server.seat(token)[0] if kind == "seat" else self.server.watched(token)


def _token_of(table: Table, seat: int) -> str | None:
    return next((token for token, s in table.tokens.items() if s == seat), None)


async def _versions(request: Request, target: Any) -> AsyncIterator[str]:
    """`data: VERSION` each time the view changes (and a comment now and then, so that proxies
    and the browser keep a quiet stream open); ends when the page goes."""
    last, quiet = None, 0.0
    while not await request.is_disconnected():
        if target.closed:                             # the game was dropped: the page is told, once
            yield "event: gone\ndata: dropped\n\n"
            return
        over = target.game.over                       # read before the version: once over, that is the last
        version = target.version
        if version != last:
            last, quiet = version, 0.0
            yield f"data: {version}\n\n"
            if over:                                  # nothing more will happen: free the connection
                return
        elif quiet >= KEEP_ALIVE:
            quiet = 0.0
            target.touched = time.monotonic()         # a page is open on it: not idle
            yield ": still here\n\n"
        await asyncio.sleep(STREAM_POLL)
        quiet += STREAM_POLL


def _whole(text: str, name: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        raise Refused(f"{name}: a whole number from 0", 404)
    return int(text)


async def _body(request: Request, limit: int) -> bytes:
    """The request's body, refused past `limit` bytes (declared or not)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise Refused(f"a request body here is at most {limit:,} bytes", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refused(f"a request body here is at most {limit:,} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


def _content_type(request: Request, accepted: tuple[str, ...]) -> None:
    """A POST must say its type: a page of another site cannot send these without the browser
    asking this server first (which it never allows), so it cannot start games or act here."""
    given = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if given not in accepted:
        raise Refused(f"the request body must be sent as {' or '.join(accepted)}", 415)


async def _json_body(request: Request, limit: int) -> dict[str, Any]:
    _content_type(request, ("application/json",))
    try:
        data = json.loads(await _body(request, limit))
    except (ValueError, RecursionError):
        raise Refused("the request body must be JSON") from None
    if not isinstance(data, dict):
        raise Refused("the request body must be a JSON object")
    return data


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def _error(request: Request, message: str, status: int) -> Response:
    if _wants_json(request):
        return JSONResponse({"error": message}, status_code=status)
    body = (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>amunre: {status}</title>"
            f"<link rel=stylesheet href=/static/board.css></head><body><main class=error>"
            f"<h1>{status}</h1><p>{html.escape(message)}</p><p><a href=/>Start a game</a></p></main></body></html>")
    return HTMLResponse(body, status_code=status)


async def _refused(request: Request, error: Exception) -> Response:
    assert isinstance(error, Refused)
    return _error(request, str(error), error.status)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    words = {404: "nothing here", 405: "this address does not take that method"}
    return _error(request, words.get(error.status_code, str(error.detail)), error.status_code)


async def _failure(request: Request, error: Exception) -> Response:
    log.exception("request %s %s failed", request.method, request.url.path)
    return _error(request, "the server failed on this request; its console says why", 500)


class _Headers:
    """Security headers on every response (pure ASGI, so event streams are not buffered)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items() if k.encode() not in present]
                message = {**message, "headers": headers}
            await send(message)
        await self.app(scope, receive, with_headers)

