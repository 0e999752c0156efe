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


def loaded_after(code: str, heavy: str = HEAVY) -> str:
    """What of the compiled engine (or of `heavy`'s list) a fresh Python has loaded after running `code`."""
    run = subprocess.run([sys.executable, "-c", f"import sys\n{code}\nprint({heavy})"], capture_output=True,
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


def test_the_help_loads_no_study_runner_numpy_or_schema_checker() -> None:
    """`amunre --help` and every tab completion import the whole CLI: the studies' runner (numpy
    with it) and the JSON Schema's checker wait for a command that uses them (1.3 -> 0.9 s)."""
    code = ("from amunre.cli.app import main\nsys.argv = ['amunre', '--help']\ntry:\n    main()\n"
            "except SystemExit as end:\n    assert not end.code\n")
    study = "sorted(m for m in ('numpy', 'jsonschema', 'amunre.tools.simulate.runner') if m in sys.modules)"
    assert loaded_after(code, study) == "[]"
    loaded = loaded_after("from amunre.tools.simulate import simulate", study)     # the probe sees them
    assert "'amunre.tools.simulate.runner'" in loaded and "'numpy'" in loaded


def test_the_study_packages_names_are_its_functions_however_its_modules_load() -> None:
    """tools/simulate gives each name from its module when first asked for: every name listed
    resolves, and `arena` is the study (a module of that name once took its place)."""
    import amunre.tools.simulate as package
    from amunre.tools.simulate import arena, studies
    assert arena is studies.arena and callable(arena)
    assert all(getattr(package, name) is not None for name in package.__all__)
