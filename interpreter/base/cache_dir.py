"""Where amunre keeps what it may compute again: `$AMUNRE_CACHE_DIR`, else
`$XDG_CACHE_HOME/amunre`, else `~/.cache/amunre`; none when `AMUNRE_NO_CACHE` is set."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path


def cache_dir() -> Path | None:
    if os.environ.get("AMUNRE_NO_CACHE"):
        return None
    explicit = os.environ.get("AMUNRE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "amunre"


def folder_of_this_process(prefix: str) -> Path:
    """A temporary folder, removed at exit by the process that made it: a forked child (a pool's
    worker) shares it with its parent, so only the maker may remove it."""
    folder, maker = Path(tempfile.mkdtemp(prefix=prefix)), os.getpid()

    def remove() -> None:
        if os.getpid() == maker:
            shutil.rmtree(folder, ignore_errors=True)
    atexit.register(remove)
    return folder
