"""The CLI starts without the compiled engine: every command imports the agents' list, and
the bots' compiled lookahead (numba and the machine's parts, about a second and 120 MB) is
loaded only where a bot is made. A command that makes none (`--help`, `check`, `fmt`, `diff`,
`explain`) starts in about half the time it took when the agents' modules loaded it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = "sorted(m for m in sys.modules if m == 'numba' or m.startswith('amunre.interpreter.compiled'))"


def loaded_after(code: str) -> str:
    """What of the compiled engine a fresh Python has loaded after running `code`."""
    run = subprocess.run([sys.executable, "-c", f"import sys\n{code}\nprint({HEAVY})"], capture_output=True,
                         text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip().splitlines()[-1]


def test_the_cli_and_a_check_load_no_compiled_engine() -> None:
    code = ("from amunre.cli.app import main\n"
            "sys.argv = ['amunre', 'check', 'rules/knizia2016.yaml']\ntry:\n    main()\n"
            "except SystemExit as end:\n    assert not end.code\n")
    assert loaded_after(code) == "[]"


def test_making_a_bot_loads_it() -> None:
    """The probe above sees the engine where it is loaded: a greedy bot's lookahead needs it."""
    loaded = loaded_after("from amunre.tools.agents import make_agent\nmake_agent('greedy')")
    assert "'numba'" in loaded and "'amunre.interpreter.compiled'" in loaded
