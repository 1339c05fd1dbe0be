"""The claims docs/scale.md makes in prose.

Each test recomputes the fact with an independent oracle (a forward pass and attention
written out here with loops over heads, queries and keys, operations counted one by one,
a mask built from its definition, a value worked out by hand) and finds the sentence on
the page as rendered, so it fails when the numbers move and when the sentence is edited.
Sentences about papers and published code use ``cited``: the page must link the source.

The closing table's "what stays exactly equal" column rests on these tests of the
reference (``test_the_closing_table_rests_on_tests`` checks that they are still there):

- KV cache = recompute: tests/test_generate.py,
  ``test_cache_and_recompute_agree_for_every_prompt_length`` (every prompt length of the
  trained model) and ``test_cache_and_recompute_agree_on_random_models_when_sampling``;
- online softmax = softmax: tests/test_at_scale.py, ``test_online_softmax_equals_softmax``
  (against softmax and a plain-loop oracle);
- tiled attention = the formula: tests/test_at_scale.py,
  ``test_tiled_attention_matches_the_plain_loop_oracle`` and
  ``test_tiled_attention_equals_scaled_dot_product_attention``;
- grouped-query attention with g = h = multi-head attention: tests/test_at_scale.py,
  ``test_grouped_query_attention_equals_a_loop_over_heads`` (its ``g == h`` branch), and
  against torch's ``enable_gqa`` in tests/test_at_scale_torch.py;
- a window of at least n = the causal mask: tests/test_at_scale.py,
  ``test_sliding_window_mask_from_its_definition`` (its ``window >= n`` branch).
"""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_ref import at_scale as at_scale_module
from attention_ref import (
    causal_mask,
    kv_cache_bytes,
    online_softmax,
    scaled_dot_product_attention,
    sliding_window_mask,
    tiled_attention,
)
from attention_ref.induction import (
    LAYERS,
    LETTERS,
    START,
    VOCAB,
    Config,
    KVCache,
    decode_multiply_adds,
    decode_step,
    encode,
    generate,
)
from testbed.claims import cited, claim, snippet_fixture

PAGE = "scale.md"
ROOT = Path(__file__).resolve().parents[1]
WEIGHTS: dict[str, Any] = json.loads((ROOT / "data" / "induction_weights.json").read_text())
CONFIG = Config(**WEIGHTS["config"])
PARAMS = {name: np.array(w) for name, w in WEIGHTS["params"].items()}

generation = snippet_fixture("generation", "generation.py")
at_scale = snippet_fixture("at_scale", "at_scale.py")

ARXIV = "https://arxiv.org/abs/"
LLAMA_7B = "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json"
LLAMA_70B = "https://huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json"
HF_MASKS = "https://github.com/huggingface/transformers/blob/"
MISTRAL_CODE = "https://github.com/mistralai/mistral-inference/blob/"
TORCH_SDPA = (
    "https://pytorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention"
)


# --- oracles ---------------------------------------------------------------------------


def plain_softmax(row: list[float]) -> list[float]:
    """Softmax of one row with math.exp, the maximum subtracted; -inf gives 0."""
    top = max(row)
    exps = [math.exp(x - top) if x != -math.inf else 0.0 for x in row]
    total = math.fsum(exps)
    return [e / total for e in exps]


def plain_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, allowed: Any) -> np.ndarray:
    """One head, query by query and key by key: ``allowed(i, j)`` says whether i sees j."""
    n_q, d = q.shape
    out = np.zeros((n_q, v.shape[1]))
    for i in range(n_q):
        keys = [j for j in range(k.shape[0]) if allowed(i, j)]
        scores = [math.fsum(q[i, c] * k[j, c] for c in range(d)) / math.sqrt(d) for j in keys]
        for w, j in zip(plain_softmax(scores), keys, strict=True):
            out[i] += w * v[j]
    return out


