"""The √d_k notebook's prose: every number its markdown cells state, recomputed.

The page is ``docs/notebooks/sqrt_dk.py`` as :func:`testbed.claims.page_html` reads it
(its markdown cells, rendered with the site's extensions). A sentence that names a
setting of the next code cell ("width 512", "4096 independent pairs") is checked
against that cell's code, read with ``ast`` and not run (running the notebook takes a
kernel: ``tests/test_notebook.py`` does it). A sentence that states a fact about random
vectors or softmax is recomputed with ``attention_ref``, by sampling with a fixed seed
and a tolerance sized by the sampling error, or exactly.
"""

from __future__ import annotations

import ast
import functools
import math
from pathlib import Path
from typing import Any

import jupytext  # type: ignore[import-untyped]
import numpy as np

import attention_ref as ar
from site_build.experiments import dot_product_spread
from site_build.figures import FIGURES
from testbed.claims import claim, run_snippet

ROOT = Path(__file__).resolve().parent.parent
PAGE = "notebooks/sqrt_dk.py"
SOURCE = ROOT / "docs" / PAGE
SNIPPET = ROOT / "snippets" / "sqrt_dk.py"


@functools.cache
def notebook_cells() -> tuple[Any, ...]:
    return tuple(jupytext.read(SOURCE).cells)


def cell_after(passage: str) -> str:
    """The source of the first code cell after the markdown cell holding ``passage``."""
    cells = notebook_cells()
    for i, cell in enumerate(cells):
        if cell.cell_type == "markdown" and passage in " ".join(cell.source.split()):
            following = [c for c in cells[i + 1 :] if c.cell_type == "code"]
            assert following, f"no code cell after the one saying {passage!r}"
            return str(following[0].source)
    raise AssertionError(f"no markdown cell of {PAGE} says {passage!r}")


def settings(code: str) -> dict[str, Any]:
    """What ``code`` binds by plain assignments to literals (``n, seed = 4096, 0``), and
    the shape of each ``name = rng.standard_normal(shape)`` draw, as ``("draw", shape)``.

    Examples
    --------
    >>> settings("a, b = 4, 'x'\\nq = rng.standard_normal((1, 8))  # (n_q, d_k)\\nc = f(a)")
    {'a': 4, 'b': 'x', 'q': ('draw', (1, 8))}
    """
    found: dict[str, Any] = {}
    for node in ast.walk(ast.parse(code)):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        pairs = (
            list(zip(target.elts, value.elts, strict=True))
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
            else [(target, value)]
        )
        for name, expr in pairs:
            if not isinstance(name, ast.Name):
                continue
            drawn = (
                isinstance(expr, ast.Call)
                and isinstance(expr.func, ast.Attribute)
                and expr.func.attr == "standard_normal"
                and expr.args
            )
            try:
                if drawn:
                    assert isinstance(expr, ast.Call)
                    found[name.id] = ("draw", ast.literal_eval(expr.args[0]))
                else:
                    found[name.id] = ast.literal_eval(expr)
            except ValueError:  # not a literal: computed, not a setting
                continue
    return found


def test_the_score_of_unit_entries_has_variance_d_k() -> None:
    # 20000 pairs at d_k = 64. q·k is a sum of 64 products, each of variance 1 and fourth
    # moment 9, so its fourth central moment is 3 d² + 6 d and the sample variance's
    # standard error is sqrt((2 d² + 6 d) / N) ≈ 0.65: 3.3 (5%) is five of them. The draws
    # themselves have mean 0 (standard error 0.0016 over 1.28e6 entries) and variance 1.
    rng = np.random.default_rng(33)
    d, n = 64, 20_000
    q = rng.standard_normal((n, 1, d))  # (n_pairs, n_q=1, d_k)
    k = rng.standard_normal((n, 1, d))  # (n_pairs, n_k=1, d_k)
    assert abs(q.mean()) < 0.01 and abs(q.var() - 1) < 0.01
    s = ar.scores(q, k)[:, 0, 0]  # (n_pairs,)
    assert abs(np.var(s) - d) < 0.05 * d
    for passage in ("Draw one query", "Below, 4096", "One query, eight keys"):
        code = cell_after(passage)
        assert "standard_normal" in code and "rng.normal" not in code, passage
    claim(
        PAGE,
        "are independent, with mean 0 and variance 1, the score \\(q \\cdot k\\) has "
        "variance \\(d_k\\).",
    )


def test_one_score_of_width_512_is_of_the_size_sqrt_512() -> None:
    code = settings(cell_after("Draw one query and one key of width 512."))
    assert code["d_k"] == 512
    assert round(math.sqrt(512), 1) == 22.6
    # The typical size of q·k is its standard deviation: over 4000 pairs its relative
    # standard error is about sqrt(2 / 4000) / 2 ≈ 1.1%; 6% is over five of them.
    rng = np.random.default_rng(33)
    q = rng.standard_normal((4000, 1, 512))  # (n_pairs, n_q=1, d_k)
    k = rng.standard_normal((4000, 1, 512))  # (n_pairs, n_k=1, d_k)
    spread = float(np.std(ar.scores(q, k)[:, 0, 0]))
    assert abs(spread / math.sqrt(512) - 1) < 0.06, spread
    claim(PAGE, "Draw one query and one key of width 512.")
    claim(
        PAGE,
        "but there are 512 of them, and their sum is typically of the size "
        "\\(\\sqrt{512} \\approx 22.6\\).",
    )


