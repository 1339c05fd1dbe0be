"""The committed numbers of the browser model's JS tests are what attention_ref computes now.

Compared with a tolerance, not byte for byte: the file holds 12 significant digits, so
rounding moves a number by at most 5e-13 of itself, and another CPU's BLAS kernels move
the unrounded number by about 1e-15 (enough to round the 12th digit the other way).
Anything beyond 1e-10 is a real change of attention_ref or of the fixture's inputs.
"""

from __future__ import annotations

import json

from testbed.floats import differences
from tests.minilm_js_fixture import FIXTURE, committed

REL = 1e-10


def test_the_js_fixture_is_current() -> None:
    stale = differences(json.loads(FIXTURE.read_text(encoding="utf-8")), committed(), rel=REL)
    assert not stale, (
        f"tests/js/fixtures/minilm-math.json is stale ({len(stale)} numbers, first: "
        f"{stale[:3]}): run .venv/bin/python -m tests.minilm_js_fixture"
    )


def test_a_real_change_is_caught() -> None:
    # The tolerance is far below what a change of the computation moves.
    now = committed()
    now["layer_norm"]["y"][0][0] *= 1 + 1e-8
    assert differences(json.loads(FIXTURE.read_text(encoding="utf-8")), now, rel=REL)