def plain_logits(tokens: list[int]) -> np.ndarray:
    """Lesson 4's model on ``tokens``, written out head by head and row by row: (n, 27)."""
    n = len(tokens)
    x = np.array([PARAMS["W_E"][t] + PARAMS["W_pos"][i] for i, t in enumerate(tokens)])
    dh = CONFIG.d_head
    for layer in range(LAYERS):
        merged = np.zeros_like(x)
        for h in range(CONFIG.heads):
            cols = slice(h * dh, (h + 1) * dh)
            q = (x @ PARAMS[f"w_q{layer}"])[:, cols]
            k = (x @ PARAMS[f"w_k{layer}"])[:, cols]
            v = (x @ PARAMS[f"w_v{layer}"])[:, cols]
            merged[:, cols] = plain_attention(q, k, v, lambda i, j: j <= i)
        x = x + merged @ PARAMS[f"w_o{layer}"]
    logits: np.ndarray = x @ PARAMS["W_U"]
    assert logits.shape == (n, VOCAB)
    return logits


def text(tokens: Any) -> str:
    return "".join("^" if t == START else LETTERS[t] for t in tokens)


# --- writing one letter at a time ------------------------------------------------------


def test_greedy_decoding_writes_the_rest_of_the_repeat(generation: dict[str, Any]) -> None:
    claim(PAGE, "The loop below does this four times with lesson 4's model, picking each time")
    claim(PAGE, "the token with the largest logit: greedy decoding.")
    claim(PAGE, "The prompt is the start token, a run of six letters and the run's first two")
    claim(PAGE, "letters again; the model writes the rest of the repeat")
    tokens = encode("^quartzqu")
    for _ in range(4):  # greedy, on the model written out with loops
        tokens.append(int(np.argmax(plain_logits(tokens)[-1])))
    assert text(tokens) == "^quartzquartz" and len("quartz") == 6
    assert generation["tokens"] == tokens
    assert text(generation["out"].prompt) == "^attentionat"  # the loop variable, last run


def test_a_run_with_distinct_letters_is_copied_and_attention_is_not() -> None:
    claim(PAGE, 'The letters of "quartz" are all different, and the model copies the rest exactly.')
    claim(PAGE, 'In "attention" the letter t comes three times, followed by t, e and i, so "the')
    claim(PAGE, 'letter that followed the earlier t" has three answers, and the copy goes wrong at')
    assert len(set("quartz")) == 6
    quartz = generate(PARAMS, encode("^quartzqu"), 4, config=CONFIG)
    assert text(quartz.tokens) == "artz"
    run = "attention"
    followers = [run[i + 1] for i, c in enumerate(run[:-1]) if c == "t"]
    assert followers == ["t", "e", "i"] and run.count("t") == 3
    written = generate(PARAMS, encode("^" + run + run[:2]), len(run) - 2, config=CONFIG)
    assert text(written.tokens)[0] != run[2]  # wrong at once: "t" was next


# --- why recomputing is wasteful -------------------------------------------------------


def counted(n: int, use_cache: bool) -> tuple[int, int]:
    """Multiply-adds for the next token's logits, counted one by one: (linear, attention)."""
    d, d_head = CONFIG.d_model, CONFIG.d_head
    rows = [n - 1] if use_cache else list(range(n))
    linear = attention = 0
    for _layer in range(LAYERS):
        for _row in rows:
            linear += 4 * sum(d for _ in range(d))  # q, k, v, o: d outputs of d products
            for _head in range(CONFIG.heads):  # row i meets keys 0..i: a score, a sum
                attention += sum(2 * d_head for _key in range(_row + 1))
    for _row in rows:
        linear += sum(d for _ in range(VOCAB))  # the logits
    return linear, attention


def test_the_cost_of_one_token_with_and_without_the_cache() -> None:
    claim(PAGE, r"(\(L = 2\) layers, width \(D = 32\), \(V = 27\) tokens)")
    claim(PAGE, "Without the cache, the work for one token grows in proportion to the context, and")
    claim(PAGE, "its attention part with the square of it.")
    claim(PAGE, r"With the cache, only the attention part grows, by \(2D\) multiply-adds per layer")
    claim(PAGE, "for each token in the context.")
    claim(PAGE, "At 24 tokens, this model's whole context, the cache does more than twenty times")
    assert (LAYERS, CONFIG.d_model, VOCAB, CONFIG.max_len) == (2, 32, 27, 24)
    lin1, att1 = counted(1, use_cache=False)
    for n in range(1, CONFIG.max_len + 1):
        slow, fast = counted(n, use_cache=False), counted(n, use_cache=True)
        assert decode_multiply_adds(CONFIG, n, use_cache=False) == sum(slow)
        assert decode_multiply_adds(CONFIG, n, use_cache=True) == sum(fast)
        assert slow[0] == n * lin1  # in proportion to the context
        assert slow[1] * 2 == n * (n + 1) * att1  # the attention part: n (n + 1) / 2 times
        assert fast[0] == lin1  # with the cache the rest stays
        if n > 1:
            assert fast[1] - counted(n - 1, use_cache=True)[1] == 2 * CONFIG.d_model * LAYERS
    at_24 = sum(counted(24, False)) / sum(counted(24, True))
    assert 20 < at_24 < 22