def test_each_product_has_mean_0_and_variance_1_and_the_scaled_score_variance_1() -> None:
    # 1e5 products: a product of two standard normals has variance 1 and fourth moment 9,
    # so the sample variance's standard error is sqrt(8 / 1e5) ≈ 0.009 (0.05 is over five)
    # and the mean's is 0.0032 (0.02 is over six).
    rng = np.random.default_rng(33)
    q, k = rng.standard_normal((2, 100_000))  # (n_pairs,) each: one q_i, one k_i
    products = q * k
    assert abs(products.mean()) < 0.02 and abs(products.var() - 1) < 0.05
    # The scaled score of width 64 over 20000 pairs: variance 1 within five standard
    # errors (sqrt((2 + 6 / 64) / 20000) ≈ 0.010).
    qs = rng.standard_normal((20_000, 1, 64))  # (n_pairs, n_q=1, d_k)
    ks = rng.standard_normal((20_000, 1, 64))  # (n_pairs, n_k=1, d_k)
    scaled = ar.scale_scores(ar.scores(qs, ks)[:, 0, 0], 64)  # (n_pairs,)
    assert abs(np.var(scaled) - 1) < 0.05
    claim(
        PAGE,
        r"each with mean 0 and variance \(\mathbb{E}[q_i^2]\,\mathbb{E}[k_i^2] = 1\)",
    )
    claim(
        PAGE,
        r"\operatorname{Var}\!\left(\frac{q \cdot k}{\sqrt{d_k}}\right) = 1.\]",
    )


def test_the_spread_table_is_4096_pairs_of_the_figures_seed_and_hovers_around_1() -> None:
    code = settings(cell_after("Below, 4096 independent pairs per width."))
    assert (code["n_pairs"], code["seed"]) == (4096, 0)
    (spec,) = [s for s in FIGURES if s.name == "spread"]
    assert (spec.params["n_samples"], spec.params["seed"]) == (4096, 0)
    # "Hovers around 1": at d_k = 1 the ratio's standard error is sqrt(8 / 4096) ≈ 0.044
    # (at larger widths less); 0.25 is over five of them.
    data = dot_product_spread(**spec.params)
    ratios = data.unscaled / data.d_k
    assert np.all(np.abs(ratios - 1) < 0.25), ratios
    claim(PAGE, "Below, 4096 independent pairs per width. The ratio column should hover around 1.")
    claim(PAGE, "(a generator of its own, seed 0)")


def test_the_lesson_snippet_draws_one_500_by_500_matrix_at_three_widths() -> None:
    variables = run_snippet("sqrt_dk.py")
    assert variables["dots"].shape == (500, 500)
    section = SNIPPET.read_text(encoding="utf-8").split("[start:variance]")[1]
    section = section.split("# --8<-- [end:variance]")[0]
    loop = next(n for n in ast.walk(ast.parse(section)) if isinstance(n, ast.For))
    assert ast.literal_eval(loop.iter) == (4, 64, 512), "three widths"
    claim(PAGE, "(one 500 × 500 score matrix at three widths)")


def test_one_query_eight_keys_width_256_then_16_keys() -> None:
    code = settings(cell_after("One query, eight keys, width 256."))
    assert (code["q"], code["k"]) == (("draw", (1, 256)), ("draw", (8, 256)))
    sweep = settings(cell_after("Now the same sweep as above, with 16 keys per query."))
    assert sweep["n_keys"] == 16
    claim(PAGE, "One query, eight keys, width 256.")
    claim(PAGE, "Now the same sweep as above, with 16 keys per query.")


def test_the_largest_weight_and_the_entropy_at_their_ends() -> None:
    # One key's score 1000 above the others': softmax gives it weight 1 to within
    # exp(-1000), which underflows to 0; the weights sum to 1, so the rest are 0.
    q = np.array([[1.0, 0.0]])  # (n_q=1, d_k=2)
    k = np.array([[1000.0, 0.0], *[[0.0, 0.0]] * 15])  # (n_k=16, d_k=2)
    one_hot = ar.attention_weights(q, k, scale=1.0)[0]  # (n_k,)
    assert abs(one_hot.max() - 1) < 1e-12 and one_hot[1:].max() < 1e-12
    assert abs(float(ar.entropy(one_hot))) < 1e-12
    uniform = ar.attention_weights(q, np.zeros((16, 2)))[0]  # (n_k,): equal scores
    assert np.allclose(uniform, 1 / 16)
    h = float(ar.entropy(uniform))
    assert abs(h - math.log(16)) < 1e-12 and f"{h:.2f}" == "2.77"
    claim(PAGE, "the largest weight (1 means all attention on one key)")
    claim(
        PAGE,
        "which is \\(\\ln 16 \\approx 2.77\\) for uniform weights and 0 for one-hot ones.",
    )
