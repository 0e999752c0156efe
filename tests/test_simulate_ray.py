"""The Ray backend (issue 8.4) on a local Ray with 2 CPUs, started once for the module: the
same seed gives the same report as one process. Ray is in the `test` extra, so this runs in CI;
without Ray installed the module is skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from amunre.cli.app import app
from amunre.tools.simulate import RuleSet, compare, simulate
from conftest import RULES_PATH

ray = pytest.importorskip("ray")

RULES = str(RULES_PATH)
RANDOM3 = ["random"] * 3


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def without_run(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "run"}


def test_ray_gives_the_report_of_one_process() -> None:
    here = simulate(RULES, 30, agents=RANDOM3, seed=6, jobs=1)
    on_ray = simulate(RULES, 30, agents=RANDOM3, seed=6, backend="ray")
    assert on_ray.outcome.backend == "ray" and on_ray.outcome.jobs == 2
    assert without_run(on_ray.report) == without_run(here.report)


def test_a_comparison_on_ray_pairs_the_same_games() -> None:
    b = RuleSet(RULES, options={"temple_scoring": "every_harvest"})
    here = compare(RULES, b, 12, agents=RANDOM3, seed=2, jobs=1)
    on_ray = compare(RULES, b, 12, agents=RANDOM3, seed=2, backend="ray")
    assert without_run(on_ray.report) == without_run(here.report)


def test_the_command_line_runs_on_ray(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = CliRunner().invoke(app, ["simulate", RULES, "-n", "8", "-a", "random,random,random", "--seed", "6",
                                      "--backend", "ray", "-q", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "Ray CPUs" in result.output
    assert json.loads(out.read_text())["run"]["backend"] == "ray"
