"""The browser's copy of all-MiniLM-L6-v2 (site_build/minilm_export.py).

The exported float16 files, read back with numpy, must hold the model's float32 weights
to float16 rounding (half a unit in the last place of float16: a relative 2**-11, or
2**-25 near zero); the manifest must describe the files it names; the tokenizer must
encode as the Python one does; the first use and the whole export must fit the budget.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import mimetypes
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_ref.minilm import load_minilm
from site_build import minilm_export as ex
from site_build.cache import ContentCache
from testbed.serve import COMPRESSED_TYPES, GZIP_LEVEL

MB = 1_000_000
#: The issue's budget: first use transfers <= 24 MB compressed; the site grows <= 60 MB.
FIRST_USE_GZIP_LIMIT = 24 * MB
SITE_GROWTH_LIMIT = 60 * MB
#: The widget's limit on tokens (docs/javascripts/lib/minilm-widget.js says the same).
TOKEN_LIMIT = 64


@pytest.fixture(scope="module")
def source() -> ex.ModelSource:
    return ex.model_source()


@pytest.fixture(scope="module")
def files(source: ex.ModelSource) -> dict[str, bytes]:
    return ex.export_files(source)


@pytest.fixture(scope="module")
def manifest(files: dict[str, bytes]) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(files[ex.MANIFEST_PATH])
    return record


def _blob(files: dict[str, bytes], relative: str) -> bytes:
    return files[f"{ex.EXPORT_DIR}/{relative}"]


def read_group(blob: bytes, entries: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """The arrays of one group file by name, read as the widget reads them (the inverse of
    ``ex.pack_group``); the test fails if an entry runs past the file's end."""
    out = {}
    for entry in entries:
        shape, start = tuple(entry["shape"]), entry["offset"]
        count = math.prod(shape)
        assert start + 2 * count <= len(blob), f"{entry['name']} runs past the file's end"
        out[entry["name"]] = np.frombuffer(blob, "<f2", count=count, offset=start).reshape(shape)
    return out


def manifest_sizes(manifest: dict[str, Any]) -> dict[str, int]:
    """Bytes of the tokenizer, of every group file (needed for any sentence), of the table."""
    return {
        "tokenizer": int(manifest["tokenizer"]["bytes"]),
        "encoder": sum(int(g["bytes"]) for g in manifest["groups"]),
        "words": sum(int(s["bytes"]) for s in manifest["word_embeddings"]["shards"]),
    }


def _assert_float16_rounding(back: np.ndarray, exact: np.ndarray, name: str) -> None:
    """``back`` is ``exact`` rounded to float16: within half a float16 ulp of it."""
    exact64 = exact.astype(np.float64)
    back64 = back.astype(np.float64)
    bound = np.maximum(np.abs(exact64) * 2.0**-11, 2.0**-25)  # half ulp, normal or subnormal
    err = np.abs(back64 - exact64)
    worst = int(np.argmax(err - bound))
    assert (err <= bound).all(), (
        f"{name}: element {worst} is {back64.flat[worst]!r}, weight {exact64.flat[worst]!r}"
    )


def test_group_weights_read_back_equal_the_model_to_float16_rounding(
    files: dict[str, bytes], manifest: dict[str, Any]
) -> None:
    model = load_minilm()
    seen = set()
    for group in manifest["groups"]:
        arrays = read_group(_blob(files, group["path"]), group["tensors"])
        for name, back in arrays.items():
            exact = model.weights[name]
            assert back.shape == exact.shape, name
            _assert_float16_rounding(back, exact, name)
            seen.add(name)
    # Every array of the weights file is in a group, but the sharded word table and what
    # attention_ref.minilm does not use either (the pooler; position_ids, an index 0..511).
    unused = {"pooler.dense.weight", "pooler.dense.bias", "embeddings.position_ids"}
    assert seen | {ex.WORD_EMBEDDINGS} == set(model.weights) - unused
    assert len(seen) == 4 + 6 * 16
    # and the layer arrays are those attention_ref uses (row convention = file's transpose)
    layer0 = read_group(
        _blob(files, manifest["groups"][1]["path"]), manifest["groups"][1]["tensors"]
    )
    np.testing.assert_allclose(
        layer0["encoder.layer.0.attention.self.query.weight"].astype(np.float64).T,
        model.layers[0].w_q,
        rtol=2.0**-11,
        atol=2.0**-25,
    )


