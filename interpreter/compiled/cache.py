"""Where the compiled engine's machine code is kept between processes, and why it is never stale.

numba keeps a function's machine code beside its source, keyed by that one file's time stamp;
but a compiled part holds the code of every function it calls, from other files too, and a
copy from an older amunre would be used though those files changed. So every function of
this package is kept in one folder of amunre's cache directory named by a digest of all the
package's sources, the versions of numba and Python and numba's settings that change the code
(bounds checks, optimisation): any change of any of them is a new
folder, compiled anew, while concurrent processes (`--jobs`, Ray workers) share a folder
(numba writes each file whole, then renames it into place). With AMUNRE_NO_CACHE set, the
code is kept in a temporary folder of this process only, removed when the process exits.
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

import numba
from numba.core import caching

from ..base.cache_dir import cache_dir, folder_of_this_process

PACKAGE = Path(__file__).resolve().parent


@cache
def digest() -> str:
    """A digest of the package's sources and of the numba and Python that compile them."""
    hashed = hashlib.sha256()
    for path in sorted(PACKAGE.glob("*.py")):
        hashed.update(path.name.encode() + b"\0" + path.read_bytes())
    settings = [getattr(numba.config, name, None) for name in ("BOUNDSCHECK", "OPT")]
    hashed.update(f"{numba.__version__} {sys.version} {settings}".encode())
    return hashed.hexdigest()[:16]


@cache
def machine_code_dir() -> Path:
    """The folder this package's machine code is kept in (made on first use): under
    $AMUNRE_COMPILED_CACHE_DIR if set (the tests' workers share one), else amunre's cache."""
    explicit = os.environ.get("AMUNRE_COMPILED_CACHE_DIR")
    base = Path(explicit) if explicit else cache_dir()
    folder = (base / "compiled" / digest()) if base is not None else folder_of_this_process("amunre-")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class _Locator(caching.UserProvidedCacheLocator):
    """numba's locator for this package's functions: machine_code_dir(), stamped by digest()."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(machine_code_dir())

    def get_source_stamp(self) -> Any:
        return digest()

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if not os.path.realpath(py_file).startswith(str(PACKAGE) + os.sep):
            return None
        try:
            locator = cls(py_func, py_file)
            locator.ensure_cache_path()
        except OSError:
            return None
        return locator


def register() -> None:
    """Let numba keep this package's functions where _Locator says (once per process)."""
    if _Locator not in caching.CacheImpl._locator_classes:
        caching.CacheImpl._locator_classes.insert(0, _Locator)


register()
