"""The claims docs/attention.md (lesson 1) makes in prose, about numbers its snippets print.

Sybil checks every printed output against the page; these tests check the sentences
written around them. Each test recomputes a fact, from ``attention_ref`` or from a
snippet's own variables (``run_snippet``), asserts it, and finds the sentence on the
page as rendered (``claim``). The claims of the partials the page includes are in
``tests/test_partials_claims.py``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_ref import attention_weights, causal_mask, softmax, softmax_jacobian
from site_build.worked_example import as_floats, read
from testbed.claims import claim, run_snippet, snippet_fixture

PAGE = "attention.md"
ROOT = Path(__file__).resolve().parent.parent

# The worked example's inputs, from their one source (snippets/worked_example.py), so
# that a sentence about them fails when they change. The oracle is independent in how
# it computes: plain loops and math.exp below, not attention_ref or the snippet's steps.
Q, K, V = as_floats(read())  # (d_k,), (n_k, d_k), (n_k, d_v)


example = snippet_fixture("example", "worked_example.py")


def by_hand_scaled() -> list[float]:
    """The worked example's scaled scores from the formula, one dot product at a time."""
    return [sum(a * b for a, b in zip(Q, k, strict=True)) / math.sqrt(len(Q)) for k in K]


def by_hand_weights() -> np.ndarray:
    """The worked example's weights from the formula, one exponential at a time."""
    e = [math.exp(x) for x in by_hand_scaled()]
    return np.array([x / sum(e) for x in e])


def test_the_keys_match_the_query_fully_not_at_all_and_by_half() -> None:
    claim(PAGE, "The first key has exactly the query's pattern, the second shares nothing")
    claim(PAGE, "and the third matches half of it")
    assert (K[0] == Q).all(), f"k_1 = {K[0].tolist()} is not the query's pattern {Q.tolist()}"
    assert K[1] @ Q == 0, f"k_2 shares {K[1] @ Q:g} with the query, not nothing"
    assert K[2] @ Q == (Q @ Q) / 2, f"k_3 matches {K[2] @ Q:g} of the query's {Q @ Q:g}"


def test_the_best_match_gets_the_lions_share(example: dict[str, Any]) -> None:
    claim(PAGE, "Every weight is positive and together they make one.")
    claim(PAGE, r"The lion's share goes to \(\mathbf{k}_1\), the best match, yet")
    w = by_hand_weights()
    np.testing.assert_allclose(example["weights"], w, rtol=1e-12)
    assert (w > 0).all() and w.sum() == pytest.approx(1) and w.argmax() == 0


def test_rows_printed_to_three_decimals_add_up_to_the_output() -> None:
    claim(PAGE, "Printed to three decimals, the rows add up to the output")
    rows = [[round(float(w * x), 3) for x in v] for w, v in zip(by_hand_weights(), V, strict=True)]
    out = by_hand_weights() @ V
    assert [round(sum(col), 3) for col in zip(*rows, strict=True)] == out.round(3).tolist()


def test_a_weight_is_not_a_contribution(example: dict[str, Any]) -> None:
    claim(PAGE, r"\(\mathbf{v}_1\) has the largest weight and gives 89% of the first coordinate.")
    claim(PAGE, r"But \(\mathbf{v}_2\), with the smallest weight, gives 60% of the second")
    claim(PAGE, r"its row moves the output further than \(\mathbf{v}_3\)'s, whose weight is larger")
    claim(PAGE, "a small weight on a large value can move the output more than a large weight")
    w = by_hand_weights()
    rows = w[:, np.newaxis] * V  # (n_k, d_v): the contributions, by hand
    out = rows.sum(axis=0)
    np.testing.assert_allclose(example["output"], out, rtol=1e-12)
    assert w.argmax() == 0 and round(100 * rows[0, 0] / out[0]) == 89
    assert w.argmin() == 1 and round(100 * rows[1, 1] / out[1]) == 60
    assert w[1] < w[2] and np.linalg.norm(rows[1]) > np.linalg.norm(rows[2])
    # The rows the page prints (step 4's contributions) are these, computed by the snippet.
    np.testing.assert_allclose(example["contributions"], rows, rtol=1e-12)