# --- the cache -------------------------------------------------------------------------


def test_keys_and_values_never_change_once_computed() -> None:
    claim(PAGE, "In layer 1 a token's key and value depend only on the token and its position; in")
    claim(PAGE, "So once computed, they never change, and a decoder keeps them")
    # Append tokens and run the model written out again: the keys and values of every
    # earlier position, in both layers, are what they were. (Same products, other matrix
    # sizes: 1e-12 covers a different summation order.)
    short, longer = encode("^quartz"), encode("^quartzquax")

    def keys_values(tokens: list[int]) -> list[np.ndarray]:
        x = np.array([PARAMS["W_E"][t] + PARAMS["W_pos"][i] for i, t in enumerate(tokens)])
        found = []
        for layer in range(LAYERS):
            found += [x @ PARAMS[f"w_k{layer}"], x @ PARAMS[f"w_v{layer}"]]
            z = np.zeros_like(x)
            for h in range(CONFIG.heads):
                cols = slice(h * CONFIG.d_head, (h + 1) * CONFIG.d_head)
                q, k, v = (x @ PARAMS[f"w_{m}{layer}"] for m in "qkv")
                z[:, cols] = plain_attention(
                    q[:, cols], k[:, cols], v[:, cols], lambda i, j: j <= i
                )
            x = x + z @ PARAMS[f"w_o{layer}"]
        return found

    for before, after in zip(keys_values(short), keys_values(longer), strict=True):
        np.testing.assert_allclose(after[: len(short)], before, rtol=0, atol=1e-12)


def test_the_cache_after_the_prompt(generation: dict[str, Any]) -> None:
    claim(PAGE, "After the nine tokens of the prompt, each layer holds nine keys for each of its")
    claim(PAGE, "four heads, each eight numbers wide, and as many values.")
    claim(PAGE, "The next letter is the one the loop found.")
    claim(PAGE, "With and without the cache, generate writes the same letters, and its logits")
    claim(PAGE, "agree to their last few bits")
    prompt = encode("^quartzqu")
    cache = KVCache.empty(CONFIG)
    for t in prompt:
        step = decode_step(PARAMS, t, cache, config=CONFIG)
    assert len(prompt) == 9 and cache.n_tokens == 9
    assert (CONFIG.heads, CONFIG.d_head) == (4, 8)
    for layer in range(LAYERS):
        assert cache.keys[layer].shape == cache.values[layer].shape == (4, 9, 8)
    assert int(np.argmax(step.logits)) == generation["tokens"][9] == LETTERS.index("a")
    fast, slow = generation["fast"], generation["slow"]
    assert fast.tokens == slow.tokens
    # the logits are of size ~10: a difference below 1e-12 is in their last few bits
    assert np.abs(fast.logits - slow.logits).max() < 1e-12 * np.abs(slow.logits).max()
    # and the cached logits are the loop-written model's, to rounding
    np.testing.assert_allclose(
        step.logits, plain_logits(prompt)[-1], rtol=0, atol=1e-11 * np.abs(step.logits).max()
    )


# --- online softmax --------------------------------------------------------------------


def test_online_softmax_for_every_kind_of_block(at_scale: dict[str, Any]) -> None:
    cited(
        PAGE,
        "Milakov and Gimelshein (2018) showed that a single pass can find both, by correcting "
        "the sum whenever the maximum changes.",
        ARXIV + "1805.02867",
    )
    claim(PAGE, "online_softmax and the loop written out give softmax for blocks of one logit, for")
    claim(PAGE, "blocks that do not divide the row, and for one block longer than the row.")
    x = at_scale["x"]
    assert len(x) == 10 and 10 % 3 and 10 % 4 and 16 > 10
    want = plain_softmax(x.tolist())
    # values below 1; the rescaling costs a few ulps: 1e-14
    for block in (1, 3, 4, 10, 16):
        np.testing.assert_allclose(online_softmax(x, block_size=block), want, rtol=0, atol=1e-14)
    np.testing.assert_allclose(at_scale["by_hand"], want, rtol=0, atol=1e-14)