def test_word_shards_read_back_equal_the_table_to_float16_rounding(
    files: dict[str, bytes], manifest: dict[str, Any]
) -> None:
    words = manifest["word_embeddings"]
    width, rows = words["width"], words["rows"]
    parts = [
        np.frombuffer(_blob(files, s["path"]), dtype="<f2").reshape(-1, width)
        for s in words["shards"]
    ]
    assert all(p.shape[0] == words["rows_per_shard"] for p in parts[:-1])
    table = np.concatenate(parts)
    assert table.shape == (rows, width) == (30522, 384)
    _assert_float16_rounding(table, load_minilm().word_embeddings, "word table")


def test_manifest_describes_its_files(files: dict[str, bytes], manifest: dict[str, Any]) -> None:
    entries = [manifest["tokenizer"], *manifest["groups"], *manifest["word_embeddings"]["shards"]]
    assert len(entries) == 1 + 7 + 954
    named = {f"{ex.EXPORT_DIR}/{e['path']}" for e in entries}
    assert named | {ex.MANIFEST_PATH} == set(files), "the manifest names every file, once"
    for e in entries:
        blob = _blob(files, e["path"])
        digest = hashlib.sha256(blob).hexdigest()
        assert (e["bytes"], e["sha256"]) == (len(blob), digest), e["path"]
        assert f".{digest[:16]}." in e["path"], f"{e['path']} is not named by its content"
    assert manifest["config"] == {
        "layers": 6,
        "heads": 12,
        "hidden": 384,
        "intermediate": 1536,
        "vocab_size": 30522,
        "max_positions": 512,
        "eps": 1e-12,
    }
    assert manifest["weights_sha256"] == load_minilm().weights_sha256


def test_the_shipped_tokenizer_encodes_as_the_python_one(
    files: dict[str, bytes], manifest: dict[str, Any]
) -> None:
    from tokenizers import Tokenizer

    record = json.loads(_blob(files, manifest["tokenizer"]["path"]))
    assert record["truncation"] is None and record["padding"] is None
    shipped = Tokenizer.from_str(json.dumps(record))
    text = "Attention, executable! " * 40  # 241 tokens: past the file's own truncation at 128
    tokens, ids = load_minilm().tokenize(text)
    enc = shipped.encode(text)
    assert len(tokens) > 128
    assert (enc.tokens, enc.ids) == (tokens, ids.tolist())


