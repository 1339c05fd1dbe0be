"""The claims docs/transformer-block.md makes in prose, captions and alt text.

Sybil checks every printed output against the page; these tests check the sentences
written around them. Each test recomputes the fact (from ``attention_ref``, from the
model's weights, or from a snippet's own variables) and finds the sentence on the page
as rendered (:func:`testbed.claims.claim`), so it fails when the numbers move and when
the sentence is edited without it.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_ref import causal_mask, multi_head_attention, scaled_dot_product_attention
from attention_ref.block import feed_forward, gelu, layer_norm
from attention_ref.minilm import MiniLM, load_minilm, model_dir
from site_build import figures
from testbed.claims import cited, claim, page_text, run_snippet, snippet_fixture

PAGE = "transformer-block.md"
ROOT = Path(__file__).resolve().parents[1]
PARTIALS = ROOT / "docs" / "partials"


@pytest.fixture(scope="module")
def model() -> MiniLM:
    return load_minilm()


recomputed = snippet_fixture("recomputed", "minilm_recomputed.py")


def alt_texts(partial: str) -> list[str]:
    text = (PARTIALS / partial).read_text(encoding="utf-8")
    return re.findall(r"!\[([^\]]+)\]\(figures/", text)


def alt_claim(partial: str, sentence: str) -> None:
    """The sentence is in the alt text of both the light and the dark image."""
    alts = alt_texts(partial)
    assert len(alts) == 2 and alts[0] == alts[1], f"{partial}: light and dark alt texts differ"
    assert sentence in alts[0], f"{sentence!r} is no longer in the alt text of {partial}"


# ------------------------------------------------------------------------- the model


def test_the_model_is_six_blocks_four_times_wider_inside(model: MiniLM) -> None:
    claim(PAGE, "a two-layer network four times wider than the model")
    claim(PAGE, "Stack six of these blocks on top of learned embeddings")
    claim(PAGE, r"In all-MiniLM-L6-v2, \(d_{model} = 384\) and the hidden layer has 1536 units")
    claim(PAGE, r"(all-MiniLM-L6-v2 uses \(10^{-12}\))")
    c = model.config
    assert (c.layers, c.hidden, c.intermediate, c.heads) == (6, 384, 1536, 12)
    assert c.intermediate == 4 * c.hidden and c.eps == 1e-12
    assert all(layer.w_1.shape == (384, 1536) for layer in model.layers)


def test_the_embedding_tables_and_the_stack(model: MiniLM) -> None:
    claim(
        PAGE,
        "learned embeddings for 30,522 WordPiece tokens, 512 positions and two segment "
        "types, summed and normalised, then six post-LN blocks of width 384 with 12 heads each",
    )
    assert model.word_embeddings.shape == (30_522, 384)
    assert model.position_embeddings.shape == (512, 384)
    assert model.token_type_embeddings.shape == (2, 384)
    assert len(model.layers) == 6 and model.config.heads == 12


def test_minilm_is_post_ln_written_out_from_the_parts(model: MiniLM) -> None:
    """The first block's output is LN(h + FFN(h)), h = LN(x + MHA(x)): the parts, by hand."""
    claim(
        PAGE, "The original transformer, BERT and all-MiniLM-L6-v2 normalise after the residual sum"
    )
    run = model.run("The animal didn't cross the street because it was too tired.")
    p, x = model.layers[0], run.hidden_states[0]  # (n, 384)
    biases = {"b_q": p.b_q, "b_k": p.b_k, "b_v": p.b_v, "b_o": p.b_o}
    a = multi_head_attention(x, p.w_q, p.w_k, p.w_v, p.w_o, num_heads=12, **biases)
    h = layer_norm(x + a, p.norm1_gain, p.norm1_bias)
    y = layer_norm(h + feed_forward(h, p.w_1, p.b_1, p.w_2, p.b_2), p.norm2_gain, p.norm2_bias)
    np.testing.assert_allclose(run.hidden_states[1], y, atol=1e-9)
    pre = x + a  # what a pre-LN block would add (no norm on the stream): not the model
    assert (
        np.abs(run.hidden_states[1] - (pre + feed_forward(pre, p.w_1, p.b_1, p.w_2, p.b_2))).max()
        > 1
    )


