"""Compile parts of the compiled engine into the shared cache, as a second process does for
`hubs.prepare` while the first compiles the rest: `python -m amunre.interpreter.compiled.warm
run advance "hub 3" ...`."""

from __future__ import annotations

import sys

from . import hubs


def main(names: list[str]) -> int:
    hubs.compile_parts(names)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