def test_budget_first_use_and_site_growth(
    files: dict[str, bytes], manifest: dict[str, Any]
) -> None:
    """Sizes printed for the note. Transferred as deployed: text types gzipped, binary
    files as stored (testbed/serve.py's rule, GitHub Pages'). The worst first use is a
    64-token sentence whose ids fall in 63 distinct shards (the largest ones)."""

    def gz(blob: bytes) -> int:
        return len(gzip.compress(blob, compresslevel=GZIP_LEVEL))

    def sent(path: str, blob: bytes) -> int:
        ctype = mimetypes.guess_type(path)[0] or "application/octet-stream"
        return gz(blob) if ctype in COMPRESSED_TYPES else len(blob)

    sizes = manifest_sizes(manifest)
    encoder_gz = sum(gz(_blob(files, g["path"])) for g in manifest["groups"])
    tokenizer_gz = gz(_blob(files, manifest["tokenizer"]["path"]))
    shards = manifest["word_embeddings"]["shards"]
    shard_sent = sorted((sent(s["path"], _blob(files, s["path"])) for s in shards), reverse=True)
    first_use = (
        sum(sent(g["path"], _blob(files, g["path"])) for g in manifest["groups"])
        + sent(manifest["tokenizer"]["path"], _blob(files, manifest["tokenizer"]["path"]))
        + sent(ex.MANIFEST_PATH, files[ex.MANIFEST_PATH])
        + sum(shard_sent[: TOKEN_LIMIT - 1])  # [CLS] and [SEP] share a shard
    )
    total_raw = sum(len(b) for b in files.values())
    print(
        f"\nminilm export: encoder {sizes['encoder'] / MB:.2f} MB raw, "
        f"{encoder_gz / MB:.2f} MB gzip; "
        f"tokenizer {sizes['tokenizer'] / MB:.3f} MB raw, {tokenizer_gz / MB:.3f} MB gzip; "
        f"word table {sizes['words'] / MB:.2f} MB raw in {len(shards)} shards; "
        f"manifest {len(files[ex.MANIFEST_PATH]) / MB:.3f} MB raw, "
        f"{gz(files[ex.MANIFEST_PATH]) / MB:.3f} MB gzip; "
        f"worst first use (63 shards) {first_use / MB:.2f} MB as served; "
        f"site grows {total_raw / MB:.2f} MB"
    )
    assert first_use <= FIRST_USE_GZIP_LIMIT
    assert total_raw <= SITE_GROWTH_LIMIT


def test_float16_refuses_what_it_cannot_hold() -> None:
    with pytest.raises(ValueError, match=r"w: holds a value that is not finite"):
        ex.float16_bytes([1.0, np.nan], "w")
    with pytest.raises(ValueError, match=r"overflow float16"):
        ex.float16_bytes([70000.0], "w")


def test_export_names_a_missing_array(source: ex.ModelSource) -> None:
    weights = dict(source.weights)
    del weights["encoder.layer.3.output.dense.bias"]
    bad = ex.ModelSource(weights, source.config, source.tokenizer_json, source.weights_sha256)
    with pytest.raises(KeyError, match=r"encoder\.layer\.3\.output\.dense\.bias"):
        ex.export_files(bad)


@pytest.mark.parametrize(
    ("blob", "message"),
    [
        (b"{not json", "not JSON"),
        (b"[1, 2]", "expected an object"),
        (b'{"model": {"type": "BPE"}}', "expected a WordPiece model, got 'BPE'"),
    ],
)
def test_tokenizer_json_refused(blob: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ex.browser_tokenizer_json(blob)


def test_cache_hit_reads_no_model_and_a_new_model_replaces_the_entry(
    source: ex.ModelSource, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = ContentCache(tmp_path)
    first = ex.cached_export(cache, source)
    assert {p for p in first} == set(ex.export_files(source))
    assert all(path.is_file() for path in first.values())

    def boom(*args: Any, **kwargs: Any) -> Callable[..., Any]:
        raise AssertionError("a cache hit must not export again")

    monkeypatch.setattr(ex, "export_files", boom)
    assert ex.cached_export(cache, source) == first
    monkeypatch.undo()
    other = ex.ModelSource(source.weights, source.config, source.tokenizer_json, "0" * 64)
    second = ex.cached_export(cache, other)
    assert not any(path.exists() for path in first.values()), "the older entry is pruned"
    assert all(path.is_file() for path in second.values())
    manifest = json.loads(second[ex.MANIFEST_PATH].read_bytes())
    assert manifest["weights_sha256"] == "0" * 64


def test_the_installed_model_keys_the_cache_as_its_loaded_source(tmp_path: Path) -> None:
    """Without a source, the key comes from the files' hashes: the same entry as the
    loaded model's, so a build's cache hit needs no model loaded."""
    cache = ContentCache(tmp_path)
    from_files = ex.cached_export(cache)
    assert ex.cached_export(cache, ex.model_source()) == from_files