def test_the_second_query_leans_towards_v2(example: dict[str, Any]) -> None:
    claim(PAGE, r"The second query finds its best match in \(\mathbf{k}_2\)")
    claim(PAGE, r"and its answer leans towards \(\mathbf{v}_2\).")
    a, out = example["A"], example["out"]
    assert a[1].argmax() == 1
    # Closer to v_2 than the first query's answer is, in both coordinates' direction.
    assert np.linalg.norm(out[1] - V[1]) < np.linalg.norm(out[0] - V[1])


def test_a_longer_query_acts_like_a_lower_temperature() -> None:
    claim(PAGE, "every score grows by the same factor, so softmax favours the best match more")
    claim(PAGE, "a longer query acts like a lower temperature")
    tops = [attention_weights(c * Q, K).max() for c in (0.5, 1, 2, 4)]
    assert tops == sorted(tops) and len(set(tops)) == 4


def test_the_scale_is_an_inverse_temperature() -> None:
    claim(PAGE, r"is an inverse temperature (dividing by \(\sqrt{d_k}\) is a temperature of")
    t = math.sqrt(len(Q))
    np.testing.assert_allclose(attention_weights(Q, K), softmax((K @ Q) / t), rtol=1e-15)


def test_the_keys_are_a_set(example: dict[str, Any]) -> None:
    claim(PAGE, "Shuffle the key-value pairs, keeping each value with its key, and the output")
    order = [2, 0, 1]
    by_loop = sum(w * v for w, v in zip(by_hand_weights(), V, strict=True))
    shuffled = attention_weights(Q, K[order]) @ V[order]
    np.testing.assert_allclose(shuffled, by_loop, rtol=1e-12)
    # "the output stays the same": the section's snippet shuffles the worked example's own.
    np.testing.assert_allclose(run_snippet("order.py")["same"], example["output"], rtol=1e-12)


def test_softmax_ignores_a_shift_and_tends_to_argmax() -> None:
    claim(PAGE, "Adding the same number to every score changes nothing")
    claim(PAGE, r"\(t \to 0\) softmax tends to argmax, all the weight on the best score")
    z = np.array(by_hand_scaled())  # the scores the section's snippet uses
    np.testing.assert_allclose(run_snippet("softmax_why.py")["z"], z, rtol=1e-15)
    np.testing.assert_allclose(softmax(z + 100), softmax(z), rtol=1e-12)
    cold = softmax(z / 0.001)
    assert cold[0] == pytest.approx(1) and cold.argmax() == z.argmax()


def test_the_jacobian_and_the_gradient_reach() -> None:
    claim(PAGE, "Each column adds up to 0: the weights keep adding up to one.")
    claim(PAGE, r"It is largest when \(p_j\) is one half and vanishes as \(p_j\) goes to 0 or to 1")
    ran = run_snippet("softmax_why.py")
    z = np.array(by_hand_scaled())
    p = softmax(z)
    # The derivative by central differences, one score at a time: an oracle of its own.
    h = 1e-6
    cols = [(softmax(z + h * e) - softmax(z - h * e)) / (2 * h) for e in np.eye(len(z))]
    np.testing.assert_allclose(ran["J"], np.array(cols).T, atol=1e-8)
    np.testing.assert_allclose(ran["J"].sum(axis=0), 0, atol=1e-15)
    reach = [2 * x * (1 - x) for x in np.linspace(0, 1, 101)]
    assert max(reach) == pytest.approx(0.5) and reach[0] == reach[-1] == 0
    np.testing.assert_allclose(np.abs(ran["J"]).sum(axis=0), 2 * p * (1 - p), rtol=1e-12)


def test_unscaled_scores_saturate_and_scaled_stay_level() -> None:
    claim(PAGE, "Without scaling, the largest weight creeps towards one as")
    claim(PAGE, "with it, the weights stay in the same comfortable range whatever the width")
    rng = np.random.default_rng(seed=1)
    unscaled, scaled = [], []
    for width in (4, 64, 512):
        q = rng.standard_normal((500, width))
        k = rng.standard_normal((8, width))
        unscaled.append(attention_weights(q, k, scale=1.0).max(axis=-1).mean())
        scaled.append(attention_weights(q, k).max(axis=-1).mean())
    assert unscaled == sorted(unscaled) and unscaled[-1] > 0.9
    assert max(scaled) - min(scaled) < 0.1


