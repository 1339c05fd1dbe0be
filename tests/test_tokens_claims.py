"""The claims docs/tokens.md makes in prose, alt text and captions, recomputed.

Sybil checks every printed output against the page; these tests check the sentences
written around them. Each recomputes its fact from an independent source where one
exists (the model package's own ``vocab.txt`` and ``tokenizer.json`` read without
``attention_ref``, a LayerNorm written out in float64, rotations as complex numbers,
the practice step's plain-Python WordPiece) and finds the sentence on the rendered page.
"""

from __future__ import annotations

import cmath
import json
import math
import re
import runpy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_ref import position_frequencies
from attention_ref.minilm import load_minilm, model_dir
from site_build import figures as F
from site_build import model_figures as P
from testbed.claims import cited, claim, page_text, run_snippet, snippet_fixture

ROOT = Path(__file__).resolve().parent.parent
PAGE = "tokens.md"
SENTENCE = "The animal didn't cross the street because it was too tired."
SPECS = {spec.name: spec for spec in F.FIGURES}


@pytest.fixture(scope="module")
def vocab() -> dict[str, int]:
    """vocab.txt of the model package: one piece a line, the line number is the id."""
    lines = (model_dir() / "vocab.txt").read_text(encoding="utf-8").splitlines()
    return {piece: i for i, piece in enumerate(lines)}


@pytest.fixture(scope="module")
def model() -> Any:
    return load_minilm()


text = snippet_fixture("text", "tokens_text.py")
vectors = snippet_fixture("vectors", "tokens_vectors.py")
positions = snippet_fixture("positions", "positions.py")
learned = snippet_fixture("learned", "learned_positions.py")


# --- text to tokens ------------------------------------------------------------------------


def test_three_things_happened_to_the_sentence(text: dict[str, Any], vocab: dict[str, int]) -> None:
    claim(PAGE, "Three things happened.")
    claim(PAGE, 'The text was lower-cased ("The" became the).')
    claim(PAGE, "\"didn't\" became three tokens, didn, ' and t")
    claim(PAGE, "And two tokens were added that are not in the text at all: [CLS] at the start")
    tokens, ids = text["tokens"], text["ids"].tolist()
    assert text["sentence"] == SENTENCE
    # 1. lower-cased: "The" is `the`; the pieces spell the sentence in lower case.
    assert tokens[1] == "the" and "The" not in tokens
    assert "".join(tokens[1:-1]) == SENTENCE.lower().replace(" ", "")
    # 2. didn't -> didn, ', t (three tokens in a row).
    start = tokens.index("didn")
    assert tokens[start : start + 3] == ["didn", "'", "t"]
    # 3. two added: [CLS] first, [SEP] last, nowhere in the text.
    assert (tokens[0], tokens[-1]) == ("[CLS]", "[SEP]")
    assert tokens.count("[CLS]") == tokens.count("[SEP]") == 1
    # The ids are vocab.txt's line numbers of the pieces.
    assert ids == [vocab[t] for t in tokens]


def test_the_vocabulary_and_the_table(vocab: dict[str, int], model: Any) -> None:
    claim(PAGE, "The vocabulary has 30,522 pieces.")
    claim(PAGE, "The table has 30,522 rows of 384 numbers.")
    assert len(vocab) == 30_522 == model.word_embeddings.shape[0]
    assert model.word_embeddings.shape == (30_522, 384)


def test_a_rare_word_splits_into_hash_pieces(text: dict[str, Any], vocab: dict[str, int]) -> None:
    claim(PAGE, '"embeddings" is not one of them, so it is spelled em, ##bed, ##ding, ##s')
    claim(PAGE, "so ##s and a standalone s are different pieces with different ids")
    assert "embeddings" not in vocab
    assert text["model"].tokenize("embeddings")[0] == [
        "[CLS]",
        "em",
        "##bed",
        "##ding",
        "##s",
        "[SEP]",
    ]
    assert "s" in vocab and "##s" in vocab and vocab["s"] != vocab["##s"]


