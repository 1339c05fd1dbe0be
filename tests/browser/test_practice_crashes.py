"""Crashes read as crashes, briefly, in the real Pyodide worker.

Code that stops Python itself (``sys.exit()``, ``SystemExit``, ``KeyboardInterrupt``
inside the reader's function), code Python cannot read (a lone surrogate), code that
empties ``sys.modules``, and code that overflows the browser's stack (brackets nested
190 deep, recursion past a raised limit) each get a one-line verdict in the polite
live region, naming the reader's line where there is one; whatever Python itself said
goes in a folded "What Python said" under the results, never in the live region and
never as "what your code printed". The next run works. The tests share one page, as a
reader's runs follow one another (``practice`` in conftest.py); its guard fails a test
on any console error it did not expect (Pyodide reports its own fatal error on the
console: those three lines are checked and removed) and any request to another host.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PRACTICE_STEP as STEP
from tests.browser.conftest import PageGuard
from tests.browser.test_practice import (
    run_code,
    runner,
    set_code,
    source,
    wait_done,
)

#: The live region's verdict stays short: one sentence or two, never a traceback.
SHORT = 300

#: Pyodide's own console lines when its stack overflows (expected, and only then).
PYODIDE_FATAL = (
    "Pyodide has suffered a fatal error",
    "The cause of the fatal error was",
    "Maximum call stack size exceeded",
    "Stack (most recent call first)",
    'File "',
)


def verdict(page: Any) -> str:
    text = str(runner(page, STEP).locator(".practice__status").inner_text())
    assert len(text) < SHORT and "Traceback" not in text, text
    return text


def next_run_works(page: Any) -> None:
    assert run_code(page, STEP, source(STEP, "solution.py")) == "pass", verdict(page)
    assert verdict(page).startswith("All 11 checks passed.")


CASES = {
    "sys.exit": (
        "import sys\ndef dot(a, b):\n    sys.exit()\n",
        "Your function called sys.exit() (or raised SystemExit) on line 3, which stops Python "
        "rather than returning an answer. 0 of 10 checks passed.",
    ),
    "SystemExit": (
        "def dot(a, b):\n    raise SystemExit(2)\n",
        "Your function called sys.exit() (or raised SystemExit) on line 2, which stops Python "
        "rather than returning an answer. 0 of 10 checks passed.",
    ),
    "KeyboardInterrupt": (
        "def dot(a, b):\n    total = 0\n    raise KeyboardInterrupt\n",
        "Your function raised KeyboardInterrupt on line 3, which stops Python rather than "
        "returning an answer. 0 of 10 checks passed.",
    ),
    "sys.modules.clear()": (
        "import sys\ndef dot(a, b):\n    sys.modules.clear()\n    return 0\n",
        "Your code emptied or replaced entries of sys.modules (line 3), Python's table of "
        "loaded modules, so this run does not count. Python was restarted, so the next run "
        "starts clean.",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_stopping_python_is_one_line_naming_the_line(practice: Any, case: str) -> None:
    code, expected = CASES[case]
    assert run_code(practice, STEP, code) == "fail"
    said = " ".join(verdict(practice).split())
    assert said.startswith(expected), said
    # Screen readers hear where the help is, and nothing more (the verdict named the line).
    assert said in (
        expected,
        expected + " Help comes in three steps, each with the button after the results.",
    )
    # The first failure's details (its error and line) stay in the results, not the verdict.
    if case != "sys.modules.clear()":
        first = runner(practice, STEP).locator(".practice__check.is-fail").first
        assert first.get_attribute("data-hint") == "system-exit"
        assert case.split(".")[0].replace("sys", "SystemExit") in first.inner_text()
    next_run_works(practice)


def test_a_lone_surrogate_is_named_with_its_line(practice: Any) -> None:
    practice.evaluate(
        "s => document.querySelector(`.practice__runner[data-step='${s}']`).practiceEditor"
        ".setCode('def dot(a, b):\\n    return \"' + String.fromCharCode(0xd800) + '\"\\n')",
        STEP,
    )
    runner(practice, STEP).locator("[data-action='run']").click()
    assert wait_done(practice, STEP) == "fail"
    assert verdict(practice).strip() == (
        "Line 2 holds U+D800, half of a surrogate pair, a character on its own that no text "
        "can hold: Python cannot read it. Delete it and run again."
    )
    next_run_works(practice)


DEEP = {
    "nested brackets": (
        "x = " + "[" * 190 + "]" * 190 + "\n" + source(STEP, "solution.py"),
        "The code nests too deeply (190 brackets, line 1) for Python in the browser. "
        "Python was restarted, so the next run starts clean.",
    ),
    "raised recursion limit": (
        "import sys\nsys.setrecursionlimit(10**6)\n"
        "def dot(a, b):\n    x = []\n    for _ in range(100000):\n        x = [x]\n"
        "    return len(str(x))\n",
        "Your code recursed deeper than Python in the browser can go: sys.setrecursionlimit on "
        "line 2 raised the limit past what its stack holds. Python was restarted, so the next "
        "run starts clean.",
    ),
}


@pytest.mark.parametrize("case", sorted(DEEP))
def test_a_stack_overflow_is_a_crash_in_one_line(
    practice: Any, practice_guard: PageGuard, case: str
) -> None:
    code, expected = DEEP[case]
    set_code(practice, STEP, code)
    runner(practice, STEP).locator("[data-action='run']").click()
    assert wait_done(practice, STEP) == "fail"
    assert verdict(practice).strip() == expected
    results = runner(practice, STEP).locator(".practice__results")
    assert results.locator("[data-printed]").count() == 0, "Pyodide's dump shown as printed"
    details = results.locator("details.practice__details")
    assert details.count() == 1 and details.get_attribute("open") is None
    details.locator("summary").click()
    assert "Maximum call stack size exceeded" in details.inner_text()
    next_run_works(practice)
    unexpected = [
        m for m in practice_guard.console_errors if not any(p in m for p in PYODIDE_FATAL)
    ]
    assert unexpected == [], unexpected
    practice_guard.console_errors.clear()
