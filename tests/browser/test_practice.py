"""The practice section in Debian's Chromium, with the real Pyodide served by the site.

One page load and one warm worker carry most checks (Pyodide's cold start dominates
the time): nothing heavy loads before the section comes near; each step's solution
passes and one typical mistake per step shows its hint; the solution button appears
only after a failed run; a syntax error names its line; an endless loop is stopped
while the page keeps responding, and the next run works in a fresh worker; the code
survives a reload and Reset restores the starter; Tab indents and Escape-then-Tab
leaves the editor; axe-core finds no violation in either palette; the section fits a
phone's width. The ``page`` fixture fails the test on any console error or any
request to a host other than 127.0.0.1 (the worker's requests included).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tests.browser.axe import axe_violations, describe

ROOT = Path(__file__).resolve().parents[2]
PRACTICE = ROOT / "snippets" / "practice"
#: Every step's folder, by id (ids are unique across lessons).
STEP_DIRS = {p.name: p for p in PRACTICE.glob("[a-z]*/[0-9][0-9]_*") if p.is_dir()}
#: The lesson this file tests in depth (test_practice_lessons.py runs the others).
LESSON = "attention"
#: The steps of lesson 1, the page /attention/.
STEPS = sorted(name for name, folder in STEP_DIRS.items() if folder.parent.name == LESSON)
# One typical mistake per step, by its name in the step's MISTAKES (which names its hint).
MISTAKE = {
    "01_dot": "elementwise",
    "02_scores": "no_sqrt",
    "03_softmax": "no_max",
    "04_weighted_sum": "argmax",
    "05_attend": "keys_values",
    "06_causal": "off_by_one",
    "07_many_queries": "mask_ignored",
}
sys.path.insert(0, str(PRACTICE))
import _harness as h  # noqa: E402

WAIT_MS = 90_000  # generous: a cold Pyodide start on a busy machine


def source(step: str, name: str) -> str:
    return (STEP_DIRS[step] / name).read_text(encoding="utf-8")


def mistakes_of(step: str) -> dict[str, h.Mistake]:
    """A step's typical mistakes, by name, as its checks.py declares them."""
    found: dict[str, h.Mistake] = h.load_step(STEP_DIRS[step] / "checks.py").MISTAKES
    return found


def mistake_source(step: str, mistake: str) -> str:
    """The mistake's code: the step's solution with the mistake's edits applied."""
    return mistakes_of(step)[mistake].source


def declared_hint(step: str, mistake: str) -> str:
    return mistakes_of(step)[mistake].hint


def runner(page: Any, step: str) -> Any:
    return page.locator(f".practice__runner[data-step='{step}']")


def set_code(page: Any, step: str, code: str) -> None:
    page.evaluate(
        "([s, c]) => document.querySelector(`.practice__runner[data-step='${s}']`)"
        ".practiceEditor.setCode(c)",
        [step, code],
    )


def get_code(page: Any, step: str) -> str:
    return str(
        page.evaluate(
            "s => document.querySelector(`.practice__runner[data-step='${s}']`)"
            ".practiceEditor.getCode()",
            step,
        )
    )


def start_run(page: Any, step: str) -> None:
    page.evaluate(
        "s => { document.querySelector(`.practice__runner[data-step='${s}']`).dataset.state = '' }",
        step,
    )
    runner(page, step).locator("[data-action='run']").click()