def test_the_practice_wordpiece_splits_real_words_as_the_tokenizer(
    text: dict[str, Any], vocab: dict[str, int]
) -> None:
    """Step 1's solution, plain Python on vocab.txt, agrees with the real tokenizer."""
    claim(PAGE, "The split itself is greedy, longest match first.")
    namespace: dict[str, Any] = {}
    source = ROOT / "snippets" / "practice" / "tokens" / "01_wordpiece" / "solution.py"
    exec(compile(source.read_text(encoding="utf-8"), str(source), "exec"), namespace)
    wordpiece = namespace["wordpiece"]
    for word in ("embeddings", "unaffable", "photosynthesis", "tokenization", "tired"):
        pieces = text["model"].tokenize(word)[0][1:-1]
        assert wordpiece(word, vocab) == [vocab[p] for p in pieces], word


def test_unknown_characters_and_accents(text: dict[str, Any]) -> None:
    claim(PAGE, "The pizza emoji is in no piece at all and becomes [UNK]")
    claim(PAGE, 'Written against the word, as in "pizza🍕", it takes the whole word with it')
    claim(PAGE, "This model's tokenizer also removes accents after lower-casing")
    claim(PAGE, '"Café naïve" reads as cafe and naive.')
    tokenize = text["model"].tokenize
    assert tokenize("pizza 🍕")[0] == ["[CLS]", "pizza", "[UNK]", "[SEP]"]
    assert tokenize("pizza🍕")[0] == ["[CLS]", "[UNK]", "[SEP]"]
    assert "🍕" not in (model_dir() / "vocab.txt").read_text(encoding="utf-8")
    assert tokenize("Café naïve")[0][1:-1] == ["cafe", "naive"]
    assert tokenize("CAFÉ")[0][1:-1] == ["cafe"]  # lower-cased, then the accent goes


# --- tokens to vectors -------------------------------------------------------------------


def test_lookup_is_the_one_hot_product(vectors: dict[str, Any]) -> None:
    claim(PAGE, "Both give the same numbers; the lookup just skips the multiplications by zero.")
    rows, product = vectors["rows"], vectors["product"]
    assert rows.shape == (16, 384)
    assert np.array_equal(product, rows)
    assert (vectors["one_hot"].sum(axis=1) == 1).all()


def test_related_words_are_closer_than_unrelated_ones(
    vectors: dict[str, Any], vocab: dict[str, int], model: Any
) -> None:
    claim(PAGE, "On each line, the related word is closer than the unrelated one:")
    claim(PAGE, '"dog" is closer to "puppy" than to "car", "king" to "queen" than to "banana",')
    claim(PAGE, '"tired" to "exhausted" than to "street".')
    table = np.asarray(model.word_embeddings, dtype=np.float64)

    def cos(a: str, b: str) -> float:  # rows by vocab.txt's ids, summed with math.fsum
        u, v = table[vocab[a]].tolist(), table[vocab[b]].tolist()
        dot = math.fsum(x * y for x, y in zip(u, v, strict=True))
        return dot / math.sqrt(math.fsum(x * x for x in u) * math.fsum(y * y for y in v))

    assert vectors["TRIPLES"] == [
        ("dog", "puppy", "car"),
        ("king", "queen", "banana"),
        ("tired", "exhausted", "street"),
    ]
    for word, near, far in vectors["TRIPLES"]:
        assert cos(word, near) > cos(word, far), (word, near, far)
        assert vectors["cosine"](word, near) == round(cos(word, near), 3)


# --- why position is needed -----------------------------------------------------------------


def _plain_attention(rows: np.ndarray, keep: list[list[bool]]) -> np.ndarray:
    """Self-attention written as loops (Q = K = V = rows), not attention_ref: keep[i][j]
    says whether row i may look at row j."""
    out = []
    for q, allowed in zip(rows, keep, strict=True):
        pairs = zip(rows, allowed, strict=True)
        s = [float(q @ k) / math.sqrt(len(q)) if ok else -math.inf for k, ok in pairs]
        top = max(s)
        e = [math.exp(v - top) for v in s]
        out.append(sum(w * v for w, v in zip(e, rows, strict=True)) / sum(e))
    return np.array(out)