# ----------------------------------------------------------------------- residuals


def test_the_residual_carries_the_gradient() -> None:
    claim(PAGE, "Twelve random linear sublayers, each of which shrinks the vectors it is given")
    claim(PAGE, "less than a millionth of the gradient reaches the bottom of the stack")
    claim(PAGE, "With it, the gradient keeps about the size it had at the top.")
    r = run_snippet("residual.py")
    w = r["w"]  # (layers, d, d)
    assert w.shape[0] == 12
    rng = np.random.default_rng(5)
    v = rng.standard_normal((1000, w.shape[1]))
    for w_i in w:  # each layer shrinks a random vector, on average to about 1/4
        gain = np.linalg.norm(v @ w_i.T, axis=1) / np.linalg.norm(v, axis=1)
        assert gain.mean() < 0.5
    assert np.linalg.norm(r["g_plain"]) / r["top"] < 1e-6
    assert 0.5 < np.linalg.norm(r["g_residual"]) / r["top"] < 2


def test_a_silent_sublayer_keeps_the_stream_only_without_a_norm_after_the_sum() -> None:
    """Issue 30 (k): in post-LN, LN(x + 0) is not x, and the gradient goes through the norm.

    Checked with LayerNorm written out by hand (gain 1, bias 0) and with finite differences.
    """
    claim(PAGE, "it never has to learn to copy its input.")
    claim(
        PAGE,
        "Where the sum is all there is, as in the pre-LN blocks below, a sublayer that outputs"
        " zeros leaves the stream as it was.",
    )
    claim(
        PAGE,
        "In the post-LN block this lesson builds, a LayerNorm follows the sum, so even a silent"
        " sublayer changes the stream, unless it was already normalised.",
    )
    claim(PAGE, "the identity term passes the gradient on.")
    claim(
        PAGE,
        "(In post-LN, the norm after the sum multiplies in its own derivative too.)",
    )
    claim(PAGE, "stacked once without and once with the residual, and no norm:")
    claim(PAGE, "the identity term passes the gradient back (through a norm, in post-LN)")

    def ln(v: np.ndarray) -> np.ndarray:  # gain 1, bias 0, eps 1e-12: by hand
        mu = sum(v) / len(v)
        var = sum((e - mu) ** 2 for e in v) / len(v)
        return np.array([(e - mu) / math.sqrt(var + 1e-12) for e in v])

    x = np.array([3.0, -1.0, 0.5, 2.0])
    zero = np.zeros_like(x)
    assert np.array_equal(x + zero, x)  # pre-LN: x + F(LN(x)) with F = 0 is x
    assert np.abs(ln(x + zero) - x).max() > 0.5  # post-LN: LN(x + 0) moves x
    normalised = ln(x)
    assert np.abs(ln(normalised + zero) - normalised).max() < 1e-9  # unless already normalised
    # The derivative of x -> LN(x + 0), by central differences: not the identity.
    h = 1e-6
    jac = np.array([(ln(x + h * e) - ln(x - h * e)) / (2 * h) for e in np.eye(len(x))]).T
    assert np.abs(jac - np.eye(len(x))).max() > 0.1
    # The residual demo has no norm in it.
    source = (ROOT / "snippets" / "residual.py").read_text(encoding="utf-8")
    code = source.split("[start:gradient]")[1].split("[end:gradient]")[0]
    assert "layer_norm" not in code and "import attention_ref" not in code


# ------------------------------------------------------------------------ the norm