def test_the_third_line_is_the_proof() -> None:
    claim(PAGE, r"The third line is the proof: multiplying the old sum by \(e^{m - m'}\) turns")
    rng = np.random.default_rng(1)
    seen, block = rng.standard_normal(7) * 3, rng.standard_normal(4) * 3 + 2
    m, m_new = seen.max(), max(seen.max(), block.max())
    old = math.fsum(math.exp(s - m) for s in seen)
    assert math.isclose(old * math.exp(m - m_new), math.fsum(math.exp(s - m_new) for s in seen))


# --- tiled attention -------------------------------------------------------------------


def test_tiles_of_every_kind_give_the_formula(at_scale: dict[str, Any]) -> None:
    cited(
        PAGE,
        "FlashAttention (Dao et al., 2022) computes exact attention in tiles small enough for a "
        "GPU's fast on-chip memory, so that the scores are never written to the GPU's main memory.",
        ARXIV + "2205.14135",
    )
    cited(
        PAGE,
        "On a GPU, reading and writing main memory takes longer than the arithmetic, and Dao et "
        "al. made exact attention faster by reading and writing it less.",
        ARXIV + "2205.14135",
    )
    claim(PAGE, "The result is the formula's for tiles of one query and one key, for tiles that")
    claim(PAGE, "do not divide the hundred tokens, and for one tile that holds them all.")
    q, k, v = at_scale["q"], at_scale["k"], at_scale["v"]
    assert q.shape == (2, 100, 16) and 100 % 7 and 100 % 30
    want = np.array([plain_attention(q[h], k[h], v[h], lambda i, j: j <= i) for h in range(2)])
    for blocks in ((1, 1), (7, 30), (100, 100)):  # outputs of size ~1: 1e-12
        got = tiled_attention(q, k, v, is_causal=True, block_q=blocks[0], block_k=blocks[1])
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_tiles_above_the_diagonal_are_skipped_and_every_score_computed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    claim(PAGE, "Under the causal mask, a tile that lies wholly above the diagonal holds only")
    claim(PAGE, "masked scores, and is skipped.")
    claim(
        PAGE, "What tiling saves is memory, not multiply-adds: every score is still computed once"
    )
    # Every tile of scores passes through at_scale's overflow check once: count them.
    tiles: list[tuple[int, ...]] = []
    check = at_scale_module._no_overflow

    def counting(s: np.ndarray) -> np.ndarray:
        tiles.append(s.shape)
        return check(s)

    monkeypatch.setattr(at_scale_module, "_no_overflow", counting)
    n, block = 40, 10
    rng = np.random.default_rng(2)
    q, k, v = rng.standard_normal((3, n, 4))
    tiled_attention(q, k, v, block_q=block, block_k=block)
    assert len(tiles) == 16 and sum(math.prod(t) for t in tiles) == n * n  # each score once
    tiles.clear()
    tiled_attention(q, k, v, is_causal=True, block_q=block, block_k=block)
    above = [
        (i, j)
        for i in range(0, n, block)
        for j in range(0, n, block)
        if not causal_mask(n)[i : i + block, j : j + block].any()  # only masked scores
    ]
    assert len(above) == 6 and len(tiles) == 16 - len(above)


def test_the_scores_against_one_tile(at_scale: dict[str, Any]) -> None:
    claim(PAGE, r"For one head, the n × n scores take \(n^2 b\) bytes at b bytes a number; a tile")
    claim(PAGE, r"takes \(b_q b_k b\), whatever the length of the context")
    claim(PAGE, "At 4,096 tokens the scores of one head would take 4,096 times as much memory as")
    assert at_scale["n"] == 4096 and at_scale["tile"] == 64
    assert at_scale["scores"] == 4096 * 4096 * 4 and at_scale["one_tile"] == 64 * 64 * 4
    assert at_scale["scores"] // at_scale["one_tile"] == 4096