@pytest.fixture(scope="module")
def dog_bites_man(model: Any) -> np.ndarray:
    """The model's rows of "dog", "bites", "man" (each a single piece), float64."""
    rows = []
    for word in ("dog", "bites", "man"):
        pieces, ids = model.tokenize(word)
        assert len(pieces) == 3, pieces  # [CLS], the word, [SEP]
        rows.append(np.asarray(model.word_embeddings[ids[1]], dtype=np.float64))
    return np.stack(rows)


def test_attention_alone_reorders_and_a_causal_mask_does_not(dog_bites_man: np.ndarray) -> None:
    claim(PAGE, "The rows above say what each token is, not where it stands.")
    claim(
        PAGE,
        'where a row sits: "dog bites man" and "man bites dog" hold the same three rows, and '
        "attention alone gives both the same three outputs, only in another order.",
    )
    claim(
        PAGE,
        "with the one exception, a causal mask, which lets each token see only itself and the "
        "tokens before it.",
    )
    x, swap = dog_bites_man, [2, 1, 0]  # "man bites dog": the same rows, reordered
    everyone = [[True] * 3 for _ in range(3)]
    causal = [[j <= i for j in range(3)] for i in range(3)]
    assert np.allclose(_plain_attention(x[swap], everyone), _plain_attention(x, everyone)[swap])
    assert not np.allclose(_plain_attention(x[swap], causal), _plain_attention(x, causal)[swap])


def test_a_padding_mask_keeps_attention_blind_to_order(dog_bites_man: np.ndarray) -> None:
    """Issue 30 (c): the encoder's one mask, padding, treats the real tokens alike."""
    claim(PAGE, "An encoder such as this model has no causal mask: its only mask hides the padding")
    claim(PAGE, "(filler tokens), and it treats every real token alike wherever it sits.")
    x, swap = dog_bites_man, [2, 1, 0]
    padded = np.vstack([x, np.zeros((1, x.shape[1]))])  # one filler row at the end
    keep = [[True, True, True, False]] * 4  # every row may look at the real rows only
    order = [*swap, 3]
    assert np.allclose(
        _plain_attention(padded[order], keep)[:3], _plain_attention(padded, keep)[:3][swap]
    )


def test_causal_models_learn_position_without_encodings() -> None:
    """Issue 30 (c): a sentence about the literature names its two papers."""
    cited(
        PAGE,
        "Causal models can do without: trained with no positions added, they still learn to tell"
        " positions apart, from the mask alone (Haviv et al., 2022; Kazemnejad et al., 2023).",
        "https://arxiv.org/abs/2203.16634",
        "https://arxiv.org/abs/2305.19466",
    )
    assert "every transformer puts position in" not in page_text(PAGE)


def test_three_ways(positions: dict[str, Any]) -> None:
    claim(PAGE, "The models of this course put position in explicitly, and there are three common")
    headings = re.findall(r"^### (\d)\. ", (ROOT / "docs" / PAGE).read_text(encoding="utf-8"), re.M)
    assert headings == ["1", "2", "3"]


# --- sinusoidal -----------------------------------------------------------------------------


def test_the_frequencies_fall_from_one_radian(positions: dict[str, Any]) -> None:
    claim(PAGE, "Pair 0 turns one radian per position; each later pair turns more slowly, down to")
    claim(PAGE, "almost nothing for the last one")
    w = positions["w"]
    assert w[0] == 1.0 and (np.diff(w) < 0).all()
    assert w[-1] < 2e-4  # 10000 ** (-382 / 384)
    assert math.isclose(w[-1], 10000 ** (-382 / 384), rel_tol=1e-12)


