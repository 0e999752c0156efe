"""The long fuzz run, outside CI's default run: the fuzzers of tests/test_fuzz.py with every
number of examples multiplied, and hypothesis's statistics (inputs tried per fuzzer) printed.

    python tests/fuzz/run.py            # scale 50: about 150,000 inputs, 20-30 minutes
    python tests/fuzz/run.py --scale 5  # a quicker look

A failure prints the smallest input hypothesis found; add it to tests/hostile/ with the error
it must give (docs/limits.md), then fix it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import pytest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=50, help="multiply every fuzzer's examples (default 50)")
    args = parser.parse_args()
    if args.scale < 1:
        parser.error("--scale must be at least 1")
    os.environ["AMUNRE_FUZZ_SCALE"] = str(args.scale)
    suite = Path(__file__).resolve().parent.parent / "test_fuzz.py"
    return pytest.main([str(suite), "-q", "-p", "no:cacheprovider", "--hypothesis-show-statistics"])


if __name__ == "__main__":
    sys.exit(main())