def test_even_the_tiny_example_is_more_lopsided_unscaled(example: dict[str, Any]) -> None:
    claim(PAGE, "skipping the division makes the weights visibly more lopsided than the ones")
    claim(PAGE, "That unscaled row is also the row of the query doubled")
    claim(PAGE, r"Even at \(d_k = 4\), skipping the division")
    claim(PAGE, r"here \(\sqrt{d_k} = 2\).)")
    assert len(Q) == 4 and math.sqrt(len(Q)) == 2.0  # the worked example's d_k, and its root
    unscaled = softmax(K @ Q)
    assert unscaled.max() > by_hand_weights().max()
    np.testing.assert_allclose(unscaled, attention_weights(2 * Q, K), rtol=1e-12)
    # The two rows the page prints: the temperature example's "2 * q" and step 3's unscaled.
    temperature = run_snippet("similarity.py")  # its q and K, whatever they are
    doubled = attention_weights(2 * temperature["q"], temperature["K"])
    np.testing.assert_allclose(doubled, example["unscaled"], rtol=1e-12)


def test_dividing_by_d_k_flattens_towards_one_eighth() -> None:
    claim(PAGE, "with eight keys, equal weights would be one eighth each")
    claim(PAGE, "the closer all the scores huddle around 0")
    rng = np.random.default_rng(seed=2)
    tops = []
    for width in (4, 64, 512):
        q, k = rng.standard_normal((500, width)), rng.standard_normal((8, width))
        tops.append(attention_weights(q, k, scale=1 / width).max(axis=-1).mean())
    assert tops == sorted(tops, reverse=True) and tops[-1] - 1 / 8 < 0.02


def test_no_scaling_starts_saturated_with_little_gradient() -> None:
    claim(PAGE, r"A fixed \(1/\sqrt{d_k}\) is right from the start, for any width")
    claim(PAGE, "a learned scale left at 1 (no scaling) starts saturated, where the gradient")
    rng = np.random.default_rng(seed=3)
    for width in (4, 64, 512):  # the fixed scale: unit variance of the scores at every width
        a, b = rng.standard_normal((2000, width)), rng.standard_normal((2000, width))
        assert 0.9 < float(np.var((a * b).sum(axis=1) / math.sqrt(width))) < 1.1
    q, k = rng.standard_normal((500, 512)), rng.standard_normal((16, 512))
    reach = {}
    for name, scale in (("one", 1.0), ("fair", 1 / math.sqrt(512))):
        p = attention_weights(q, k, scale=scale)
        reach[name] = float(np.abs(softmax_jacobian(p)).sum(axis=-2).mean())
        if name == "one":
            assert p.max(axis=-1).mean() > 0.9
    assert reach["one"] < reach["fair"] / 5


def test_zeroing_after_the_softmax_breaks_the_sum() -> None:
    claim(PAGE, "the other weights keep their old values and no longer add up to one")
    w = by_hand_weights()
    late = w * [1, 0, 1]
    hidden = attention_weights(Q, K, mask=[True, False, True])
    assert late.sum() < 1 and late[0] == w[0]
    assert hidden.sum() == pytest.approx(1) and hidden[0] > w[0]


def test_the_first_token_of_a_causal_mask_sees_only_itself() -> None:
    claim(PAGE, "Token 0 can only attend to itself, so all of its weight is on itself.")
    assert causal_mask(3)[0].tolist() == [True, False, False]
    assert attention_weights(K, K, is_causal=True)[0].tolist() == [1.0, 0.0, 0.0]


def test_pitfalls() -> None:
    claim(PAGE, "every score is \\(-\\infty\\) and the naive softmax divides 0 by 0")
    claim(PAGE, "attention_ref returns a row of zeros instead")
    claim(PAGE, "so it is \\(-\\infty\\) there, and a fully masked row turns to NaN again")
    claim(PAGE, "hides exactly the keys it meant to keep")
    assert softmax([-math.inf] * 3).tolist() == [0.0, 0.0, 0.0]
    with np.errstate(over="ignore"):
        past = np.array([-1e9, -70_000.0]).astype(np.float16)  # past float16's limit
    assert np.isneginf(past).all() and float(np.finfo(np.float16).max) == 65504
    keep = np.array([True, False, True])
    wrong = attention_weights(Q, K, mask=~keep)
    assert (wrong[keep] == 0).all() and wrong[~keep].sum() == pytest.approx(1)