def test_one_turn_of_pair_0_takes_two_pi_positions(positions: dict[str, Any]) -> None:
    """Issue 30 (n): pair 0 turns once in 2 pi = 6.28... positions, not in 6."""
    assert "pair 0: 1 rad a position, one turn in 6.3 positions" in page_text(PAGE)
    assert f"{2 * math.pi:.1f}" == "6.3" and positions["w"][0] == 1.0
    for i, turn in ((1, "6.6"), (95, "598.9")):  # 2 pi / 10000 ** (-2 i / 384), by hand
        assert f"{2 * math.pi * 10000 ** (2 * i / 384):.1f}" == turn
        assert f"pair {i}: " in page_text(PAGE) and f"one turn in {turn} positions" in page_text(
            PAGE
        )


def test_the_shift_is_about_positions_not_about_scores(positions: dict[str, Any]) -> None:
    """Issue 30 (n): the map and the distance-only dot product hold for PE alone."""
    claim(PAGE, 'So "three places on" is one linear map of the position vector, the same at')
    claim(
        PAGE,
        "and the dot product of two position vectors depends only on how far apart they are. "
        "Added to token rows, they lose that, as the rotary section shows.",
    )
    pe, w = positions["PE"], positions["w"]  # (512, 384), (192,)
    for i, j in ((3, 0), (7, 4), (103, 100), (7, 2)):
        # sin a sin b + cos a cos b = cos(a - b): the dot product is a sum over pairs.
        by_hand = math.fsum(math.cos((i - j) * float(f)) for f in w)
        assert abs(float(pe[i] @ pe[j]) - by_hand) < 1e-9
    same = [float(pe[i] @ pe[j]) for i, j in ((3, 0), (7, 4), (103, 100))]
    assert max(same) - min(same) < 1e-9
    z_q, z_k = positions["Z_q"], positions["Z_k"]
    added = [float(z_q[i] @ z_k[j]) for i, j in ((3, 0), (7, 4), (103, 100))]
    assert max(added) - min(added) > 1


def test_every_position_gets_a_different_vector(positions: dict[str, Any]) -> None:
    claim(PAGE, "Every position gets a different vector, and no training is needed.")
    pe = positions["PE"]  # (512, 384)
    gaps = np.linalg.norm(pe[:, None, :] - pe[None, :, :], axis=-1)  # (512, 512)
    assert gaps[~np.eye(512, dtype=bool)].min() > 0.1


