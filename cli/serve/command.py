"""The `serve` command: check the rules files named, then run the web app under uvicorn.

Starlette and uvicorn come with the `serve` extra (`pip install 'amunre[serve]'`); they are
imported only when the command runs, so the rest of the command line needs neither.
"""

from __future__ import annotations

import ipaddress
import sys
from typing import Annotated

import typer

from ..conventions import fail, load_or_exit
from ..play import resolve_rules

LOOPBACK_NAMES = ("localhost",)


def serve_command(
    rules_paths: Annotated[list[str] | None, typer.Argument(
        metavar="[RULES]...", help="Rules files (YAML) to offer besides the shipped ones; the first is the "
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
    idle: Annotated[int, typer.Option(
        "--idle", metavar="MINUTES", min=1, max=10080, help="A game or replay nobody has looked at for this "
        "long is dropped.")] = 60,
) -> None:
    """Play in the browser: start a game against bots (or friends, each with a link of their own),
    watch the bots' moves as they are told, or step through a game's log."""
    try:
        import uvicorn

        from .app import Limits, Server, create_app
        from .catalog import Catalog
    except ImportError as error:
        raise fail(f"amunre serve needs its extra ({error.name} is missing): pip install 'amunre[serve]' "
                   "(in a checkout: pip install -e '.[serve]')") from None
    paths = [resolve_rules(p) for p in rules_paths or []]
    for path in paths:
        load_or_exit(path)                          # a broken file is reported now, pointing into it
    if not _is_loopback(host):
        print(f"warning: listening on {host}: other machines can reach this server; a game is guarded only "
              "by its links", file=sys.stderr)
    server = Server(Catalog(paths), Limits(games=max_games, idle=idle * 60.0, pace=pace))
    shown = f"[{host}]" if ":" in host else host
    print(f"amunre serve: open http://{shown}:{port}/ in a browser (Ctrl-C stops it)", flush=True)
    config = uvicorn.Config(create_app(server), host=host, port=port, log_level="warning",
                            timeout_graceful_shutdown=1, limit_concurrency=200)
    uvicorn.Server(config).run()


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