def test_mask_conventions_against_torch() -> None:
    """True = may attend in F.scaled_dot_product_attention, = ignore in nn.MultiheadAttention."""
    claim(PAGE, "Here, as in PyTorch's F.scaled_dot_product_attention, True means may attend")
    claim(PAGE, "True in its attn_mask or key_padding_mask means ignore")
    torch = pytest.importorskip("torch", reason="torch is not installed (make model-deps)")
    f = torch.nn.functional
    keep = torch.tensor([[True, False, True]])  # (n_q, n_k)
    q, k = torch.tensor(Q).reshape(1, 4), torch.tensor(K)
    v = torch.tensor(V)
    out = f.scaled_dot_product_attention(q, k, v, attn_mask=keep)
    np.testing.assert_allclose(out.numpy()[0], attention_weights(Q, K, mask=keep[0].numpy()) @ V)
    # nn.MultiheadAttention: True in key_padding_mask removes that key.
    mha = torch.nn.MultiheadAttention(embed_dim=4, num_heads=1, batch_first=True, bias=False)
    x = torch.tensor(K, dtype=torch.float32).unsqueeze(0)  # (1, n, 4)
    _, weights = mha(x, x, x, key_padding_mask=torch.tensor([[False, True, False]]))
    assert (weights[0, :, 1] == 0).all()
    _, weights = mha(x, x, x, attn_mask=torch.tensor([[False, True, False]] * 3))
    assert (weights[0, :, 1] == 0).all()


def test_the_one_line_form_against_torch() -> None:
    claim(
        PAGE, "In PyTorch the same call is F.scaled_dot_product_attention(Q, K, V, attn_mask=keep)"
    )
    ran = run_snippet("one_line.py")
    # A plain loop over batch, head and query is the oracle on every machine.
    q, k, v, keep = ran["Q"], ran["K"], ran["V"], ran["keep"]
    loop = np.zeros_like(ran["out"])
    for b in range(q.shape[0]):
        for h in range(q.shape[1]):
            for i in range(q.shape[2]):
                s = [float(q[b, h, i] @ k[b, h, j]) / 2 for j in range(i + 1)]
                e = [math.exp(x - max(s)) for x in s]
                loop[b, h, i] = sum(x / sum(e) * v[b, h, j] for j, x in enumerate(e))
    np.testing.assert_allclose(ran["out"], loop, rtol=1e-12)
    torch = pytest.importorskip("torch", reason="torch is not installed (make model-deps)")
    t = [torch.from_numpy(a) for a in (q, k, v, keep)]
    out = torch.nn.functional.scaled_dot_product_attention(*t[:3], attn_mask=t[3])
    np.testing.assert_allclose(out.numpy(), ran["out"], rtol=1e-10, atol=1e-12)


def test_the_causal_mask_sees_positions_0_to_i() -> None:
    claim(
        PAGE,
        "If position i could see position i + 1, it would copy the answer, so the causal mask "
        "lets position i see positions 0 to i only",
    )
    assert causal_mask(4).sum(axis=1).tolist() == [1, 2, 3, 4]  # row i: i + 1 keys
    assert not causal_mask(4)[np.triu_indices(4, k=1)].any()  # nothing later


def test_the_cheat_sheet() -> None:
    """Each line of the cheat-sheet restates a fact tested above; here, on the whole set."""
    claim(PAGE, r"\(\sqrt{d_k}\) holds the spread fixed; \(d_k\) would flatten it, 1 saturate it.")
    claim(PAGE, "Nothing is picked outright: gradients reach every score.")
    claim(PAGE, "A weight is not a contribution: a small weight on a large value can move the")
    claim(PAGE, "here True = may attend, in nn.MultiheadAttention True = ignore")
    rng = np.random.default_rng(seed=4)
    q, k = rng.standard_normal((300, 256)), rng.standard_normal((8, 256))
    spread = {
        name: float(np.var(k @ q.T * s))
        for name, s in (("sqrt", 1 / 16), ("d_k", 1 / 256), ("one", 1.0))
    }
    assert 0.8 < spread["sqrt"] < 1.2 and spread["d_k"] < 0.01 and spread["one"] > 200
    p = attention_weights(Q, K)
    assert (np.abs(softmax_jacobian(p)).sum(axis=0) > 0).all()  # every score has reach


