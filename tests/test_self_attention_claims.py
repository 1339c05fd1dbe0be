"""The claims docs/self-attention.md makes in prose, about numbers its snippets print.

Sybil checks every printed output against the page; these tests check the sentences
written around them, reading the snippets' own variables.
"""

from __future__ import annotations

import contextlib
import io
import runpy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_ref import attention_weights, causal_mask

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "self-attention.md").read_text(encoding="utf-8")


def run(snippet: str) -> dict[str, Any]:
    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(ROOT / "snippets" / snippet))


@pytest.fixture(scope="module")
def example() -> dict[str, Any]:
    return run("self_attention.py")


def claim(text: str) -> None:
    """The sentence is still on the page (joined across line breaks)."""
    assert text in " ".join(PAGE.split()), text


def test_where_each_token_looks(example: dict[str, Any]) -> None:
    claim("Token 0 looks mostly at itself, token 2 mostly at token 1, and token 1 spreads")
    a = example["A"]  # (n, n)
    assert a[0].argmax() == 0 and a[2].argmax() == 1
    assert a[1].max() < min(a[0].max(), a[2].max())  # the most even row


def test_the_causal_weights(example: dict[str, Any]) -> None:
    claim("Token 1 loses token 2 and shares its weight between the two tokens it may see")
    claim("Token 2, the last, sees everything and keeps the weights it had")
    a, causal = example["A"], example["A_causal"]
    assert causal[0].tolist() == [1.0, 0.0, 0.0]
    assert causal[1, 2] == 0 and causal[1, :2].sum() == pytest.approx(1)
    np.testing.assert_allclose(causal[2], a[2], rtol=1e-15)
    assert causal_mask(3)[1].tolist() == [True, True, False]


def test_the_two_heads_rules(example: dict[str, Any]) -> None:
    claim("Head 0 sends token 2 to the token before it and tokens 0 and 1 to token 0")
    claim("head 1 sends each of the first two tokens to itself and leaves token 2 undecided")
    q_h, k_h = example["Q_h"], example["K_h"]  # (h, n, d_head)
    head0, head1 = attention_weights(q_h[0], k_h[0]), attention_weights(q_h[1], k_h[1])
    assert head0.argmax(axis=1).tolist() == [0, 0, 1]
    assert head1[0].argmax() == 0 and head1[1].argmax() == 1
    np.testing.assert_allclose(head1[2], [1 / 3] * 3, rtol=1e-15)


def test_cost_claims() -> None:
    claim("At 512 tokens the projections dominate; at 4096 the scores do")
    claim("it grows 64-fold when the length grows 8-fold")
    cost = run("multi_head_cost.py")
    models: dict[str, tuple[int, int]] = cost["MODELS"]
    for d_model, h in models.values():
        d_head = d_model // h
        proj = {n: 4 * n * d_model * d_model for n in (512, 4096, 4 * d_model)}
        score = {n: h * n * n * d_head for n in (512, 4096, 4 * d_model)}
        assert proj[512] > score[512] and score[4096] > proj[4096]
        assert proj[4 * d_model] == score[4 * d_model]  # the crossover
    assert (4096 * 4096) // (512 * 512) == 64  # weights held: n^2 per head
