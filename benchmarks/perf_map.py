"""Names for the compiled engine's machine code in a `perf` profile.

numba's functions run from memory, so `perf report` shows their samples as bare addresses.
perf reads names for such code from /tmp/perf-<pid>.map (address, size, name a line). numba
keeps no copy of the object code it loads from its cache, so `install()` keeps one as each
part is loaded; `write()` then reads each object's symbols (binutils' `nm`) and places them at
the addresses the loaded code has, found through the part's one global symbol.

    perf record -F 4000 -o perf.data python benchmarks/bench_vector_env.py --sizes 1024 --perf-map
    perf report -i perf.data --no-children --sort symbol

It names the code loaded from numba's cache, not code compiled in the same run: after a change
to the engine, run the benchmark once (it compiles and keeps the code), then profile.

A profile is a measurement tool, not part of the engine: this reaches into numba's internals
(numba 0.6x's CodeLibrary), and says so when they have moved.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from typing import Any

_loaded: list[tuple[Any, bytes]] = []


def install() -> None:
    """Keep each object numba loads from here on (call it before the machine code is loaded)."""
    from numba.core import codegen

    keep = codegen.CodeLibrary._set_compiled_object

    def kept(library: Any, value: Any) -> Any:
        _loaded.append((library, bytes(value)))
        return keep(library, value)

    codegen.CodeLibrary._set_compiled_object = kept


def _symbols(code: bytes) -> list[tuple[int, int, str, str]]:
    """(offset, size, name, nm's kind) of each function in an object file."""
    with tempfile.NamedTemporaryFile(suffix=".o", delete=False) as file:
        file.write(code)
    try:
        listed = subprocess.run(["nm", "-S", "--defined-only", file.name], capture_output=True, text=True,
                                check=True).stdout
    finally:
        os.unlink(file.name)
    found = []
    for line in listed.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTwW":
            found.append((int(fields[0], 16), int(fields[1], 16), fields[3], fields[2]))
    return found


def write() -> str:
    """Write this process's perf map of every object kept so far; its path."""
    if shutil.which("nm") is None:
        raise SystemExit("perf_map needs binutils' nm")
    if not _loaded:
        raise SystemExit("perf_map kept no machine code: call install() before the engine is loaded "
                         "(or numba's internals have moved)")
    placed: dict[int, tuple[int, str]] = {}
    for library, code in _loaded:
        symbols = _symbols(code)
        # a global symbol's address places the whole object (weak ones may resolve to another copy)
        shift = next((library._codegen._engine.get_function_address(name) - offset
                      for offset, _, name, kind in symbols if kind == "T"), None)
        if shift is None:
            continue
        for offset, size, name, _ in symbols:
            placed[offset + shift] = (size, name)
    path = f"/tmp/perf-{os.getpid()}.map"
    with open(path, "w", encoding="utf-8") as out:
        for address, (size, name) in sorted(placed.items()):
            out.write(f"{address:x} {size:x} {name}\n")
    return path
