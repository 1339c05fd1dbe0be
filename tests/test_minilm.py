"""attention_ref.minilm: the real model, recomputed, against what transformers gave.

Always run: the committed ``data/it_attention.json`` (transformers' attention weights,
four decimals) on the lesson's sentences, the API's shapes and errors. Where torch and
transformers are installed (``make model-deps``), tests/test_minilm_torch.py compares
with transformers itself on a wider set of sentences.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_ref.block import EncoderLayerWeights
from attention_ref.minilm import MiniLM, load_minilm

ROOT = Path(__file__).resolve().parents[1]
DATA = json.loads((ROOT / "data" / "it_attention.json").read_text(encoding="utf-8"))
LESSON = "The animal didn't cross the street because it was too tired."


@pytest.fixture(scope="module")
def model() -> MiniLM:
    return load_minilm()


@pytest.mark.parametrize("sentence", DATA["sentences"], ids=lambda s: s["id"])
def test_attention_equals_the_committed_transformers_data(
    model: MiniLM, sentence: dict[str, Any]
) -> None:
    run = model.run(sentence["text"])
    assert run.tokens == sentence["tokens"]
    saved = np.array(sentence["attention"]) / DATA["scale"]  # (layers, heads, n, n)
    assert run.attentions.shape == saved.shape == (6, 12, len(run.tokens), len(run.tokens))
    worst = float(np.abs(run.attentions - saved).max())
    print(f"{sentence['id']}: worst attention difference to the committed data {worst:.2e}")
    # the file rounds to 1e-4, so 5e-5 of the difference is the rounding
    assert worst <= 1e-4


def test_the_data_is_from_these_weights(model: MiniLM) -> None:
    assert model.weights_sha256 == DATA["weights_sha256"]


def test_the_run_has_the_documented_shapes(model: MiniLM) -> None:
    run = model.run(LESSON)
    n = len(run.tokens)
    assert run.tokens[0] == "[CLS]" and run.tokens[-1] == "[SEP]"
    assert n == 16
    assert run.ids.shape == (n,) and run.ids.dtype.kind == "i"
    assert run.attentions.shape == (6, 12, n, n)
    assert np.allclose(run.attentions.sum(axis=-1), 1, atol=1e-12)
    assert run.hidden_states.shape == (7, n, 384)
    assert run.embedding.shape == (384,)
    assert float(np.linalg.norm(run.embedding)) == pytest.approx(1, abs=1e-12)
    mean = run.hidden_states[-1].mean(axis=0)
    assert np.allclose(run.embedding, mean / np.linalg.norm(mean), atol=1e-15)


def test_embed_is_the_sum_of_three_tables_normalised(model: MiniLM) -> None:
    _, ids = model.tokenize(LESSON)
    n = len(ids)
    summed = (
        model.word_embeddings[ids].astype(np.float64)
        + model.position_embeddings[:n]
        + model.token_type_embeddings[0]
    )
    gain, bias = model.embeddings_norm
    mean = summed.mean(axis=-1, keepdims=True)
    var = summed.var(axis=-1, keepdims=True)
    by_hand = (summed - mean) / np.sqrt(var + model.config.eps) * gain + bias
    assert np.allclose(model.embed(ids), by_hand, rtol=1e-12, atol=1e-12)
    assert np.array_equal(model.embed(ids), model.run(LESSON).hidden_states[0])


def test_tables_config_and_layers(model: MiniLM) -> None:
    c = model.config
    assert (c.layers, c.heads, c.hidden, c.intermediate) == (6, 12, 384, 1536)
    assert (c.vocab_size, c.max_positions, c.eps) == (30522, 512, 1e-12)
    assert model.word_embeddings.shape == (30522, 384)
    assert model.position_embeddings.shape == (512, 384)
    assert model.token_type_embeddings.shape == (2, 384)
    assert [a.shape for a in model.embeddings_norm] == [(384,), (384,)]
    assert len(model.layers) == 6 and all(isinstance(x, EncoderLayerWeights) for x in model.layers)
    # the row convention: w_q is the file's query weight transposed
    raw = model.weights["encoder.layer.2.attention.self.query.weight"]
    assert np.array_equal(model.layers[2].w_q, raw.T)
    assert not model.word_embeddings.flags.writeable
    with pytest.raises(TypeError):
        model.weights["x"] = np.zeros(1)  # type: ignore[index]
    assert len(model.weights_sha256) == 64
    assert load_minilm() is model


def test_tokenizer_splits_as_bert_does(model: MiniLM) -> None:
    tokens, ids = model.tokenize("Didn't  Café 🙂")
    assert tokens == ["[CLS]", "didn", "'", "t", "cafe", "[UNK]", "[SEP]"]
    assert ids[0] == 101 and ids[-1] == 102 and ids[-2] == 100  # [CLS], [SEP], [UNK]


@pytest.mark.parametrize("bad", [None, 3, b"bytes", ["a"]])
def test_a_non_string_is_a_type_error(model: MiniLM, bad: Any) -> None:
    with pytest.raises(TypeError, match="text must be a str, got"):
        model.run(bad)


@pytest.mark.parametrize("blank", ["", " ", "\n\t  "])
def test_empty_text_is_a_value_error(model: MiniLM, blank: str) -> None:
    with pytest.raises(ValueError, match="text is empty or only whitespace"):
        model.run(blank)


def test_too_long_text_names_the_limit_and_the_count(model: MiniLM) -> None:
    model.run(" ".join(["word"] * 510))  # 512 tokens with [CLS] and [SEP]: the most
    with pytest.raises(ValueError, match=r"text gives 513 tokens .* a 512-token limit"):
        model.run(" ".join(["word"] * 511))


def test_embed_errors(model: MiniLM) -> None:
    with pytest.raises(ValueError, match=r"ids must lie in 0\.\.30521"):
        model.embed([101, 30522])
    with pytest.raises(ValueError, match=r"ids must have shape \(n,\) with 1 <= n <= 512"):
        model.embed(np.zeros(513, dtype=int))
    with pytest.raises(TypeError, match="ids must be integers"):
        model.embed([1.5])


def test_a_missing_extra_says_what_to_install(tmp_path: Path) -> None:
    """In a fresh interpreter where safetensors cannot be imported."""
    script = tmp_path / "no_extra.py"
    script.write_text(
        "import builtins, sys\n"
        "real = builtins.__import__\n"
        "def fake(name, *a, **k):\n"
        "    if name.split('.')[0] == 'safetensors':\n"
        "        raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = fake\n"
        "from attention_ref.minilm import load_minilm\n"
        "try:\n"
        "    load_minilm()\n"
        "except ImportError as err:\n"
        "    print(err)\n",
        encoding="utf-8",
    )
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert 'pip install "attention-ref[minilm]"' in out
    assert "safetensors" in out
