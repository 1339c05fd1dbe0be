"""Lesson 0's figures: their helpers by hand, the weights hash that keys the cache, the drawing.

The claims the page makes about the figures are in ``test_tokens_claims.py``; the
checks every figure shares (both themes, valid SVG with a title, the cache) run on these
two as well in ``test_figures.py``.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest

from attention_ref.minilm import load_minilm
from site_build import figures as F
from site_build import model_figures as P

SPECS = {spec.name: spec for spec in F.FIGURES}


def test_cosine_matrix_against_a_loop() -> None:
    rows = np.random.default_rng(0).standard_normal((5, 3))
    got = P.cosine_matrix(rows)
    for i in range(5):
        for j in range(5):
            a, b = rows[i].tolist(), rows[j].tolist()
            dot = math.fsum(x * y for x, y in zip(a, b, strict=True))
            norms = math.sqrt(math.fsum(x * x for x in a) * math.fsum(y * y for y in b))
            assert math.isclose(got[i, j], dot / norms, abs_tol=1e-12)


def test_block_means_by_hand_and_bad_sizes() -> None:
    a = np.array([[1.0, 3.0, 0.0, 0.0], [5.0, 7.0, 0.0, 4.0], [2, 2, 2, 2], [2, 2, 2, 6]])
    assert P.block_means(a, 2).tolist() == [[4.0, 1.0], [2.0, 3.0]]
    assert P.block_means(a, 1).tolist() == a.tolist()
    with pytest.raises(ValueError, match="multiple of 3"):
        P.block_means(a, 3)
    with pytest.raises(ValueError, match=r"\(2, 4\)"):
        P.block_means(a[:2], 2)


def test_the_learned_figure_is_keyed_by_the_weights_and_refuses_others() -> None:
    spec = SPECS["learned-positions"]
    # The installer's RECORD hash (read without the 90 MB) is the file's own.
    assert spec.params["weights_sha256"] == load_minilm().weights_sha256
    other = dataclasses.replace(spec, params={**spec.params, "weights_sha256": "0" * 64})
    assert F.cache_key(other) != F.cache_key(spec)
    with pytest.raises(ValueError, match="not 0000"):
        P.learned_similarity("0" * 64)
    names = {p.name for p in F.source_files()} | {p.name for p in spec.sources}
    assert {"model_figures.py", "minilm.py", "positions.py"} <= names


def test_the_similarity_svg_stays_small() -> None:
    # 4 x 4 block means: a 128 x 128 raster. The full 512 x 512 one was 850 KB.
    svgs = F.build_figures(Path(__file__).resolve().parents[1] / ".cache" / "figures")
    for theme in ("light", "dark"):
        assert len(svgs[f"figures/learned-positions-{theme}.svg"]) < 150_000
        assert len(svgs[f"figures/sinusoidal-{theme}.svg"]) < 100_000
