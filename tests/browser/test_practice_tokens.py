"""Lesson 0's practice section in Debian's Chromium, with the real Pyodide served by the site.

The same machinery as lessons 1 and 2 (``test_practice.py``), on the page ``/tokens/``:
the section names its lesson, so the page fetches that lesson's manifest and no other;
every solution passes in Pyodide; every typical mistake of every step fails there with
the hint its file declares, and the first failure says what CPython's run of the same
harness says; the help comes in tiers; axe-core finds no violation in the section.
The ``page`` fixture fails the test on any console error or any request to another host.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.axe import axe_violations, describe
from tests.browser.test_practice import (
    STEP_DIRS,
    WAIT_MS,
    climb_the_tiers,
    declared_hint,
    first_failure_in_cpython,
    practice_workers,
    run_code,
    runner,
    source,
)

LESSON = "tokens"
STEPS = sorted(name for name, folder in STEP_DIRS.items() if folder.parent.name == LESSON)


def mistakes(step: str) -> list[str]:
    return sorted(p.stem for p in (STEP_DIRS[step] / "mistakes").glob("*.py"))


def test_lesson_0_practice_runs_its_own_steps_in_pyodide(
    page: Any, site_url: str, screenshots: Path
) -> None:
    assert STEPS == ["01_wordpiece", "02_embed", "03_sinusoidal", "04_add_positions", "05_rope"]
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(site_url + f"{LESSON}/", wait_until="load")
    section = page.locator(".practice")
    assert section.get_attribute("data-practice") == LESSON

    page.locator("#practice-wordpiece").scroll_into_view_if_needed()
    last = STEPS[-1]
    page.wait_for_selector(f".practice__runner[data-step='{last}'] .cm-editor", timeout=WAIT_MS)
    page.wait_for_selector(".practice__loader[data-state='ready']", timeout=WAIT_MS)
    manifests = [u for u in requests if u.endswith("manifest.json")]
    assert [u.removeprefix(site_url) for u in manifests] == [f"practice/{LESSON}/manifest.json"]
    assert page.locator(".practice .cm-editor").count() == len(STEPS)

    # Every solution passes, in real Pyodide (the WordPiece step takes a dict argument).
    for step in STEPS:
        assert run_code(page, step, source(step, "solution.py")) == "pass", step

    # Every typical mistake fails with the hint its file declares; the first failure
    # carries the same hint in Pyodide as in CPython.
    for step in STEPS:
        for mistake in mistakes(step):
            code = source(step, f"mistakes/{mistake}.py")
            assert run_code(page, step, code) == "fail", f"{step}/{mistake} passes in Pyodide"
            hint = declared_hint(step, mistake)
            failed = runner(page, step).locator(f".practice__check.is-fail[data-hint='{hint}']")
            assert failed.count() >= 1, f"{step}/{mistake}: no failed check with hint {hint!r}"
            first = runner(page, step).locator(".practice__check.is-fail").first
            assert first.get_attribute("data-hint") == first_failure_in_cpython(step, code).hint

    # The help comes in tiers (a nudge, the failing call, a solution).
    code = source("01_wordpiece", "mistakes/shortest_match.py")
    assert run_code(page, "01_wordpiece", code) == "fail"
    climb_the_tiers(page, "01_wordpiece", code)
    runner(page, "01_wordpiece").locator("[data-action='solution']").click()
    shown = runner(page, "01_wordpiece").locator(".practice__solution").inner_text()
    assert "def wordpiece" in shown

    assert len([u for u in requests if u.endswith("pyodide.asm.wasm")]) == 1
    assert len(practice_workers(page)) == 1

    page.locator(".practice").screenshot(path=str(screenshots / "practice-tokens.png"))
    violations = axe_violations(page, include=".practice")
    assert violations == [], describe(violations)