# --- fewer key and value heads ---------------------------------------------------------


def test_multi_query_and_grouped_query_attention_are_cited() -> None:
    cited(
        PAGE,
        "Shazeer (2019) found that decoding one token at a time is slowed by the memory traffic "
        "of loading those keys and values, and proposed multi-query attention: every head keeps "
        "its own queries, and all heads share one key head and one value head.",
        ARXIV + "1911.02150",
    )
    cited(
        PAGE,
        "Ainslie et al. (2023) proposed grouped-query attention, in between: g key/value heads, "
        r"each shared by \(h/g\) of the h query heads.",
        ARXIV + "2305.13245",
    )
    cited(
        PAGE,
        "Ainslie et al. turned trained multi-head models into grouped-query ones by averaging the "
        "key and value heads of each group and training a little more.",
        ARXIV + "2305.13245",
    )
    cited(
        PAGE,
        "scaled_dot_product_attention(..., enable_gqa=True) takes k and v with g heads, as "
        "PyTorch's does",
        TORCH_SDPA,
    )


def test_which_query_heads_share_a_key_value_head(at_scale: dict[str, Any]) -> None:
    claim(PAGE, r"With \(h = 8\) and \(g = 2\), query heads 1 to 4 share key/value head 1 and")
    claim(PAGE, "query heads 5 to 8 share key/value head 2.")
    claim(PAGE, r"With \(g = h\) it is multi-head attention; with \(g = 1\) it is multi-query")
    q, k, v = at_scale["q8"], at_scale["k2"], at_scale["v2"]
    assert q.shape[0] == 8 and k.shape[0] == 2
    shares = {1: [1, 2, 3, 4], 2: [5, 6, 7, 8]}  # counted from 1, as the page counts
    grouped = scaled_dot_product_attention(q, k, v, enable_gqa=True)
    for kv_head, query_heads in shares.items():
        for head in query_heads:
            want = plain_attention(q[head - 1], k[kv_head - 1], v[kv_head - 1], lambda i, j: True)
            np.testing.assert_allclose(grouped[head - 1], want, rtol=0, atol=1e-12)
    k_h, v_h = at_scale["k8"], at_scale["v8"]  # g = h: each query head has its own
    for head in range(8):
        want = plain_attention(q[head], k_h[head], v_h[head], lambda i, j: True)
        np.testing.assert_allclose(at_scale["gqa"][head], want, rtol=0, atol=1e-12)
        one = plain_attention(q[head], k[0], v[0], lambda i, j: True)  # g = 1
        np.testing.assert_allclose(at_scale["mqa"][head], one, rtol=0, atol=1e-12)


