"""No trick in the reader's code makes a wrong answer pass, and no run changes the next.

Python cannot be sandboxed inside one interpreter, so these are the accidents and
one-line tricks a reader could try, each run in the real Pyodide worker on lesson 1's
step 1 with a wrong ``dot`` (it returns 0):

- posting a fake result to the page (``js.postMessage`` with guessed run ids);
- replacing ``json.dumps`` with one that returns a passing report;
- replacing a function of the harness module (``compare``);
- editing the checks module through ``sys.modules``;
- replacing ``builtins.print`` or ``builtins.__import__``.

Each must be reported plainly as a run that does not count, never as a pass, and the
next run of an ordinary wrong answer must fail, of the solution pass, and of code that
prints show what it printed: each run starts clean. The tests share one page (each
trick after the others), whose guard fails a test on any console error or request to another host.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PRACTICE_STEP as STEP
from tests.browser.test_practice import run_code, runner, source

WRONG = "def dot(a, b):\n    return 0\n"

#: A report the page would show as "All 9 checks passed" if it believed it.
FAKE_REPORT = (
    '{"passed": 9, "total": 9, "results": ['
    + ", ".join(f'{{"name": "check {i}", "passed": true}}' for i in range(9))
    + '], "printed": {"text": "", "total": 0, "cut": 0, "limit": 400}}'
)

TRICKS: dict[str, str] = {
    "fake-post-message": (
        "import js, json\n"
        "from pyodide.ffi import to_js\n"
        f"report = json.loads({FAKE_REPORT!r})\n"
        "for i in range(1, 60):\n"
        "    js.postMessage(to_js({'type': 'result', 'id': i, 'report': report, 'printed': [],"
        " 'ms': 1}, dict_converter=js.Object.fromEntries))\n" + WRONG
    ),
    "patched-json-dumps": (
        f"import json\njson.dumps = lambda *args, **kwargs: {FAKE_REPORT!r}\n" + WRONG
    ),
    "patched-harness-function": (
        "import _harness\n_harness.compare = lambda *args, **kwargs: None\n" + WRONG
    ),
    "checks-edited-via-sys-modules": (
        "import sys\n"
        "checks = [m for name, m in list(sys.modules.items()) if name.startswith('practice_checks')"
        " or hasattr(m, 'MISTAKES')]\n"
        "for m in checks:\n"
        "    m.cases = lambda: [m.h.Case('nothing', ([1], [1]), 0)]\n"
        "    m.properties = lambda run: iter(())\n" + WRONG
    ),
    "builtins-print-replaced": (
        "import builtins\nbuiltins.print = lambda *args, **kwargs: None\n"
        + source(STEP, "solution.py")
    ),
    "import-replaced": (
        "import builtins\n"
        "def no_imports(*args, **kwargs):\n"
        "    raise ImportError('imports are switched off')\n"
        "builtins.__import__ = no_imports\n" + source(STEP, "solution.py")
    ),
}

CHATTY = "print('still printing')\n" + source(STEP, "solution.py")
CLEAN_IMPORT = "import math\n" + source(STEP, "solution.py")


def status(page: Any) -> str:
    return str(runner(page, STEP).locator(".practice__status").inner_text())


def outcome(page: Any) -> str | None:
    value = runner(page, STEP).locator(".practice__status").get_attribute("data-outcome")
    return None if value is None else str(value)


@pytest.mark.parametrize("trick", sorted(TRICKS))
def test_a_trick_never_passes_and_the_next_run_starts_clean(practice: Any, trick: str) -> None:
    page = practice
    # A warm worker first: the trick must not pass in a worker that has run before.
    assert run_code(page, STEP, source(STEP, "solution.py")) == "pass"

    assert run_code(page, STEP, TRICKS[trick]) == "fail", f"{trick}: passed"
    said = status(page)
    assert "checks passed" not in said or said.startswith("0 of"), f"{trick}: {said!r}"
    assert "All " not in said, f"{trick}: {said!r}"
    # The run is reported as one that does not count, in one short line.
    assert outcome(page) == "tampered", f"{trick}: outcome {outcome(page)!r}: {said!r}"
    assert "does not count" in said, f"{trick}: {said!r}"
    assert len(said) < 300, f"{trick}: the live region says {len(said)} characters"

    # Each run starts clean: a wrong answer fails with its ordinary hint, a solution
    # passes, what a solution prints is shown, and a plain import works.
    assert run_code(page, STEP, WRONG) == "fail", f"after {trick}: a wrong answer passed"
    assert outcome(page) == "fail", f"after {trick}: {status(page)!r}"
    assert runner(page, STEP).locator(".practice__check.is-fail").count() >= 5
    assert run_code(page, STEP, CHATTY) == "pass", f"after {trick}: {status(page)!r}"
    printed = runner(page, STEP).locator("[data-printed] pre")
    assert printed.count() == 1, f"after {trick}: what the code printed is not shown"
    assert printed.inner_text().startswith("still printing")
    assert run_code(page, STEP, CLEAN_IMPORT) == "pass", f"after {trick}: {status(page)!r}"


def test_the_page_knows_each_steps_checks(practice: Any) -> None:
    """The manifest the page reads carries each step's check names (from the build's run
    of its solution): the page believes an "all passed" only from a report that names
    exactly these, in order (``reportProblem``, tested with node in
    tests/js/practice.test.js), so a forged report of 11 checks where there are 16 is
    refused."""
    page = practice
    names = page.evaluate(
        "async () => (await (await fetch('../practice/attention/manifest.json')).json())"
        ".steps.find(s => s.id === '01_dot').check_names"
    )
    assert isinstance(names, list) and len(names) >= 9
    assert names[0].startswith("worked example")
    assert names[-1] == "your function leaves its input lists unchanged"
