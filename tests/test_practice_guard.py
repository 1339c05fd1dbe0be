"""The browser's runner (``_harness.Guard``) in CPython: tricks never pass, runs start clean.

The worker in the browser makes one ``Guard`` from a private copy of the harness, then
calls ``Guard.run`` for every run; the browser tests do the same in Pyodide. Here each
sequence of runs happens in a fresh CPython process (a trick that escaped the guard
must not break the test session), driven as the worker drives it. Expected outcomes
are written by hand: the tricked runs name what they changed, the runs after them
report what an untouched interpreter reports for the same code (a second, fresh
process is the oracle).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from site_build import practice

ROOT = Path(__file__).resolve().parent.parent
PRACTICE = ROOT / "snippets" / "practice"
STEPS = {p.name: p for p in PRACTICE.glob("[a-z]*/[0-9][0-9]_*") if p.is_dir()}

DRIVER = r"""
import builtins, json, sys, types
harness, checks, runs = json.loads(sys.stdin.read())
module = types.ModuleType("_harness_guard")
module.__dict__["__builtins__"] = dict(builtins.__dict__)
sys.modules["_harness_guard"] = module
exec(compile(harness, "/practice/_harness.py", "exec"), module.__dict__)
del sys.modules["_harness_guard"]
guard = module.Guard(harness, checks)
run = guard.run
out = []
for step, source in runs:
    report = json.loads(run(step, source))
    report["_after"] = {
        "print is print": builtins.print is module.__builtins__["print"],
        "dumps": json.dumps is module.json.dumps,
        "modules": len(sys.modules),
    }
    out.append(report)
sys.__stdout__.write(json.dumps(out))
"""

WRONG = "def dot(a, b):\n    return 0\n"


def drive(*runs: tuple[str, str]) -> list[dict[str, Any]]:
    """Run ``(step, source)`` pairs through one Guard in a fresh process, in order."""
    # As the browser receives them: published, the worked example's values written in.
    checks = {
        step.id: step.checks
        for lesson in sorted({folder.parent for folder in STEPS.values()})
        for step in practice.read_steps(lesson)
    }
    harness = (PRACTICE / "_harness.py").read_text(encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", DRIVER],
        input=json.dumps([harness, checks, list(runs)]),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    reports: list[dict[str, Any]] = json.loads(done.stdout)
    return reports


def solution(step: str) -> str:
    return (STEPS[step] / "solution.py").read_text(encoding="utf-8")


def test_every_solution_passes_through_the_guard_and_names_the_manifests_checks() -> None:
    reports = drive(*((step, solution(step)) for step in sorted(STEPS)))
    harness = practice.load_harness(PRACTICE)
    for step, report in zip(sorted(STEPS), reports, strict=True):
        assert "tampered" not in report and "crash" not in report, (step, report)
        assert report["passed"] == report["total"] >= 5, step
        assert report["restart"] is False
        names = [r["name"] for r in report["results"]]
        lesson = STEPS[step].parent
        built = next(s for s in practice.read_steps(lesson) if s.id == step)
        assert names == practice.check_names(harness, built), step
        # The rows carry the tiers, computed by the guard's own copy of the harness's tiers().
        assert all(r["tiers"] == {"nudge": "", "call": []} for r in report["results"])


TRICKS = {
    "json.dumps": "import json\njson.dumps = lambda *a, **k: '{}'\n" + WRONG,
    "_harness.compare": "import _harness\n_harness.compare = lambda *a, **k: None\n" + WRONG,
    "checks.cases": (
        "import sys\nm = sys.modules['practice_checks_01_dot']\nm.cases = lambda: []\n" + WRONG
    ),
    "builtins.print": "import builtins\nbuiltins.print = lambda *a, **k: None\n" + WRONG,
    "builtins.__import__": (
        "import builtins\ndef no(*a, **k):\n    raise ImportError('no')\n"
        "builtins.__import__ = no\n" + WRONG
    ),
    "builtins.abs": "__builtins__['abs'] = lambda x: 0\n" + WRONG,
    "math.isnan": "import math\nmath.isnan = lambda x: False\n" + WRONG,
    "sys.modules": "import sys\nsys.modules.clear()\n" + WRONG,
}


@pytest.mark.parametrize("changed", sorted(TRICKS))
def test_a_trick_is_named_and_the_next_runs_are_clean(changed: str) -> None:
    code = TRICKS[changed]
    chatty = "print('still printing')\nimport math\n" + solution("01_dot")
    tricked, wrong, chatty_report = drive(("01_dot", code), ("01_dot", WRONG), ("01_dot", chatty))
    clean_wrong, clean_chatty = drive(("01_dot", WRONG), ("01_dot", chatty))
    assert tricked["tampered"][0] == changed
    assert "results" not in tricked and tricked["restart"] is True
    lines = code.splitlines()
    assert tricked["line"] is not None and changed.rsplit(".", 1)[-1] in lines[tricked["line"] - 1]
    # Put back at once: the next runs report what an untouched interpreter reports.
    assert wrong["_after"] == {**clean_wrong["_after"], "modules": wrong["_after"]["modules"]}
    assert wrong["_after"]["print is print"] and wrong["_after"]["dumps"]
    assert {k: v for k, v in wrong.items() if k != "_after"} == {
        k: v for k, v in clean_wrong.items() if k != "_after"
    }
    assert wrong["passed"] == 3 and wrong["total"] == 11
    assert chatty_report["passed"] == chatty_report["total"] == 11
    assert chatty_report["printed"]["text"].startswith("still printing")
    assert chatty_report["printed"] == clean_chatty["printed"]


def test_stopping_python_inside_the_function_is_the_readers_failure() -> None:
    exit_code = "import sys\ndef dot(a, b):\n    sys.exit(3)\n"
    interrupt = "def dot(a, b):\n    raise KeyboardInterrupt\n"
    at_top = "raise SystemExit\n"
    exited, interrupted, top = drive(
        ("01_dot", exit_code), ("01_dot", interrupt), ("01_dot", at_top)
    )
    for report, error, line in (
        (exited, "SystemExit: 3", 3),
        (interrupted, "KeyboardInterrupt", 2),
    ):
        first = report["results"][0]
        assert report["passed"] == 0 and report["restart"] is False
        assert (first["error"], first["line"], first["hint"]) == (error, line, "system-exit")
        assert "return" in first["hint_text"]
    assert top["results"][0]["name"] == "your code loads"
    assert top["results"][0]["error"] == "SystemExit" and top["results"][0]["line"] == 1


def test_a_lone_surrogate_is_named_with_its_line() -> None:
    (report,) = drive(("01_dot", "def dot(a, b):\n    return '\ud800'\n"))
    (first,) = report["results"]
    assert first["name"] == "your code compiles" and first["line"] == 2
    assert "U+D800" in first["error"]