def test_layer_norm_per_token_gain_and_bias() -> None:
    claim(PAGE, "Two tokens that differ only by a factor of ten come out the same")
    claim(
        PAGE,
        "a gain of 2 doubles the first feature, a gain of one half halves the fourth, and a "
        "bias of 1 shifts the second by one",
    )
    s = run_snippet("layer_norm.py")
    x, y, gain, bias = s["x"], s["y"], s["gain"], s["bias"]
    np.testing.assert_array_equal(x[1], 10 * x[0])
    np.testing.assert_allclose(y[0], y[1], atol=1e-12)
    assert gain.tolist() == [2.0, 1.0, 1.0, 0.5] and bias.tolist() == [0.0, 1.0, 0.0, 0.0]
    shaped = layer_norm(x[:1], gain, bias)[0]
    np.testing.assert_allclose(shaped, [2 * y[0, 0], y[0, 1] + 1, y[0, 2], y[0, 3] / 2])


def test_post_ln_keeps_the_length_pre_ln_lets_it_grow() -> None:
    claim(PAGE, "six random blocks (width 64, gain 1 and bias 0 in every norm)")
    claim(PAGE, r"After a post-LN block every token has length \(\sqrt{64} = 8\)")
    claim(PAGE, "exactly what a norm with gain 1 and bias 0 leaves")
    claim(PAGE, "in the pre-LN stack the stream grows with every block")
    s = run_snippet("post_pre_ln.py")
    stack, x0 = s["stack"], s["x0"]
    assert len(stack) == 6 and x0.shape[1] == 64
    for p in stack:
        for v in (p.norm1_gain, p.norm2_gain):
            assert v.tolist() == [1.0] * 64
        for v in (p.norm1_bias, p.norm2_bias):
            assert v.tolist() == [0.0] * 64
    x, pre_norms = x0, []
    post = x0
    for p in stack:
        post = s["post_ln"](post, p)
        np.testing.assert_allclose(np.linalg.norm(post, axis=1), 8.0, rtol=1e-9)  # every token
        x = s["pre_ln"](x, p)
        pre_norms.append(np.linalg.norm(x))  # the whole stream, every token
    assert (np.diff([np.linalg.norm(x0), *pre_norms]) > 0).all()


# ------------------------------------------------------------- the feed-forward network


def test_gelu_against_relu() -> None:
    claim(
        PAGE,
        "it follows ReLU for large inputs, and it lets small negative inputs through as small"
        " negative outputs",
    )
    claim(PAGE, "differs from it in the fourth decimal")
    assert abs(float(gelu(3.0)) - 3.0) < 0.01 and abs(float(gelu(6.0)) - 6.0) < 1e-8
    for z in (-0.1, -0.5, -1.0):
        assert z < float(gelu(z)) < 0
    xs = np.linspace(-8, 8, 160_001)
    tanh = 0.5 * xs * (1 + np.tanh(math.sqrt(2 / math.pi) * (xs + 0.044715 * xs**3)))
    gap = np.abs(tanh - gelu(xs)).max()
    assert 1e-4 <= gap < 1e-3  # the fourth decimal


def test_which_gelu_the_model_and_the_literature_use(model: MiniLM) -> None:
    """Issue 30 (a): the erf form is what MiniLM's config names; the tanh form is BERT's code's."""
    claim(PAGE, "all-MiniLM-L6-v2's configuration asks for gelu, which Hugging Face's transformers")
    cited(
        PAGE,
        "computes that way (activations.py)",
        "https://github.com/huggingface/transformers/blob/main/src/transformers/activations.py",
    )
    cited(
        PAGE,
        "Google's original BERT code uses it (modeling.py), and so does GPT-2's (model.py).",
        "https://github.com/google-research/bert/blob/master/modeling.py",
        "https://github.com/openai/gpt-2/blob/master/src/model.py",
    )
    config = json.loads((model_dir() / "config.json").read_text(encoding="utf-8"))
    assert config["hidden_act"] == "gelu"  # transformers' ACT2FN["gelu"]: the erf form
    # attention_ref's GELU is the erf form, against Phi written out with math.erf.
    for x in (-2.7, -1.0, 0.3, 2.0):
        assert abs(float(gelu(x)) - x * (1 + math.erf(x / math.sqrt(2))) / 2) < 1e-12
    # The practice says the same, in its page text, its starter and its tanh hint.
    claim(PAGE, "the one all-MiniLM-L6-v2's configuration names")
    step = ROOT / "snippets" / "practice" / "transformer-block" / "02_gelu"
    assert "configuration names" in (step / "starter.py").read_text(encoding="utf-8")
    hint = _step_hints(step)["gelu-tanh"]
    assert "original BERT code" in hint and "configuration names the exact GELU" in hint


