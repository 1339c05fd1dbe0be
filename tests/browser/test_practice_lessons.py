"""The practice sections of lessons 0, 2, 3, 4 and 5 in Debian's Chromium, with the real Pyodide.

The same machinery as lesson 1 (``test_practice.py``), one lesson page per run, from
the table :data:`LESSONS`: the section names its lesson, so the page fetches that
lesson's manifest and no other; every solution passes in Pyodide; every typical mistake
of every step fails there with the hint its file declares, and the first failure says
what CPython's run of the same harness says; the help comes in tiers; axe-core finds no
violation in the section. The ``page`` fixture fails the test on any console error or
any request to another host. (That nothing heavy loads before the section comes near
is lesson 1's test.)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

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


@dataclass(frozen=True)
class Lesson:
    """What one lesson's run needs: its steps (written out, as the page shows them), the
    anchor of its first step, and the mistake whose tiers of help are climbed."""

    steps: tuple[str, ...]
    first_anchor: str
    tier_step: str
    tier_mistake: str
    solution_starts: str


LESSONS = {
    "tokens": Lesson(
        ("01_wordpiece", "02_embed", "03_sinusoidal", "04_add_positions", "05_rope"),
        "#practice-wordpiece",
        "01_wordpiece",
        "shortest_match",
        "def wordpiece",
    ),
    "self-attention": Lesson(
        ("01_project", "02_split_heads", "03_merge_heads", "04_padding", "05_multi_head"),
        "#practice-project",
        "05_multi_head",
        "no_w_o",
        "def multi_head_attention",
    ),
    "transformer-block": Lesson(
        ("01_layer_norm", "02_gelu", "03_feed_forward", "04_post_ln_block"),
        "#practice-layer-norm",
        "02_gelu",
        "tanh_approximation",
        "def gelu",
    ),
    "training": Lesson(
        ("01_softmax_backward", "02_head_backward", "03_grad_check", "04_adam_step"),
        "#practice-softmax-backward",
        "01_softmax_backward",
        "no_dot",
        "def softmax_backward",
    ),
    "scale": Lesson(
        (
            "01_online_softmax",
            "02_tile_update",
            "03_decode_step",
            "04_kv_head",
            "05_sliding_window",
        ),
        "#practice-online-softmax",
        "02_tile_update",
        "acc_not_rescaled",
        "def tile_update",
    ),
}


def mistakes(step: str) -> list[str]:
    return sorted(p.stem for p in (STEP_DIRS[step] / "mistakes").glob("*.py"))


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_lessons_practice_runs_its_own_steps_in_pyodide(
    lesson: str, page: Any, site_url: str, screenshots: Path
) -> None:
    expected = LESSONS[lesson]
    steps = sorted(name for name, folder in STEP_DIRS.items() if folder.parent.name == lesson)
    assert tuple(steps) == expected.steps
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(site_url + f"{lesson}/", wait_until="load")
    section = page.locator(".practice")
    assert section.get_attribute("data-lesson") == lesson

    page.locator(expected.first_anchor).scroll_into_view_if_needed()
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

    # Every typical mistake fails with the hint its file declares; the first failure
    # carries the same hint in Pyodide as in CPython.
    for step in steps:
        for mistake in mistakes(step):
            code = source(step, f"mistakes/{mistake}.py")
            assert run_code(page, step, code) == "fail", f"{step}/{mistake} passes in Pyodide"
            hint = declared_hint(step, mistake)
            failed = runner(page, step).locator(f".practice__check.is-fail[data-hint='{hint}']")
            assert failed.count() >= 1, f"{step}/{mistake}: no failed check with hint {hint!r}"
            first = runner(page, step).locator(".practice__check.is-fail").first
            assert first.get_attribute("data-hint") == first_failure_in_cpython(step, code).hint

    # The help comes in tiers, as in lesson 1 (a nudge, the failing call, a solution).
    step = expected.tier_step
    code = source(step, f"mistakes/{expected.tier_mistake}.py")
    assert run_code(page, step, code) == "fail"
    climb_the_tiers(page, step, code)
    runner(page, step).locator("[data-action='solution']").click()
    shown = runner(page, step).locator(".practice__solution").inner_text()
    assert expected.solution_starts in shown

    # One warm worker did all of it.
    assert len([u for u in requests if u.endswith("pyodide.asm.wasm")]) == 1
    assert len(practice_workers(page)) == 1

    page.locator(".practice").screenshot(path=str(screenshots / f"practice-{lesson}.png"))
    violations = axe_violations(page, include=".practice")
    assert violations == [], describe(violations)
