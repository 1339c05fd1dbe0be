"""The committed numbers of the browser model's JS tests are what attention_ref computes now."""

from __future__ import annotations

from tests.minilm_js_fixture import FIXTURE, render


def test_the_js_fixture_is_current() -> None:
    assert FIXTURE.read_text(encoding="utf-8") == render(), (
        "tests/js/fixtures/minilm-math.json is stale: "
        "run .venv/bin/python -m tests.minilm_js_fixture"
    )
