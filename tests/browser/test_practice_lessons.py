"""The practice sections of every lesson but lesson 1, in Debian's Chromium, with the real Pyodide.

The same machinery as lesson 1 (``test_practice.py``, which tests it in depth), one
lesson page per run, for each lesson of the site model (``site_build/site.py``): the
section names its lesson, so the page fetches that lesson's manifest and no other; the
page offers a runner for each of the lesson's step folders, in order; every solution
passes in Pyodide; every typical mistake of every step (the solution with the mistake's
edits applied) fails there with the hint it declares, and the first failure says what
CPython's run of the same harness says; the help comes in tiers; axe-core finds no
violation in the section. The ``page`` fixture fails the test on any console error or any
request to another host. (That nothing heavy loads before the section comes near is
lesson 1's test.)

Nothing here is written per lesson: the steps are the folders, the first step's heading
is ``#practice-<name>`` (``01_layer_norm`` gives ``#practice-layer-norm``), and the tiers
of help are climbed with the first step's first mistake (in name order) whose first
failure shows both answers, so that the second tier is complete.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from site_build import practice, site
from tests.browser.axe import axe_violations, describe
from tests.browser.test_practice import (
    LESSON,
    STEP_DIRS,
    WAIT_MS,
    climb_the_tiers,
    declared_hint,
    first_failure_in_cpython,
    h,
    mistake_source,
    mistakes_of,
    practice_workers,
    run_code,
    runner,
    source,
)

LESSONS = [lesson.slug for lesson in site.LESSONS if lesson.slug != LESSON]


def mistakes(step: str) -> list[str]:
    return sorted(mistakes_of(step))


def anchor(step: str) -> str:
    """The id of a step's heading in its partial."""
    return "#practice-" + step.split("_", 1)[1].replace("_", "-")


def tier_mistake(step: str) -> str:
    """The first of ``step``'s mistakes whose first failure shows both answers."""
    for mistake in mistakes(step):
        failed = first_failure_in_cpython(step, mistake_source(step, mistake))
        if failed.actual and failed.expected:
            return mistake
    raise AssertionError(f"{step}: no mistake fails on a value, so tier 2 cannot be climbed")


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_lessons_practice_runs_its_own_steps_in_pyodide(
    lesson: str, page: Any, site_url: str, screenshots: Path
) -> None:
    steps = [step.id for step in practice.read_steps(site.PRACTICE / lesson)]
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(site_url + f"{lesson}/", wait_until="load")
    section = page.locator(".practice")
    assert section.get_attribute("data-lesson") == lesson

    shown = page.locator(".practice__runner").evaluate_all("rs => rs.map(r => r.dataset.step)")
    assert shown == list(steps), "the page's runners are not the lesson's step folders"
    page.locator(anchor(steps[0])).scroll_into_view_if_needed()
    last = steps[-1]
    page.wait_for_selector(f".practice__runner[data-step='{last}'] .cm-editor", timeout=WAIT_MS)
    page.wait_for_selector(".practice__loader[data-state='ready']", timeout=WAIT_MS)
    # This lesson's manifest, and only it: other lessons' steps are not on this page.
    manifests = [u for u in requests if u.endswith("manifest.json")]
    assert [u.removeprefix(site_url) for u in manifests] == [f"practice/{lesson}/manifest.json"]
    assert page.locator(".practice .cm-editor").count() == len(steps)
    for step in steps:
        assert runner(page, step).locator("[data-action='solution']").is_hidden()

    # Every solution passes, in real Pyodide.
    for step in steps:
        assert run_code(page, step, source(step, "solution.py")) == "pass", step

    # Every typical mistake fails with the hint it declares; the first failure
    # carries the same hint in Pyodide as in CPython.
    for step in steps:
        for mistake in mistakes(step):
            code = mistake_source(step, mistake)
            assert run_code(page, step, code) == "fail", f"{step}/{mistake} passes in Pyodide"
            hint = declared_hint(step, mistake)
            failed = runner(page, step).locator(f".practice__check.is-fail[data-hint='{hint}']")
            assert failed.count() >= 1, f"{step}/{mistake}: no failed check with hint {hint!r}"
            first = runner(page, step).locator(".practice__check.is-fail").first
            assert first.get_attribute("data-hint") == first_failure_in_cpython(step, code).hint

    # The help comes in tiers, as in lesson 1 (a nudge, the failing call, a solution).
    step = steps[0]
    code = mistake_source(step, tier_mistake(step))
    assert run_code(page, step, code) == "fail"
    climb_the_tiers(page, step, code)
    runner(page, step).locator("[data-action='solution']").click()
    solution = runner(page, step).locator(".practice__solution").inner_text()
    assert f"def {h.load_step(STEP_DIRS[step] / 'checks.py').FUNCTION}(" in solution

    # One warm worker did all of it.
    assert len([u for u in requests if u.endswith("pyodide.asm.wasm")]) == 1
    assert len(practice_workers(page)) == 1

    page.locator(".practice").screenshot(path=str(screenshots / f"practice-{lesson}.png"))
    violations = axe_violations(page, include=".practice")
    assert violations == [], describe(violations)
