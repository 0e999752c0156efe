"""Where amunre keeps what it may compute again: `$AMUNRE_CACHE_DIR`, else
`$XDG_CACHE_HOME/amunre`, else `~/.cache/amunre`; none when `AMUNRE_NO_CACHE` is set."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path | None:
    if os.environ.get("AMUNRE_NO_CACHE"):
        return None
    explicit = os.environ.get("AMUNRE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "amunre"