def test_the_counts_the_prose_gives_for_its_snippets() -> None:
    """Sizes the prose states are the sizes the snippets use (read from their variables)."""
    claim(PAGE, r"Small enough to do by hand: \(d_k = 4\), \(d_v = 2\), three key-value pairs")
    ran = run_snippet("worked_example.py")
    q, k, v = (np.asarray(ran[name]) for name in ("q", "K", "V"))
    assert q.shape == (4,) and k.shape == (3, 4) and v.shape == (3, 2)
    claim(PAGE, "With random weights, as before training, for five tokens:")
    assert run_snippet("projections.py")["Z"].shape[0] == 5
    claim(PAGE, "The average largest weight among eight random keys:")
    source = (ROOT / "snippets" / "sqrt_dk.py").read_text(encoding="utf-8")
    saturation = source.split("[start:saturation]")[1].split("[end:saturation]")[0]
    assert "standard_normal((8, width))" in saturation  # the section's keys: 8 per query
    claim(PAGE, r"At \(d_k = 512\), with sixteen keys:")
    sq = run_snippet("sqrt_dk.py")
    assert sq["keys"].shape == (16, 512) and sq["width"] == 512  # the last section's keys
    claim(PAGE, "Seven small steps, from the dot product to many queries with any mask")
    lesson = ROOT / "snippets" / "practice" / "attention"
    steps = sorted(p for p in lesson.glob("[0-9]*") if p.is_dir())
    assert len(steps) == 7


def _block(text: str, opening: str) -> list[str]:
    """The indented lines of the admonition or details block that starts with ``opening``."""
    lines = text.split(opening, 1)[1].splitlines()[1:]
    body = []
    for line in lines:
        if line.strip() and not line.startswith("    "):
            break
        body.append(line)
    return body


def test_the_counts_of_the_pages_own_lists() -> None:
    """The lists the prose counts (eight lines, three cautions and pitfalls, four steps)."""
    page = (ROOT / "docs" / "attention.md").read_text(encoding="utf-8")
    heatmap = (ROOT / "docs" / "partials" / "heatmap.md").read_text(encoding="utf-8")
    claim(PAGE, "Attention in eight lines")
    sheet = _block(page, '!!! tip "Attention in eight lines"')
    assert sum(line.startswith("    - ") for line in sheet) == 8
    claim(PAGE, "Three cautions before you read too much into one head")
    cautions = _block(heatmap, '??? note "Three cautions before you read too much into one head"')
    assert sum(line.startswith("    - **") for line in cautions) == 3
    claim(PAGE, "which is why the heatmap's third caution warns against reading weights")
    assert "not an explanation" in [c for c in cautions if c.startswith("    - **")][2]
    claim(PAGE, "Three mask pitfalls")
    pitfalls = _block(page, '!!! warning "Three mask pitfalls"')
    assert sum(line.startswith("    **") for line in pitfalls) == 3
    claim(PAGE, "One call to scaled_dot_product_attention does all four steps")
    worked = page.split("## A worked example")[1].split("\n## ")[0]
    assert [line[:11] for line in worked.splitlines() if line.startswith("### Step")] == [
        f"### Step {i}:" for i in range(1, 5)
    ]


# --- sentences whose numbers are definitions or identities, checked all the same (issue 33)


def test_a_dot_product_is_0_at_right_angles() -> None:
    claim(PAGE, "largest when they point the same way, 0 at right angles, negative when they")
    q = np.array([2.0, 0.0])  # (2,)
    angles = np.linspace(0, math.pi, 181)  # 0 to 180 degrees, one degree apart
    dots = [float(q @ (3 * np.array([math.cos(a), math.sin(a)]))) for a in angles]
    assert int(np.argmax(dots)) == 0  # the same way
    assert abs(dots[90]) < 1e-12  # right angles: 6 cos(pi / 2), 6 times a rounding of 0
    assert all(d < 0 for d in dots[91:])  # pointing apart


def test_a_temperature_below_1_sharpens_above_1_evens_out() -> None:
    claim(PAGE, "below 1 it sharpens the weights, above 1 it evens them out")
    z = K @ Q  # (n_k,): the worked example's raw scores

    def spread_of(t: float) -> tuple[float, float]:  # (largest weight, entropy)
        w = softmax(z / t)
        return float(w.max()), float(-(w * np.log(w)).sum())

    (top_1, h_1) = spread_of(1.0)
    for t in (0.25, 0.5, 0.9):
        top, h = spread_of(t)
        assert top > top_1 and h < h_1, t
    for t in (1.1, 2.0, 4.0):
        top, h = spread_of(t)
        assert top < top_1 and h > h_1, t