def test_what_fewer_key_value_heads_save_and_what_they_do_not() -> None:
    claim(PAGE, r"The cache shrinks by the factor \(h/g\).")
    claim(PAGE, "The multiply-adds of the scores and the weighted sums stay the same, since every")
    claim(PAGE, "query head still meets every key.")
    h, n, d = 8, 6, 4
    for g in (1, 2, 4, 8):
        assert kv_cache_bytes(3, h, d, n, 2) == (h // g) * kv_cache_bytes(3, g, d, n, 2)
        # count, query head by query head, the products of the scores and the weighted sums
        products = 0
        for head in range(h):
            kv_head = head // (h // g)
            assert 0 <= kv_head < g
            products += sum(2 * d for _query in range(n) for _key in range(n))
        assert products == 2 * h * n * n * d  # g does not enter


# --- sliding windows -------------------------------------------------------------------


def test_the_window_mask_from_its_definition(at_scale: dict[str, Any]) -> None:
    claim(PAGE, r"With a window of W, query i sees keys \(i - W + 1\) to i, itself included, so")
    claim(PAGE, "no row of the mask holds more than W keys")
    claim(PAGE, "The first rows see fewer keys, because fewer come before them.")
    claim(PAGE, "A window at least as long as the sequence changes nothing: the mask is the causal")
    claim(PAGE, "mask, and attention is the formula's.")
    for n in range(0, 9):
        for w in range(1, 11):
            mask = sliding_window_mask(n, w)
            assert mask.tolist() == [[i - w + 1 <= j <= i for j in range(n)] for i in range(n)]
            assert [int(r.sum()) for r in mask] == [min(i + 1, w) for i in range(n)]
            if w >= n:
                assert mask.tolist() == [[j <= i for j in range(n)] for i in range(n)]
    rng = np.random.default_rng(3)
    q, k, v = rng.standard_normal((3, 6, 4))
    windowed = scaled_dot_product_attention(q, k, v, sliding_window_mask(6, 6))
    np.testing.assert_allclose(
        windowed, plain_attention(q, k, v, lambda i, j: j <= i), rtol=0, atol=1e-12
    )
    assert at_scale["causal"] is True


def test_windows_in_the_literature_and_in_code() -> None:
    cited(
        PAGE,
        "Longformer (Beltagy et al., 2020) combined a window of neighbours with a few tokens that "
        "attend everywhere, so that the cost of attention grows linearly with the length of a "
        "document; it is an encoder, and its window reaches both sides.",
        ARXIV + "2004.05150",
    )
    cited(
        PAGE,
        "Mistral 7B (Jiang et al., 2023) uses a causal window of 4,096 in every layer, and a "
        "rolling cache that keeps only the last 4,096 keys and values and overwrites the oldest.",
        ARXIV + "2310.06825",
    )
    cited(
        PAGE,
        "Hugging Face's transformers keeps the keys \\(j > i - W\\), W keys with the query's "
        "own, as sliding_window_mask does; Mistral's paper and its reference code keep the "
        "positions from \\(i - W\\) to i, which is one key more.",
        HF_MASKS,
        MISTRAL_CODE,
        ARXIV + "2310.06825",
    )
    # The two rules as the code writes them, against sliding_window_mask.
    for n in range(1, 10):
        for w in range(1, 8):
            i, j = np.arange(n)[:, None], np.arange(n)[None, :]
            hugging_face = (j <= i) & (j > i - w)  # causal, and kv_idx > q_idx - sliding_window
            mistral = np.triu(np.tril(np.ones((n, n))), -w).astype(bool)  # tril, then triu(-W)
            assert np.array_equal(sliding_window_mask(n, w), hugging_face)
            assert np.array_equal(sliding_window_mask(n, w + 1), mistral)


# --- what the cache weighs -------------------------------------------------------------


def by_hand(layers: int, kv_heads: int, width: int, tokens: int, size: int) -> int:
    """Bytes of the arrays a cache would hold: a key and a value per layer, head, token."""
    arrays = [np.zeros((kv_heads, tokens, width), dtype=f"f{size}") for _ in range(2 * layers)]
    return sum(a.nbytes for a in arrays)


def test_the_cache_formula() -> None:
    claim(PAGE, r"\(2 \cdot \text{layers} \cdot \text{kv heads} \cdot d_{\text{head}} \cdot n")
    claim(PAGE, "bytes for n tokens at b bytes a number, for one sequence")
    for args in [(6, 12, 32, 5, 4), (3, 2, 8, 7, 2), (2, 4, 8, 9, 8)]:
        assert kv_cache_bytes(*args) == by_hand(*args)


def test_minilm_has_no_cache_and_what_its_line_means(at_scale: dict[str, Any]) -> None:
    from attention_ref.minilm import model_dir

    claim(PAGE, "all-MiniLM-L6-v2, the model of lesson 3, has 6 layers of 12 heads of width 32, in")
    claim(PAGE, "Its line is what the keys and values of one text of 512 tokens, its longest")
    path = model_dir()
    config = json.loads((path / "config.json").read_text())
    layers, heads = config["num_hidden_layers"], config["num_attention_heads"]
    assert (layers, heads, config["hidden_size"] // heads) == (6, 12, 32)
    assert config["max_position_embeddings"] == 512
    with (path / "model.safetensors").open("rb") as f:  # the header names each dtype
        header = json.loads(f.read(struct.unpack("<Q", f.read(8))[0]))
    dtypes = {t["dtype"] for name, t in header.items() if name != "__metadata__"}
    assert {d for d in dtypes if d.startswith(("F", "BF"))} == {"F32"}  # ids are I64
    assert at_scale["models"][0][1:] == (6, 12, 32, 512, 4)


def test_the_decoders_configurations_are_cited(at_scale: dict[str, Any]) -> None:
    claim(PAGE, "For the decoders, each number takes two bytes, as in float16, and each line uses")
    cited(
        PAGE,
        "Llama 2 7B has 32 layers, each with 32 heads of width 128, and a context of 4,096 tokens",
        LLAMA_7B,
        ARXIV + "2307.09288",
    )
    cited(
        PAGE,
        "Llama 2 70B has 80 layers of 64 query heads of width 128 that share 8 key/value heads",
        LLAMA_70B,
    )
    cited(
        PAGE,
        "Mistral 7B has 32 layers of 32 query heads of width 128 that share 8 key/value heads, a "
        "window of 4,096 and a context of 8,192 tokens (Table 1 of Jiang et al., 2023)",
        ARXIV + "2310.06825",
    )
    rows = {row[0]: row[1:] for row in at_scale["models"]}
    assert rows["Llama 2 7B"] == (32, 32, 128, 4096, 2)
    assert rows["Llama 2 70B, 8 KV heads"] == (80, 8, 128, 4096, 2)
    assert rows["Llama 2 70B, if 64 KV heads"] == (80, 64, 128, 4096, 2)
    assert rows["Mistral 7B, 8 KV heads"] == (32, 8, 128, 8192, 2)
    assert rows["Mistral 7B, if 32 KV heads"] == (32, 32, 128, 8192, 2)
    assert rows["Mistral 7B, window 4096"] == (32, 8, 128, 4096, 2)
    assert np.dtype(np.float16).itemsize == 2


def test_what_grouped_query_attention_and_the_window_save() -> None:
    claim(PAGE, "with a key/value head for every query head its cache would be eight times larger;")
    claim(PAGE, "with 8, it is smaller than the 7B model's.")
    claim(
        PAGE, "grouped-query attention divides its cache by four, and the rolling cache halves it"
    )
    llama_7b = by_hand(32, 32, 128, 4096, 2)
    llama_70b, llama_70b_mha = by_hand(80, 8, 128, 4096, 2), by_hand(80, 64, 128, 4096, 2)
    assert llama_70b_mha == 8 * llama_70b and llama_70b < llama_7b
    mistral, mistral_mha = by_hand(32, 8, 128, 8192, 2), by_hand(32, 32, 128, 8192, 2)
    rolling = by_hand(32, 8, 128, 4096, 2)  # W = 4,096 entries a layer
    assert mistral_mha == 4 * mistral and mistral == 2 * rolling
    assert kv_cache_bytes(32, 8, 128, 8192, 2) == mistral  # and the reference agrees


# --- the closing table -----------------------------------------------------------------


def test_the_closing_table_rests_on_tests() -> None:
    rows = [
        "KV cache each token computes one row and reads the stored keys and values",
        "the tokens and logits, to rounding",
        "online softmax one pass over blocks, with a running maximum and sum a pass over the "
        "row softmax",
        "attention's output, to rounding",
        "multi-head attention, when g = h",
        "causal attention, when W ≥ n",
        "Only the first three are free: they compute the same formula with less work or less",
        "The last two change the model, and give the formula back only at their limits.",
    ]
    for row in rows:
        claim(PAGE, row)
    import tests.test_at_scale as reference
    import tests.test_generate as generation_tests

    for name in (
        "test_cache_and_recompute_agree_for_every_prompt_length",
        "test_cache_and_recompute_agree_on_random_models_when_sampling",
    ):
        assert callable(getattr(generation_tests, name)), name
    for name in (
        "test_online_softmax_equals_softmax",
        "test_tiled_attention_matches_the_plain_loop_oracle",
        "test_tiled_attention_equals_scaled_dot_product_attention",
        "test_grouped_query_attention_equals_a_loop_over_heads",
        "test_sliding_window_mask_from_its_definition",
    ):
        assert callable(getattr(reference, name)), name
    # The last two give the formula back only at their limits: short of them, they differ.
    rng = np.random.default_rng(4)
    q, k, v = rng.standard_normal((3, 4, 6, 4))
    grouped = scaled_dot_product_attention(q, k[:2], v[:2], enable_gqa=True)
    assert not np.allclose(grouped, scaled_dot_product_attention(q, k, v))
    windowed = scaled_dot_product_attention(q, k, v, sliding_window_mask(6, 3))
    assert not np.allclose(windowed, scaled_dot_product_attention(q, k, v, is_causal=True))