def wait_done(page: Any, step: str) -> str:
    """Wait for a run of ``step`` to pass or fail; on a timeout, say where the run stood."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            "s => ['pass', 'fail'].includes("
            "document.querySelector(`.practice__runner[data-step='${s}']`).dataset.state)",
            arg=step,
            timeout=WAIT_MS,
        )
    except PlaywrightTimeout:
        box = runner(page, step)
        state = box.get_attribute("data-state")
        said = box.locator(".practice__status").inner_text()
        loader = page.locator(".practice__loader").get_attribute("data-state")
        raise AssertionError(
            f"{step}: no result within {WAIT_MS} ms: runner state {state!r}, loader {loader!r}, "
            f"status {said!r}"
        ) from None
    return str(runner(page, step).get_attribute("data-state"))


def open_practice(page: Any, url: str, step: str = "01_dot") -> Any:
    """Open ``url``, bring its practice section near the screen, wait for ``step``'s editor
    and for Python to be ready; return the page."""
    page.goto(url, wait_until="load")
    page.locator(f"#practice-{step.split('_', 1)[1]}").scroll_into_view_if_needed()
    page.wait_for_selector(f".practice__runner[data-step='{step}'] .cm-editor", timeout=WAIT_MS)
    page.wait_for_selector(".practice__loader[data-state='ready']", timeout=WAIT_MS)
    return page


def practice_workers(page: Any) -> list[str]:
    """The practice workers alive in the page (Material runs a search worker too)."""
    return [w.url for w in page.workers if w.url.endswith("/javascripts/practice/worker.js")]


def run_code(page: Any, step: str, code: str) -> str:
    set_code(page, step, code)
    start_run(page, step)
    return wait_done(page, step)


def tier_text(page: Any, step: str) -> str:
    return str(runner(page, step).locator(".practice__tiers").inner_text())


def first_failure_in_cpython(step: str, code: str) -> h.Result:
    results = h.run(h.load_step(STEP_DIRS[step] / "checks.py"), code)
    return next(r for r in results if not r.passed)


#: The page's labels of the fields of the second tier, as a reader sees them.
CALL_LABELS = {
    "call": "Call",
    "actual": "Your answer",
    "expected": "Expected",
    "tolerance": "Tolerance",
    "detail": "What differs",
}


def climb_the_tiers(page: Any, step: str, code: str) -> None:
    """After a failed run: nothing but the verdicts and Python's errors until asked; then
    tier 1, the nudge (the first failure's hint words), tier 2, the failing call with
    both answers, and only then the solution button. Each tier shown by Pyodide must be
    what the same harness reports in CPython for the same code."""
    expected = first_failure_in_cpython(step, code)
    box = runner(page, step)
    hint = box.locator("[data-action='hint']")
    reveal = box.locator("[data-action='solution']")
    first = box.locator(".practice__check.is-fail").first
    assert hint.is_visible() and hint.inner_text() == "Show a hint (1 of 3)"
    assert reveal.is_hidden(), f"{step}: the solution is offered before the first two tiers"
    assert tier_text(page, step) == ""
    assert "Hint:" not in first.inner_text() and "Your answer" not in first.inner_text()
    assert box.get_attribute("data-tier") == "0"
    hint.click()
    assert box.get_attribute("data-tier") == "1"
    nudge = box.locator("[data-tier='nudge']").inner_text()
    assert nudge == "Hint: " + expected.hint_text
    assert "Call" not in tier_text(page, step)
    assert hint.inner_text() == "Show the failing call (2 of 3)" and reveal.is_hidden()
    hint.click()
    assert box.get_attribute("data-tier") == "2"
    call = box.locator("[data-tier='call']").inner_text()
    assert expected.name in call and "Call" in call and "Expected" in call
    for field in h.tiers(expected)["call"]:  # the fields the harness holds back, labelled
        label, value = CALL_LABELS[field], getattr(expected, field)
        assert label in call and value in call, f"{step}: tier 2 lacks {label} {value!r}"
    assert hint.is_hidden() and reveal.is_visible()
    assert reveal.inner_text() == "Show a solution (3 of 3)"
    assert page.evaluate("() => document.activeElement.dataset.action") == "solution"


def test_practice_runs_real_python_in_a_worker(page: Any, site_url: str, screenshots: Path) -> None:
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(site_url + "attention/", wait_until="load")
    page.wait_for_timeout(300)

    # Lazy: nothing heavy before the section comes near (the page opens at the top).
    heavy = [u for u in requests if "pyodide" in u or "editor.bundle" in u or "manifest" in u]
    assert heavy == [], f"loaded before the practice section was near: {heavy}"
    assert page.locator(".practice").get_attribute("data-widget-state") == "waiting"

    page.locator("#practice-dot").scroll_into_view_if_needed()
    page.wait_for_selector(".practice__runner[data-step='06_causal'] .cm-editor", timeout=WAIT_MS)
    # The solution can never be revealed before a failed run.
    for step in STEPS:
        assert runner(page, step).locator("[data-action='solution']").is_hidden()
    page.wait_for_selector(".practice__loader[data-state='ready']", timeout=WAIT_MS)
    assert any(u.endswith("vendor/pyodide/pyodide.asm.wasm") for u in requests)
    # The section names its lesson: this lesson's manifest, and no other.
    manifests = [u.removeprefix(site_url) for u in requests if u.endswith("manifest.json")]
    assert manifests == ["practice/attention/manifest.json"]

    # Every solution passes, in real Pyodide.
    for step in STEPS:
        assert run_code(page, step, source(step, "solution.py")) == "pass", step
        summary = runner(page, step).locator(".practice__status").inner_text()
        assert summary.strip().startswith("All ") and "checks passed" in summary

    # One typical mistake per step fails with its own hint; the help comes in tiers, each
    # on request: a nudge, then the failing call with both answers, then the solution.
    for step, mistake in MISTAKE.items():
        assert run_code(page, step, mistake_source(step, mistake)) == "fail", step
        hint = declared_hint(step, mistake)
        items = runner(page, step).locator(f".practice__check.is-fail[data-hint='{hint}']")
        assert items.count() >= 1, f"{step}/{mistake}: no failed check with hint {hint!r}"
        climb_the_tiers(page, step, mistake_source(step, mistake))

    reveal = runner(page, "03_softmax").locator("[data-action='solution']")
    reveal.click()
    solution_box = runner(page, "03_softmax").locator(".practice__solution")
    assert solution_box.is_visible() and "def softmax" in solution_box.inner_text()
    assert reveal.get_attribute("aria-expanded") == "true"
    # Python's own error and its line are shown at once, not held back as a tier.
    detail = runner(page, "03_softmax").locator(".practice__check.is-fail").first.inner_text()
    assert "OverflowError" in detail and "Line" in detail

    page.locator(".practice").screenshot(path=str(screenshots / "practice-light.png"))
    violations = axe_violations(page, include=".practice")
    assert violations == [], describe(violations)

    # Twelve runs so far, one worker: Pyodide was fetched once and stayed warm.
    wasm = [u for u in requests if u.endswith("pyodide.asm.wasm")]
    assert len(wasm) == 1, f"expected one warm worker, Pyodide was fetched {len(wasm)} times"
    assert len(practice_workers(page)) == 1

    # The tiers by keyboard alone, on a fresh failure of step 1: Enter on the hint
    # button twice, and the focus lands on the solution button (tier 3).
    assert run_code(page, "01_dot", mistake_source("01_dot", MISTAKE["01_dot"])) == "fail"
    runner(page, "01_dot").locator("[data-action='hint']").focus()
    page.keyboard.press("Enter")
    assert runner(page, "01_dot").get_attribute("data-tier") == "1"
    page.keyboard.press("Enter")
    assert runner(page, "01_dot").get_attribute("data-tier") == "2"
    page.keyboard.press("Enter")
    assert runner(page, "01_dot").locator(".practice__solution").is_visible()
    # A new run starts the ladder again; a passing run offers no hint.
    assert run_code(page, "01_dot", source("01_dot", "solution.py")) == "pass"
    assert runner(page, "01_dot").locator("[data-action='hint']").is_hidden()
    assert tier_text(page, "01_dot") == ""

    # What the reader's code prints is shown beside the results, capped at 400 characters.
    chatty = (
        "print('hello from the top')\n"
        "def dot(a, b):\n"
        "    print('a is', a, '-' * 60)\n"
        "    return sum(x * y for x, y in zip(a, b))\n"
    )
    assert run_code(page, "01_dot", chatty) == "pass"
    printed = runner(page, "01_dot").locator("[data-printed]")
    text = printed.locator("pre").inner_text()
    assert text.startswith("hello from the top\na is [1, 0, 1, 0] " + "-" * 60)
    assert len(text) == 400
    assert "Only the first 400 characters are shown" in printed.inner_text()
    assert run_code(page, "01_dot", source("01_dot", "solution.py")) == "pass"
    assert runner(page, "01_dot").locator("[data-printed]").count() == 0

    # A syntax error is reported with the reader's line.
    assert run_code(page, "01_dot", "def dot(a, b):\n    total = 0\n    for x in a\n") == "fail"
    text = runner(page, "01_dot").locator(".practice__results").inner_text()
    assert "SyntaxError" in text and "3: for x in a" in text
    assert "Line 3" in runner(page, "01_dot").locator(".practice__status").inner_text()

    # An endless loop: the page keeps responding while it runs, then it is stopped.
    set_code(page, "02_scores", "def scaled_scores(q, keys):\n    while True:\n        pass\n")
    start_run(page, "02_scores")
    page.wait_for_timeout(500)
    # The main thread answers while the run is still going, and other controls work.
    assert runner(page, "02_scores").get_attribute("data-state") == "running"
    runner(page, "01_dot").locator("[data-action='reset']").click()
    assert get_code(page, "01_dot") == source("01_dot", "starter.py")
    assert runner(page, "02_scores").get_attribute("data-state") == "running"
    assert wait_done(page, "02_scores") == "fail"
    stopped = runner(page, "02_scores").locator(".practice__results").inner_text()
    assert "Stopped after" in stopped and "endless loop" in stopped
    assert "Stopped after" in runner(page, "02_scores").locator(".practice__status").inner_text()
    # The next run starts a fresh worker and works.
    assert run_code(page, "02_scores", source("02_scores", "solution.py")) == "pass"
    wasm = [u for u in requests if u.endswith("pyodide.asm.wasm")]
    assert len(wasm) == 2, "the stopped worker must be replaced by a fresh one"
    # Playwright learns of a terminated worker by an event that can lag behind.
    for _ in range(50):
        if len(practice_workers(page)) == 1:
            break
        page.wait_for_timeout(100)
    assert len(practice_workers(page)) == 1, "the stopped worker must be gone"

    # Keyboard: Tab indents inside the editor; Escape then Tab moves focus out.
    set_code(page, "04_weighted_sum", "x")
    content = runner(page, "04_weighted_sum").locator(".cm-content")
    content.click()
    page.keyboard.press("End")
    page.keyboard.press("Home")
    page.keyboard.press("Tab")
    assert get_code(page, "04_weighted_sum") == "    x"
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    inside = page.evaluate(
        "() => !!document.activeElement.closest(\".practice__runner[data-step='04_weighted_sum']"
        ' .cm-editor")'
    )
    assert not inside, "Escape then Tab must move the focus out of the editor"
    # Ctrl+Enter in the editor runs the checks (here: an indentation error on line 1).
    content.click()
    page.evaluate(
        "document.querySelector(\".practice__runner[data-step='04_weighted_sum']\")"
        ".dataset.state = ''"
    )
    page.keyboard.press("Control+Enter")
    assert wait_done(page, "04_weighted_sum") == "fail"
    assert (
        "IndentationError"
        in runner(page, "04_weighted_sum").locator(".practice__results").inner_text()
    )

    # Dark palette: Material's toggle switches in place; no violation there either.
    page.locator("form[data-palette] label:not([hidden])").first.click()
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    page.locator(".practice").screenshot(path=str(screenshots / "practice-dark.png"))
    violations = axe_violations(page, include=".practice")
    assert violations == [], describe(violations)

    # The code is kept per exercise across a reload; Reset restores the starter.
    set_code(page, "05_attend", "# my attempt\n" + source("05_attend", "starter.py"))
    page.wait_for_timeout(600)  # the editor saves 300 ms after the last change
    page.reload(wait_until="load")
    page.locator("#practice-attend").scroll_into_view_if_needed()
    page.wait_for_selector(".practice__runner[data-step='05_attend'] .cm-editor", timeout=WAIT_MS)
    assert get_code(page, "05_attend").startswith("# my attempt\n")
    assert runner(page, "05_attend").locator("[data-action='solution']").is_visible()
    runner(page, "05_attend").locator("[data-action='reset']").click()
    assert get_code(page, "05_attend") == source("05_attend", "starter.py")
    # Idempotent set-up: one editor per step, even after a reload.
    assert page.locator(".practice .cm-editor").count() == len(STEPS)

    # Phone width: the section fits, nothing scrolls sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#practice-attend").scroll_into_view_if_needed()
    overflow = page.evaluate(
        "() => { const s = document.querySelector('.practice');"
        " return s.scrollWidth - s.clientWidth }"
    )
    assert overflow <= 1, f"the practice section is {overflow}px wider than a phone screen"
    runner(page, "05_attend").screenshot(path=str(screenshots / "practice-phone.png"))


def test_practice_after_navigating_away_and_back(page: Any, site_url: str) -> None:
    """Coming back to the page sets the section up again, once. (The site loads every
    page in full, Material's instant navigation being off: leaving it ends the worker.)"""
    page.goto(site_url + "attention/", wait_until="load")
    page.locator("#practice-dot").scroll_into_view_if_needed()
    page.wait_for_selector(".practice__runner[data-step='01_dot'] .cm-editor", timeout=WAIT_MS)
    page.wait_for_selector(".practice__loader[data-state='ready']", timeout=WAIT_MS)
    assert len(practice_workers(page)) == 1
    # Follow links away (to the home page, which has no practice section: the lesson
    # before this one has its own) and back, as a reader would.
    page.locator("a.md-header__button.md-logo").click()
    page.wait_for_url(site_url)
    page.wait_for_function("!document.querySelector('.practice')")
    page.locator("nav.md-nav--primary a.md-nav__link", has_text="Attention").first.click()
    page.wait_for_url(site_url + "attention/")
    page.wait_for_selector(".practice", state="attached")
    page.locator("#practice-dot").scroll_into_view_if_needed()
    page.wait_for_selector(".practice__runner[data-step='01_dot'] .cm-editor", timeout=WAIT_MS)
    assert page.locator(".practice .cm-editor").count() == len(STEPS)
    assert page.locator(".practice").get_attribute("data-widget-state") == "ready"