def test_one_shift_matrix_for_every_position(positions: dict[str, Any]) -> None:
    claim(PAGE, "The same \\(M_3\\) carries position 0 to 3, 10 to 13 and 200 to 203")
    claim(PAGE, "it is a rotation (its transpose is its inverse), and it is made of 2 × 2 blocks")
    m, pe = positions["M"], positions["PE"]
    for p in (0, 10, 200):
        assert np.allclose(pe[p] @ m, pe[p + 3], atol=1e-12)
    assert np.allclose(m.T @ m, np.eye(384), atol=1e-12)
    w = position_frequencies(384)
    for i in range(192):  # one rotation by 3 w_i per pair, written out; zeros elsewhere
        a = 3 * float(w[i])
        block = [[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]
        assert np.allclose(m[2 * i : 2 * i + 2, 2 * i : 2 * i + 2], block, rtol=0, atol=1e-15)
        assert np.count_nonzero(m[2 * i : 2 * i + 2]) == 4


def test_sinusoidal_figure_caption_and_alt_text() -> None:
    claim(PAGE, "The sinusoidal encoding for \\(d = 128\\) and the first 100 positions")
    claim(PAGE, "Each column is the vector added to the token at that position.")
    spec = SPECS["sinusoidal"]
    assert spec.params == {"n_positions": 100, "d": 128}
    pe = spec.compute(**spec.params)  # (100, 128)
    source = (ROOT / "docs" / PAGE).read_text(encoding="utf-8")
    alt = re.search(r"!\[(An image of 128 rows[^\]]*)\]\(figures/sinusoidal-light", source)
    assert alt, "the sinusoidal figure's alt text"
    assert source.count(alt[1]) == 2, "light and dark share one alt text"
    assert "by 100 columns, positions 0 to 99" in alt[1] and pe.shape == (100, 128)
    # "The top rows swing between orange and blue every few positions": entry 0 (sin p)
    # changes sign at least once in every 5 consecutive positions (a half turn is pi).
    signs = np.sign(pe[1:, 0])
    assert all(len(set(signs[p : p + 5])) == 2 for p in range(len(signs) - 5))
    # "In the bottom rows nothing changes across the 100 positions: the cosine rows
    # stay blue, near 1, and the sine rows stay at the background colour, near 0."
    assert "the cosine rows stay blue, near 1, and the sine rows stay at the background" in alt[1]
    bottom = pe[:, -8:]  # the last four pairs
    assert (bottom[:, 1::2] > 0.999).all() and (np.abs(bottom[:, 0::2]) < 0.05).all()


# --- learned ---------------------------------------------------------------------------------


def test_512_positions_are_a_512_token_limit(model: Any) -> None:
    claim(PAGE, "this model has 512 position rows, so it cannot read a sequence longer than 512")
    config = json.loads((model_dir() / "config.json").read_text(encoding="utf-8"))
    assert model.position_embeddings.shape[0] == config["max_position_embeddings"] == 512
    with pytest.raises(ValueError, match="512"):
        model.tokenize("word " * 600)


def _by_distance(cos: np.ndarray) -> np.ndarray:
    n = cos.shape[0]
    return np.array([np.mean([cos[i, i + k] for i in range(n - k)]) for k in range(n)])


@pytest.fixture(scope="module")
def learned_cos(model: Any) -> np.ndarray:
    rows = np.asarray(model.position_embeddings, dtype=np.float64)
    norms = np.sqrt((rows * rows).sum(axis=1))
    return np.asarray((rows @ rows.T) / np.outer(norms, norms))


def test_what_training_put_in_the_position_rows(
    learned: dict[str, Any], learned_cos: np.ndarray
) -> None:
    claim(PAGE, "pairs one position apart are the most alike of all, with the highest mean cosine")
    claim(PAGE, "It drops by three positions apart and rises again by six, a ripple that runs")
    claim(PAGE, "pairs 100 or more positions apart are on average close to unrelated, with some")
    claim(PAGE, "distances mildly opposed (the last line above gives the most opposed one)")
    bd = _by_distance(learned_cos)
    np.testing.assert_allclose(learned["by_distance"], bd, atol=1e-12)
    assert bd[1] == bd[1:].max()
    assert bd[3] < bd[2] < bd[1] and bd[6] > bd[3]
    # The ripple runs along the whole table: local maxima in every quarter of distances.
    peaks = [k for k in range(2, 511) if bd[k - 1] < bd[k] > bd[k + 1]]
    assert all(any(a <= k < a + 128 for k in peaks) for a in (0, 128, 256, 384))
    far = np.abs(np.subtract.outer(np.arange(512), np.arange(512))) >= 100
    assert abs(learned_cos[far].mean()) < 0.1
    negative = int((bd < 0).sum())
    assert 0 < negative < 256 and -0.5 < bd.min() < 0
    assert learned["lowest"] == int(bd.argmin())


def test_learned_figure_alt_text_and_caption(learned_cos: np.ndarray) -> None:
    claim(PAGE, "each cell is the mean of a 4 × 4 block of pairs")
    spec = SPECS["learned-positions"]
    assert spec.params["block"] == 4
    assert spec.params["weights_sha256"] == load_minilm().weights_sha256
    data = spec.compute(**spec.params)
    np.testing.assert_allclose(data.cos, learned_cos, atol=1e-12)
    cells = P.block_means(data.cos, data.block)  # (128, 128)
    source = (ROOT / "docs" / PAGE).read_text(encoding="utf-8")
    alt = re.search(r"!\[(A square image[^\]]*)\]\(figures/learned-positions-light", source)
    assert alt and source.count(alt[1]) == 2
    alt_text = alt[1]
    assert "drawn as 128 by 128 cells, each the mean of a 4 by 4 block" in alt_text
    assert cells.shape == (128, 128)
    # "The diagonal ... is the strongest blue": the largest cell of every row.
    assert "The diagonal, where rows meet themselves and their nearest neighbours" in alt_text
    assert (cells.argmax(axis=1) == np.arange(128)).all()
    # "About 250 positions off the diagonal runs a band of pale orange, the most opposed".
    assert "About 250 positions off the diagonal runs a band of pale orange" in alt_text
    lowest = int(_by_distance(learned_cos).argmin())
    assert 240 <= lowest <= 260 and _by_distance(learned_cos)[lowest] < 0
    # "Everywhere 100 or more positions off the diagonal the colours stay pale: no cell
    # there gets two thirds of the way to either end of the scale."
    assert "no cell there gets two thirds of the way to either end of the scale" in alt_text
    offset = 4 * np.abs(np.subtract.outer(np.arange(128), np.arange(128)))
    assert np.abs(cells[offset >= 100]).max() < 2 / 3


# --- rotary -----------------------------------------------------------------------------------


def test_rope_scores_depend_on_the_distance_only(positions: dict[str, Any]) -> None:
    claim(PAGE, "Positions 3 and 0, 7 and 4, 103 and 100 are all 3 apart, and all three scores")
    claim(PAGE, "are equal; 7 and 2 are 5 apart and score differently.")
    q, k = positions["q"], positions["k"]
    w = position_frequencies(64)

    def turned(x: np.ndarray, p: int) -> list[complex]:  # pairs as complex numbers
        return [complex(x[2 * i], x[2 * i + 1]) * cmath.exp(1j * p * w[i]) for i in range(32)]

    def score(i: int, j: int) -> float:  # Re(sum a conj(b)) is the dot product of the pairs
        return math.fsum(
            (a * b.conjugate()).real for a, b in zip(turned(q, i), turned(k, j), strict=True)
        )

    same = [score(3, 0), score(7, 4), score(103, 100)]
    assert max(same) - min(same) < 1e-9
    assert abs(score(7, 2) - same[0]) > 0.1
    assert positions["score"](7, 4) == round(same[0], 4)


def test_added_positions_move_the_score(positions: dict[str, Any]) -> None:
    claim(PAGE, "Added positions give three different scores for the same distance")
    z_q, z_k = positions["Z_q"], positions["Z_k"]
    scores = [float(z_q[i] @ z_k[j]) for i, j in ((3, 0), (7, 4), (103, 100))]
    assert min(abs(a - b) for a, b in ((scores[0], scores[1]), (scores[1], scores[2]))) > 1


# --- Z for the real model ----------------------------------------------------------------------


def test_z_is_the_ports_first_hidden_state(model: Any) -> None:
    """Issue 30 (b): the comparison is with the numpy copy (float64), not with PyTorch's model."""
    claim(PAGE, "the row of token \\(t\\) is the sum of three learned rows, then a LayerNorm")
    claim(
        PAGE,
        "compares that \\(Z\\) with the first hidden state of attention_ref.minilm, the course's"
        " numpy copy of the model",
    )
    claim(
        PAGE, "They agree: the tokens are the same, and every entry matches to within a millionth"
    )
    claim(PAGE, "the rows above were added in float32, the precision of the weights file, and")
    claim(PAGE, "the numpy copy adds them in float64.")
    claim(
        PAGE,
        "(PyTorch's model adds in float32; the tests compare the copy with it where PyTorch is"
        " installed.)",
    )
    z = run_snippet("z_real.py")
    assert z["summed"].dtype == np.float32 and z["Z"].shape == (16, 384)
    first = z["run"].hidden_states[0]
    assert first.dtype == np.float64  # the copy's sum and norm are float64
    # The comparison with PyTorch's float32 model: a test that runs where torch is.
    oracle = (ROOT / "tests" / "test_minilm_torch.py").read_text(encoding="utf-8")
    assert "output_hidden_states=True" in oracle and "run.hidden_states - hidden" in oracle
    assert z["run"].tokens == z["tokens"]
    assert 0 < np.abs(z["Z"] - first).max() < 1e-6
    # The same three rows added in float64, and a LayerNorm written out: equal to 1e-12.
    ids = z["ids"]
    x = (
        np.asarray(model.word_embeddings, dtype=np.float64)[ids]
        + np.asarray(model.position_embeddings, dtype=np.float64)[: len(ids)]
        + np.asarray(model.token_type_embeddings, dtype=np.float64)[0]
    )
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    gain, bias = (np.asarray(a, dtype=np.float64) for a in model.embeddings_norm)
    by_hand = (x - mean) / np.sqrt(var + 1e-12) * gain + bias
    np.testing.assert_allclose(by_hand, first, rtol=0, atol=1e-12)


def test_a_single_sentence_is_all_segment_0() -> None:
    claim(PAGE, "a single sentence is all segment 0")
    tokenizers = pytest.importorskip("tokenizers", reason="reads tokenizer.json on its own")
    tok = tokenizers.Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    assert set(tok.encode(SENTENCE).type_ids) == {0}


def test_the_practice_has_five_steps() -> None:
    claim(PAGE, "Five steps take a word from text to the vector attention receives")
    steps = sorted((ROOT / "snippets" / "practice" / "tokens").glob("[0-9][0-9]_*"))
    assert len(steps) == 5
    assert page_text(PAGE).count("Scaffolding: the starter gives the signature") == 5


# --- sentences whose numbers are definitions, checked on the snippets' own arrays (issue 33)


def test_a_one_hot_row_holds_a_single_1(vectors: dict[str, Any]) -> None:
    claim(PAGE, "a one-hot row, all zeros but a single 1 at the place of the id, times the table")
    one_hot, ids = vectors["one_hot"], vectors["ids"]  # (n, vocab_size), (n,)
    for row, token_id in zip(one_hot, ids, strict=True):
        assert row[token_id] == 1.0 and np.count_nonzero(row) == 1


def test_the_cosine_runs_from_1_to_minus_1(vectors: dict[str, Any]) -> None:
    """1 for a row with itself, -1 with its opposite, and never outside (Cauchy-Schwarz)."""
    claim(PAGE, "from 1 for the same direction down to -1 for opposite ones")
    u, v = vectors["vector"]("dog"), vectors["vector"]("car")  # (384,), (384,)

    def cos(a: np.ndarray, b: np.ndarray) -> float:  # a plain loop, not the snippet's
        dot = sum(float(x) * float(y) for x, y in zip(a, b, strict=True))
        return dot / math.sqrt(sum(float(x) ** 2 for x in a) * sum(float(y) ** 2 for y in b))

    # rounding of 384 float64 products: far below 1e-9
    assert math.isclose(cos(u, u), 1.0, abs_tol=1e-9)
    assert math.isclose(cos(u, -u), -1.0, abs_tol=1e-9)
    assert -1.0 < cos(u, v) < 1.0


def test_layer_norm_rescales_each_row_to_mean_0_and_variance_1() -> None:
    claim(PAGE, "each row rescaled to mean 0 and variance 1, then multiplied by a learned gain")
    from attention_ref.block import layer_norm

    rows = np.random.default_rng(0).normal(3.0, 5.0, size=(4, 384))  # (4, 384)
    out = layer_norm(rows, np.ones(384), np.zeros(384))
    # the variance is v / (v + eps) with eps = 1e-12 and v near 25: 1 to about 1e-13
    assert np.allclose(out.mean(axis=1), 0.0, atol=1e-9)
    assert np.allclose(out.var(axis=1), 1.0, atol=1e-9)


def test_the_practice_counts_positions_from_0() -> None:
    """Step 4's solution gives the first token the sinusoidal vector of position 0."""
    claim(PAGE, "the sinusoidal vector of position t, the first token being at position 0.")
    from attention_ref import sinusoidal_positions

    folder = ROOT / "snippets" / "practice" / "tokens" / "04_add_positions"
    solution = runpy.run_path(str(folder / "solution.py"))
    table = [[0.0] * 4 for _ in range(3)]  # zero rows: what is left is the positions
    z = np.array(solution["add_positions"]([2, 0, 1], table))  # (3, 4)
    assert np.allclose(z, sinusoidal_positions(3, 4), atol=1e-12)
    assert np.allclose(z[0], [0.0, 1.0, 0.0, 1.0])  # sin 0 and cos 0, by hand