def test_the_jacobian_and_its_reach_by_hand() -> None:
    claim(PAGE, r"where \(\delta_{ij}\) is 1 when i = j and 0 otherwise.")
    claim(
        PAGE,
        r"\(\sum_i \lvert \partial p_i / \partial z_j \rvert = 2 p_j (1 - p_j)\), is what this"
        " site calls its gradient reach",
    )
    p = softmax(np.array([1.5, -0.3, 0.2, 2.0]))  # (4,)
    jac = softmax_jacobian(p)  # (4, 4)
    for i in range(4):
        for j in range(4):
            delta = 1.0 if i == j else 0.0
            assert abs(jac[i, j] - p[i] * (delta - p[j])) < 1e-15  # a product or two
    for j in range(4):
        reach = sum(abs(float(jac[i, j])) for i in range(4))
        assert abs(reach - 2 * p[j] * (1 - p[j])) < 1e-15


def test_the_variance_argument_and_its_snippet() -> None:
    """Standard-normal entries; each product has variance 1; their sum d_k; scaled, 1."""
    claim(PAGE, "are independent, with mean 0 and variance 1.")
    claim(PAGE, r"is a sum of \(d_k\) products of variance 1, so its variance is \(d_k\)")
    claim(PAGE, r"Dividing by \(\sqrt{d_k}\) brings it back to 1:")
    source = (ROOT / "snippets" / "sqrt_dk.py").read_text(encoding="utf-8")
    variance = source.split("[start:variance]")[1].split("[end:variance]")[0]
    assert variance.count("rng.standard_normal(") == 2  # q and k: mean 0, variance 1
    # Var(q_i k_i) = E[q_i²] E[k_i²] - (E[q_i] E[k_i])² = 1 · 1 - 0 = 1, by hand; sampled:
    rng = np.random.default_rng(33)
    q, k = rng.standard_normal((2, 4000, 64))  # (4000, d_k) each
    products = q * k  # (4000, 64)
    # 256,000 products of fourth moment 9: the sample variance's standard error is
    # sqrt(8 / 256000) = 0.0056; 5 of them
    assert abs(float(products.var()) - 1) < 0.03
    dots = products.sum(axis=1)  # (4000,): q·k, a sum of d_k = 64 products
    # 4000 sums: relative standard error sqrt((2 + 6/64) / 4000) = 0.023; 5 of them
    assert abs(float(dots.var()) / 64 - 1) < 0.12
    assert abs(float((dots / math.sqrt(64)).var()) - 1) < 0.12  # divided by sqrt(d_k)


def test_hiding_a_key_with_minus_infinity() -> None:
    claim(PAGE, r"\(e^{-\infty} = 0\), and the other weights add up to one again")
    claim(PAGE, r"With the mask written as 0 (keep) or \(-\infty\) (hide) and added to the scores")
    assert math.exp(-math.inf) == 0.0
    keep = np.array([True, False, True])  # (n_k,)
    additive = np.where(keep, 0.0, -np.inf)  # 0 keeps, -inf hides
    w = softmax(by_hand_scaled() + additive)
    assert w[1] == 0.0 and abs(float(w.sum()) - 1) < 1e-15
    np.testing.assert_allclose(w, attention_weights(Q, K, mask=keep), rtol=1e-15)


def test_the_practice_masks_with_minus_infinity_not_zero() -> None:
    """Steps 6 and 7: a masked score of 0 still gets weight, e^0 = 1; minus infinity gets none."""
    claim(PAGE, "query i may look at keys 0 to i and never at a later one")
    claim(PAGE, r"a score of 0 still weighs \(e^0 = 1\).")
    claim(PAGE, "A masked key must get no weight: a score of 0, or the scores multiplied by the")
    assert math.exp(0) == 1.0
    scaled = np.array(by_hand_scaled())  # (n_k,)
    zeroed = softmax(np.where([True, False, True], scaled, 0.0))
    multiplied = softmax(scaled * np.array([1.0, 0.0, 1.0]))
    assert zeroed[1] > 0 and multiplied[1] > 0  # the masked key keeps some weight
    mask = causal_mask(3)  # (3, 3): row i sees keys 0 to i
    assert [np.flatnonzero(row).tolist() for row in mask] == [[0], [0, 1], [0, 1, 2]]