def _step_hints(step: Path) -> dict[str, str]:
    """The HINTS of a practice step's checks.py, read without running the harness."""
    import ast

    tree = ast.parse((step / "checks.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "HINTS":
            value: dict[str, str] = ast.literal_eval(node.value)  # type: ignore[arg-type]
            return value
    raise AssertionError(f"{step.name}/checks.py has no HINTS")


def test_the_activation_figure() -> None:
    spec = next(s for s in figures.FIGURES if s.name == "gelu-relu")
    data = spec.compute(**spec.params)
    alt_claim("figure_gelu_relu.md", "for inputs from -4 to 3")
    claim(PAGE, r"The original transformer used ReLU, \(\max(0, x)\), which cuts every")
    claim(PAGE, "ReLU switches at 0 with a corner")
    alt_claim("figure_gelu_relu.md", "to its lowest point of about -0.17 near x = -0.75")
    assert (data.x.min(), data.x.max()) == (-4.0, 3.0)
    assert round(data.gelu_min, 2) == -0.17 and round(data.gelu_argmin, 2) == -0.75
    np.testing.assert_array_equal(data.relu, np.maximum(data.x, 0))
    left, right = data.x < 0, data.x > 0  # the corner: slope 0 on one side, 1 on the other
    assert (data.relu[left] == 0).all() and (data.relu[right] == data.x[right]).all()
    # GELU's minimum, by hand: d/dx x Phi(x) = Phi(x) + x phi(x) = 0 near x = -0.7518.
    root = -0.7517916
    phi = math.exp(-root * root / 2) / math.sqrt(2 * math.pi)
    assert abs(0.5 * math.erfc(-root / math.sqrt(2)) + root * phi) < 1e-6
    assert abs(data.gelu_argmin - root) < 2e-4


def test_the_feed_forward_holds_two_thirds(model: MiniLM) -> None:
    claim(
        PAGE,
        "The feed-forward network holds two thirds of the block's weights, twice as many as "
        "attention",
    )
    claim(PAGE, "The two norms are a rounding error.")
    claim(PAGE, r"that is \(8\,d_{model}^2\) numbers, against attention's four matrices")
    counts = run_snippet("feed_forward.py")["counts"]
    assert counts == {"attention": 591_360, "feed-forward": 1_181_568, "norms": 1_536}
    # The same split from attention_ref's own view of the layer.
    assert model.layers[0].parameter_counts() == {
        "attention": counts["attention"],
        "feed_forward": counts["feed-forward"],
        "norms": counts["norms"],
    }
    total = sum(counts.values())
    assert abs(counts["feed-forward"] / total - 2 / 3) < 0.001
    assert abs(counts["feed-forward"] / counts["attention"] - 2) < 0.01
    assert counts["norms"] / total < 0.001
    d = 384
    assert 2 * d * 4 * d == 8 * d * d and model.layers[0].w_2.shape == (4 * d, d)


def test_the_cost_crossover_is_six_d_model() -> None:
    claim(PAGE, r"found the crossover at \(n = 4\,d_{model}\)")
    claim(PAGE, r"The two are equal at \(n = 6\,d_{model}\)")
    claim(PAGE, r"attention dominates only past \(n = 6\,d_{model}\).")
    claim(PAGE, r"Past \(n = 6\,d_{model}\), the \(n^2\) terms dominate.")
    claim(
        PAGE,
        "Below six times the model's width, a block spends most of its work on matrix products",
    )
    claim(
        PAGE,
        "For texts shorter than twice the model's width, the feed-forward network alone does "
        "more than half of it.",
    )
    for d in (64, 384, 768):

        def linear(n: int, d: int = d) -> int:
            return 12 * n * d * d

        def attention(n: int, d: int = d) -> int:
            return 2 * n * n * d

        def ffn_share(n: int, d: int = d) -> float:
            return 8 * n * d * d / (linear(n) + attention(n))

        assert 4 * (4 * d) * d * d == (4 * d) ** 2 * d  # lesson 2's crossover, scores only
        assert linear(6 * d) == attention(6 * d)
        assert linear(6 * d - 1) > attention(6 * d - 1) and linear(6 * d + 1) < attention(6 * d + 1)
        assert ffn_share(2 * d - 1) > 0.5 and ffn_share(2 * d) == 0.5
    assert run_snippet("feed_forward.py")["MODELS"] == {"all-MiniLM-L6-v2": 384, "GPT-2 small": 768}


# ------------------------------------------------------------ all-MiniLM-L6-v2, counted


def test_the_parameter_split(model: MiniLM) -> None:
    claim(
        PAGE,
        "More than half of the model is its vocabulary: the table of one vector per token "
        "alone is larger than all six blocks together.",
    )
    claim(PAGE, "Within the blocks, the feed-forward networks hold twice what attention does.")
    claim(PAGE, "which this model never uses")
    counts = run_snippet("minilm_params.py")["counts"]
    # Independently: the tables' sizes, attention_ref's layers and the norms by hand.
    d = 384
    layers = [layer.parameter_counts() for layer in model.layers]
    assert counts["embeddings"] == (30_522 + 512 + 2) * d
    assert counts["attention"] == sum(c["attention"] for c in layers) == 6 * (4 * d * d + 4 * d)
    assert counts["feed-forward"] == sum(c["feed_forward"] for c in layers)
    assert counts["norms"] == 2 * d + 6 * 4 * d  # the embeddings' norm, then 2 per block
    assert counts["pooler (unused)"] == d * d + d
    used = counts["embeddings"] + counts["attention"] + counts["feed-forward"] + counts["norms"]
    # Every array of the file is counted once, but the position ids (integers, not learned).
    assert used + counts["pooler (unused)"] + 512 == sum(w.size for w in model.weights.values())
    assert model.weights["embeddings.position_ids"].dtype.kind == "i"
    assert model.word_embeddings.size / used > 0.5
    assert model.word_embeddings.size > sum(sum(c.values()) for c in layers)
    assert abs(counts["feed-forward"] / counts["attention"] - 2) < 0.01
    # Issue 30 (m): the percentages are of the used total; the pooler's is on top of it.
    claim(PAGE, "The percentages are of the used total, so the pooler's comes on top.")
    shown = run_snippet("minilm_params.py")
    printed = [
        round(100 * counts[p] / used, 2)
        for p in ("embeddings", "attention", "feed-forward", "norms")
    ]
    assert abs(sum(printed) - 100) <= 0.02  # four roundings of half a hundredth at most
    assert shown["used"] == used and round(100 * counts["pooler (unused)"] / used, 2) == 0.66
    # The pooler is not used: the sentence embedding is the mean of the last states.
    run = model.run("A short sentence.")
    mean = run.hidden_states[-1].mean(axis=0)
    np.testing.assert_allclose(run.embedding, mean / np.linalg.norm(mean), atol=1e-12)


# -------------------------------------------------------------- the model, recomputed


def test_it_looks_at_animal_in_a_head_of_the_fourth_block(recomputed: dict[str, Any]) -> None:
    claim(PAGE, "In one head of the fourth block, it gives most of its weight to animal")
    claim(PAGE, "the row the first lesson's heatmap opens on, now computed here")
    claim(PAGE, "layer 4, head 2 (attentions[3, 1] in the code)")
    claim(PAGE, "The page counts layers and heads from 1, as the heatmap does; the arrays, like")
    r = recomputed
    assert (int(r["layer"]), int(r["head"])) == (3, 1)  # indices from 0: layer 4, head 2
    row = r["row"]
    assert row.argmax() == r["animal"] and row[r["animal"]] > 0.5
    # The head lesson 1's heatmap opens on, found in the saved data by its own snippet.
    lesson_1 = run_snippet("heatmap_numbers.py")
    assert tuple(int(i) for i in lesson_1["best"]) == (int(r["layer"]), int(r["head"]))


def test_it_equals_the_saved_data_within_its_rounding(recomputed: dict[str, Any]) -> None:
    claim(
        PAGE,
        "Every attention weight of every head, for both sentences the heatmap shows, agrees "
        "with it to the precision it was saved with",
    )
    claim(
        PAGE,
        "The file stores each weight rounded to four decimals, so half a unit of the fourth "
        "decimal is as close as any computation can get to it",
    )
    saved = recomputed["saved"]
    assert saved["scale"] == 10_000 and len(saved["sentences"]) == 2
    model = recomputed["model"]
    for sentence in saved["sentences"]:
        ours = model.run(sentence["text"]).attentions
        theirs = np.array(sentence["attention"]) / saved["scale"]
        assert ours.shape == theirs.shape == (6, 12, 16, 16)
        assert np.abs(ours - theirs).max() <= 0.5 / saved["scale"] + 1e-5


def test_the_suite_compares_with_transformers_itself() -> None:
    claim(
        PAGE,
        "the test suite also compares the model with transformers itself, where transformers "
        "is installed",
    )
    oracle = (ROOT / "tests" / "test_minilm_torch.py").read_text(encoding="utf-8")
    assert "transformers" in oracle and "importorskip" in oracle


def test_one_token_through_the_stack(recomputed: dict[str, Any]) -> None:
    claim(
        PAGE,
        "after every block but the last, the cosine with what the block was given is at least"
        " four fifths",
    )
    claim(PAGE, "until its cosine with its own embedding is below one third")
    claim(PAGE, "The last block turns it the most")
    states = recomputed["states"]  # (7, 384)
    norms = np.linalg.norm(states, axis=1)
    step = (states[1:] * states[:-1]).sum(axis=1) / (norms[1:] * norms[:-1])  # (6,)
    start = states @ states[0] / (norms * norms[0])  # (7,)
    assert (step[:-1] >= 0.8).all() and step[-1] < 0.8
    assert step.argmin() == 5
    assert start[-1] < 1 / 3
    assert (np.diff(start) < 0).all()


def test_the_token_path_figure(recomputed: dict[str, Any]) -> None:
    spec = next(s for s in figures.FIGURES if s.name == "token-path")
    data = spec.compute(**spec.params)
    assert data.tokens == recomputed["run"].tokens and data.tokens[data.token] == "it"
    np.testing.assert_allclose(
        data.norms[:, data.token], np.linalg.norm(recomputed["states"], axis=1)
    )
    it_norm, it_cos = data.norms[:, data.token], data.cosines[:, data.token]
    fig = "figure_token_path.md"
    alt_claim(fig, "the embeddings, then blocks 1 to 6 of all-MiniLM-L6-v2")
    alt_claim(
        fig,
        'for "it" it rises from about 8.5 to about 11.6 after the first block, stays near 11 '
        "to block 4 and falls to about 7 after the last two",
    )
    assert round(float(it_norm[0]), 1) == 8.5 and round(float(it_norm[1]), 1) == 11.6
    assert all(abs(v - 11) < 1 for v in it_norm[1:5])
    assert all(abs(v - 7) < 1 for v in it_norm[5:])
    alt_claim(
        fig,
        'for "it" it falls steadily from 1 to about 0.3 after block 6; most other tokens fall'
        " the same way",
    )
    assert it_cos[0] == pytest.approx(1) and (np.diff(it_cos) < 0).all()
    assert round(float(it_cos[-1]), 1) == 0.3
    others = [t for t in range(len(data.tokens)) if t != data.token]
    falling = [
        t
        for t in others
        if (np.diff(data.cosines[:, t]) < 0).sum() >= 5 and data.cosines[-1, t] < 0.6
    ]
    assert len(falling) > len(others) / 2


def test_the_token_path_caption_says_how_far_each_block_turns_it(
    recomputed: dict[str, Any],
) -> None:
    """Issue 30 (j): the caption's turn per block, generated from the hidden states."""
    states = recomputed["states"]  # (7, 384): "it" after the embeddings and each block
    step = []
    for before, after in itertools.pairwise(states):  # a plain cosine
        dot = sum(float(a) * float(b) for a, b in zip(before, after, strict=True))
        step.append(dot / math.sqrt(float(before @ before) * float(after @ after)))
    assert min(step[:5]) >= 0.8 and step[5] < 0.8 and step.index(min(step)) == 5
    last = step[5]
    sentence = (
        "Blocks 1 to 5 each turn it only a little (a cosine of at least four fifths with the "
        "block's input); block 6 turns it the most, to a cosine of "
        f"{last:.2f}, about {math.degrees(math.acos(last)):.0f}°."
    )
    claim(PAGE, sentence)


# ---------------------------------------------------------------- sentence embeddings


def test_semantic_search() -> None:
    claim(PAGE, "The best matches below share not a single word with their questions")
    claim(
        PAGE,
        "For each question, the two sentences about the same topic come first, far ahead of "
        "the rest.",
    )
    claim(PAGE, "the mean of the last hidden states over the tokens, scaled to length 1")
    s = run_snippet("sentence_embeddings.py")
    corpus, vectors, model = s["corpus"], s["vectors"], s["model"]
    # unit rows, to float64 rounding over 384 squares
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-9)

    def words(text: str) -> set[str]:
        return set(re.findall(r"[a-z']+", text.lower()))

    for query, topic in zip(s["questions"], ({0, 1}, {2, 3}), strict=True):
        scores = vectors @ model.run(query).embedding
        order = scores.argsort()[::-1]
        assert set(order[:2].tolist()) == topic
        assert scores[order[1]] - scores[order[2]] > 0.2  # far ahead
        assert not words(query) & words(corpus[order[0]])


# ------------------------------------------------------------------------- the ending


def test_a_kv_cache_needs_one_new_row() -> None:
    claim(PAGE, "each new token then costs one row of attention instead of a whole new matrix")
    rng = np.random.default_rng(0)
    q, k, v = rng.standard_normal((3, 9, 8))
    full = scaled_dot_product_attention(q, k, v, mask=causal_mask(9))
    # The last token's query against the cached keys and values of every token so far.
    np.testing.assert_allclose(scaled_dot_product_attention(q[-1], k, v), full[-1], atol=1e-12)
    np.testing.assert_allclose(
        scaled_dot_product_attention(q[:-1], k[:-1], v[:-1], mask=causal_mask(8)),
        full[:-1],
        atol=1e-12,
    )  # the earlier rows do not change when a token is added


def test_the_practice_section_has_four_steps() -> None:
    claim(PAGE, "Four steps build a post-LN encoder block out of plain Python lists and math")
    steps = sorted((ROOT / "snippets" / "practice" / "transformer-block").glob("[0-9][0-9]_*"))
    assert len(steps) == 4
    text = page_text(PAGE)
    for n in range(1, 5):
        assert f"Step {n}:" in text
    assert "Step 5:" not in text


# ------------------------------------------------------------------ the practice partial


def test_the_practice_gelu_is_x_times_the_normal_cdf() -> None:
    claim(PAGE, "which math.erf gives as (1 + erf(x / sqrt(2))) / 2.")
    for x in (-3.0, -0.75, 0.0, 0.4, 2.5):
        cdf = (1 + math.erf(x / math.sqrt(2))) / 2
        # the normal cdf by Simpson's rule on [-12, x] (the tail below -12 is under 1e-32):
        # 4000 intervals of at most 0.004, error below (b - a) h^4 max|f^(4)| / 180 < 1e-10
        t = np.linspace(-12.0, x, 4001)  # (4001,)
        f = np.exp(-(t**2) / 2) / math.sqrt(2 * math.pi)
        simpson = np.ones(4001)
        simpson[1:-1:2], simpson[2:-1:2] = 4.0, 2.0
        by_sum = float((simpson * f).sum()) * float(t[1] - t[0]) / 3
        assert abs(cdf - by_sum) < 1e-8
        assert abs(float(gelu(x)) - x * cdf) < 1e-12  # attention_ref's exact GELU


def test_the_practice_block_ends_with_a_norm(monkeypatch: pytest.MonkeyPatch) -> None:
    """Step 4's solution, with the last norm's gain 1 and bias 0: rows of mean 0, variance 1."""
    claim(PAGE, "the last norm leaves every row with mean 0 and variance 1.")
    import random
    import runpy

    practice = ROOT / "snippets" / "practice"
    monkeypatch.syspath_prepend(str(practice))
    step = practice / "transformer-block" / "04_post_ln_block"
    checks = runpy.run_path(str(step / "checks.py"))
    solution = runpy.run_path(str(step / "solution.py"))
    rng = random.Random(7)
    x = [[rng.uniform(-2, 2) for _ in range(3)] for _ in range(4)]  # (4, 3)
    p = {**checks["model"](3, 12, rng=rng), "norm_2_gain": [1.0] * 3, "norm_2_bias": [0.0] * 3}
    rows = np.array(solution["post_ln_block"](x, p))  # (4, 3)
    # eps = 1e-12 in the norm: the variance is v / (v + eps), 1 to about 1e-11
    np.testing.assert_allclose(rows.mean(axis=1), 0.0, atol=1e-9)
    np.testing.assert_allclose(rows.var(axis=1), 1.0, atol=1e-9)


def test_a_blocks_linear_and_quadratic_work_counted_from_its_weights(model: MiniLM) -> None:
    """The coefficients of the cost formulas, counted from all-MiniLM-L6-v2's matrices."""
    claim(PAGE, r"It has two matrices of \(d_{model} \times 4\,d_{model}\), that is")
    claim(
        PAGE,
        r"per token, \(4\,d_{model}^2\) multiply-adds for the four projections and "
        r"\(8\,d_{model}^2\) for the feed-forward network, \(12\,n\,d_{model}^2\) in all.",
    )
    claim(
        PAGE,
        r"The part that grows with \(n^2\) is the scores and the mixing of the values, "
        r"\(2\,n^2 d_{model}\).",
    )
    claim(PAGE, r"Cost: \(12\,n\,d_{model}^2\) linear against \(2\,n^2 d_{model}\) for attention")
    d, h = 384, 12
    layer = model.layers[0]  # EncoderLayerWeights
    assert layer.w_1.shape == (d, 4 * d) and layer.w_2.shape == (4 * d, d)
    # a token's row times a (rows, cols) matrix: rows * cols multiply-adds
    projections = sum(w.size for w in (layer.w_q, layer.w_k, layer.w_v, layer.w_o))
    ffn = layer.w_1.size + layer.w_2.size
    assert (projections, ffn) == (4 * d * d, 8 * d * d)
    n = 10
    scores = h * n * n * (d // h)  # every query with every key, in every head
    mixing = h * n * n * (d // h)  # every weight times a value row of its head
    assert n * (projections + ffn) == 12 * n * d * d and scores + mixing == 2 * n * n * d
