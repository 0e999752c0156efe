"""The `serve` command: check the rules files named, then run the web app under uvicorn.

Starlette and uvicorn come with the `serve` extra (`pip install 'amunre[serve]'`); they are
imported only when the command runs, so the rest of the command line needs neither.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ...interpreter.base.errors import AmunreError
from ...interpreter.base.reading import FileRefused, read_text
from ..conventions import fail, load_or_exit
from ..play import resolve_rules


def serve_command(
    rules_paths: Annotated[list[str] | None, typer.Argument(
        metavar="RULES", help="Rules files (YAML) to offer besides the shipped ones; the first is the "
        "start page's first choice (else a shipped edition).", show_default=False)] = None,
    host: Annotated[str, typer.Option(
        "--host", metavar="ADDRESS", help="The address to listen on. Anything but this machine's own "
        "(127.0.0.1) lets other machines in: a warning says so.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", metavar="N", min=1, max=65535, help="The port to listen on.")] = 8000,
    pace: Annotated[float, typer.Option(
        "--pace", metavar="SECONDS", min=0, max=60,
        help="Pause between two bots' moves, so that they can be followed.")] = 0.5,
    max_games: Annotated[int, typer.Option(
        "--max-games", metavar="N", min=1, max=1000, help="Games held at once; a new one beyond is refused.")] = 16,
    replay: Annotated[Path | None, typer.Option(
        "--replay", metavar="LOG", help="A game log (`amunre run --log`) to step through: its address is printed. "
        "The start page also opens logs.", dir_okay=False, show_default=False)] = None,
    idle: Annotated[int, typer.Option(
        "--idle", metavar="MINUTES", min=1, max=10080, help="A game or replay nobody has looked at for this "
        "long is dropped.")] = 60,
) -> None:
    """Play in the browser: start a game against bots (or friends, each with a link of their own,
    printed with a QR code when the server listens beyond this machine, e.g. --host 0.0.0.0),
    watch the bots' moves as they are told, or step through a game's log."""
    try:
        import uvicorn

        from .app import LOOPBACK_HOSTS, Limits, Server, create_app
        from .catalog import Catalog
        from .links import http_address, is_loopback, public_base
    except ImportError as error:
        raise fail(f"amunre serve needs its extra ({error.name} is missing): pip install 'amunre[serve]' "
                   "(in a checkout: pip install -e '.[serve]')") from None
    paths = [resolve_rules(p) for p in rules_paths or []]
    for path in paths:
        load_or_exit(path)                          # a broken file is reported now, pointing into it
    if not is_loopback(host):
        print(f"warning: listening on {host}: other machines can reach this server; a game is guarded only "
              "by its links", file=sys.stderr)
    hosts = (*LOOPBACK_HOSTS, host) if is_loopback(host) else ()      # elsewhere the names are unknown
    public = public_base(host, port)
    server = Server(Catalog(paths), Limits(games=max_games, idle=idle * 60.0, pace=pace), hosts=hosts, public=public,
                    told=lambda text: print(text, end="", flush=True))
    address = public or http_address(host, port)
    if replay is not None:
        print(f"replay of {replay}: {address}/replay/{_replay(server, replay)}")
    print(f"amunre serve: open {address}/ in a browser (Ctrl-C stops it)", flush=True)
    config = uvicorn.Config(create_app(server), host=host, port=port, log_level="warning",
                            timeout_graceful_shutdown=1, limit_concurrency=200)
    uvicorn.Server(config).run()


def _replay(server: Any, path: Path) -> str:
    """The token of a replay of the log at `path`; the command exits with the reason if it is
    not a log that replays."""
    try:
        return str(server.open_replay(read_text(path, server.limits.log_bytes)))
    except FileRefused as error:
        raise fail(f"cannot read log file '{path}': {error.problem}") from None
    except AmunreError as error:
        raise fail(f"{path}: {error}") from None

