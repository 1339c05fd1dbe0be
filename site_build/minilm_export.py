"""all-MiniLM-L6-v2 for the browser, under :data:`EXPORT_DIR`: one float16 file per group of
weights (``embeddings``, ``layer-0``...), the word table in shards of :data:`SHARD_ROWS` rows
(a sentence fetches only its ids' shards), the tokenizer, and ``manifest.json`` with the
shapes, offsets, sizes and SHA-256 of all; the other files are named by their content.

Examples
--------
>>> import numpy as np
>>> blob, entries = pack_group([("a", np.ones((2, 3), np.float32)), ("b", np.zeros(4))])
>>> len(blob), entries
(20, [{'name': 'a', 'offset': 0, 'shape': [2, 3]}, {'name': 'b', 'offset': 12, 'shape': [4]}])
>>> hashed_name("layer-0", b"abc", ".bin")
'layer-0.ba7816bf8f01cfea.bin'
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from attention_ref.minilm import load_minilm, model_dir
from site_build.cache import ContentCache, content_key
from site_build.heatmap_data import installed_weights_sha256
from site_build.widget_data import compact_json

EXPORT_DIR = "assets/minilm"
MANIFEST_PATH = f"{EXPORT_DIR}/manifest.json"
#: Rows of the word-embedding table per shard (24 KiB; binary files travel uncompressed).
SHARD_ROWS = 32
NAME_HASH_CHARS = 16  # hex digits of the SHA-256 in a file's name
CACHE_NAME = "minilm"
#: Bumped when the layout of the files changes (the widget refuses another).
FORMAT = 1

#: The arrays of an encoder layer, after ``encoder.layer.<i>.``, in the order packed.
LAYER_ARRAYS = tuple(
    f"{part}.{kind}"
    for part in (
        "attention.self.query",
        "attention.self.key",
        "attention.self.value",
        "attention.output.dense",
        "attention.output.LayerNorm",
        "intermediate.dense",
        "output.dense",
        "output.LayerNorm",
    )
    for kind in ("weight", "bias")
)
#: The embeddings' arrays but the word table (which is sharded).
EMBEDDING_ARRAYS = (
    "embeddings.position_embeddings.weight",
    "embeddings.token_type_embeddings.weight",
    "embeddings.LayerNorm.weight",
    "embeddings.LayerNorm.bias",
)
WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"


@dataclasses.dataclass(frozen=True)
class ModelSource:
    """What the export reads: arrays by name, config, ``tokenizer.json``, weights' hash."""

    weights: Mapping[str, npt.NDArray[Any]]
    config: Mapping[str, Any]
    tokenizer_json: bytes
    weights_sha256: str


def float16_bytes(array: npt.ArrayLike, name: str = "array") -> bytes:
    """``array`` as little-endian float16 bytes, refusing a value float16 cannot hold.

    Examples
    --------
    >>> float16_bytes([1.0, -2.0]).hex()
    '003c00c0'
    >>> float16_bytes([1e5], "w")
    Traceback (most recent call last):
    ...
    ValueError: w: 1 value(s) overflow float16 (largest magnitude 100000.0 > 65504)
    """
    arr = np.asarray(array, dtype=np.float64)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name}: holds a value that is not finite")
    too_big = np.abs(arr) > np.finfo(np.float16).max
    if too_big.any():
        raise ValueError(
            f"{name}: {int(too_big.sum())} value(s) overflow float16 "
            f"(largest magnitude {float(np.abs(arr).max())} > 65504)"
        )
    return arr.astype("<f2").tobytes()


def pack_group(arrays: Sequence[tuple[str, npt.ArrayLike]]) -> tuple[bytes, list[dict[str, Any]]]:
    """Arrays as float16, one after the other, and each one's name, offset and shape."""
    parts: list[bytes] = []
    entries: list[dict[str, Any]] = []
    offset = 0
    for name, array in arrays:
        arr = np.asarray(array)
        parts.append(float16_bytes(arr, name))
        entries.append({"name": name, "offset": offset, "shape": list(arr.shape)})
        offset += len(parts[-1])
    return b"".join(parts), entries


def hashed_name(stem: str, blob: bytes, ext: str) -> str:
    """``<stem>.<16 hex digits of the SHA-256>.<ext>``."""
    return f"{stem}.{hashlib.sha256(blob).hexdigest()[:NAME_HASH_CHARS]}{ext}"


def browser_tokenizer_json(tokenizer_json: bytes) -> bytes:
    """The tokenizer's JSON with padding and truncation off, compact; ``ValueError``
    unless it is an object with a WordPiece ``model``.

    Examples
    --------
    >>> raw = b'{"truncation": {"max_length": 128}, "model": {"type": "WordPiece"}}'
    >>> json.loads(browser_tokenizer_json(raw))
    {'truncation': None, 'model': {'type': 'WordPiece'}, 'padding': None}
    """
    try:
        record = json.loads(tokenizer_json)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"tokenizer.json: not JSON ({err})") from err
    if not isinstance(record, dict) or not isinstance(record.get("model"), dict):
        raise ValueError("tokenizer.json: expected an object with a 'model' object")
    if record["model"].get("type") != "WordPiece":
        raise ValueError(
            f"tokenizer.json: expected a WordPiece model, got {record['model'].get('type')!r}"
        )
    record.update(truncation=None, padding=None)
    return compact_json(record).encode("utf-8")


def export_files(source: ModelSource) -> dict[str, bytes]:
    """Every file of the browser's model, by site path (the manifest's paths are relative
    to its folder). ``KeyError`` naming an array the weights lack, ``ValueError`` for a
    value float16 cannot hold, a bad tokenizer or a word table of the wrong shape."""
    weights, config = source.weights, dict(source.config)
    files: dict[str, bytes] = {}

    def add(name: str, blob: bytes) -> dict[str, Any]:
        files[f"{EXPORT_DIR}/{name}"] = blob
        return {"path": name, "bytes": len(blob), "sha256": hashlib.sha256(blob).hexdigest()}

    def get(name: str) -> npt.NDArray[Any]:
        if name not in weights:
            raise KeyError(f"the weights have no array {name!r}")
        return weights[name]

    plan: list[tuple[str, Sequence[str]]] = [("embeddings", EMBEDDING_ARRAYS)]
    for i in range(int(config["layers"])):
        plan.append((f"layer-{i}", [f"encoder.layer.{i}.{n}" for n in LAYER_ARRAYS]))
    groups = []
    for stem, names in plan:
        blob, tensors = pack_group([(n, get(n)) for n in names])
        groups.append(
            {"name": stem, **add(hashed_name(stem, blob, ".bin"), blob), "tensors": tensors}
        )

    table = get(WORD_EMBEDDINGS)
    vocab, hidden = int(config["vocab_size"]), int(config["hidden"])
    if table.shape != (vocab, hidden):
        raise ValueError(f"{WORD_EMBEDDINGS}: expected shape {(vocab, hidden)}, got {table.shape}")
    shards = []
    for s, start in enumerate(range(0, vocab, SHARD_ROWS)):
        rows = table[start : start + SHARD_ROWS]  # (<= SHARD_ROWS, hidden)
        blob = float16_bytes(rows, f"{WORD_EMBEDDINGS}[shard {s}]")
        shards.append(add(f"words/{hashed_name(f'{s:03d}', blob, '.bin')}", blob))

    tokenizer = browser_tokenizer_json(source.tokenizer_json)
    manifest = {
        "format": FORMAT,
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "weights_sha256": source.weights_sha256,
        "dtype": "float16",
        "byte_order": "little",
        "config": config,
        "tokenizer": add(hashed_name("tokenizer", tokenizer, ".json"), tokenizer),
        "groups": groups,
        "word_embeddings": {
            "name": WORD_EMBEDDINGS,
            "rows": vocab,
            "width": hidden,
            "rows_per_shard": SHARD_ROWS,
            "shards": shards,
        },
    }
    files[MANIFEST_PATH] = (compact_json(manifest, sort_keys=True) + "\n").encode("utf-8")
    return files


def model_source() -> ModelSource:
    """The installed model's arrays, config and tokenizer (``attention_ref.minilm``)."""
    model = load_minilm()
    return ModelSource(
        weights=model.weights,
        config=dataclasses.asdict(model.config),
        tokenizer_json=(model.path / "tokenizer.json").read_bytes(),
        weights_sha256=model.weights_sha256,
    )


def cached_export(cache: ContentCache, source: ModelSource | None = None) -> dict[str, Path]:
    """The exported files by site path, each a file in ``cache`` (exported on a miss), keyed
    by the weights' hash (the RECORD's: a hit reads no weights), the tokenizer, this module
    and the layout constants."""
    if source is None:
        weights_sha256 = installed_weights_sha256()
        tokenizer_json = (model_dir() / "tokenizer.json").read_bytes()
    else:
        weights_sha256, tokenizer_json = source.weights_sha256, source.tokenizer_json
    key = content_key(
        meta={"format": FORMAT, "rows_per_shard": SHARD_ROWS, "name_hash_chars": NAME_HASH_CHARS},
        files=[Path(__file__)],
        data=[weights_sha256.encode("ascii"), tokenizer_json],
    )

    def suffix(site_path: str) -> str:
        return "-" + site_path.removeprefix(EXPORT_DIR + "/").replace("/", "_")

    index = cache.load(CACHE_NAME, key, ("-index.json",))  # the site paths, sorted
    names: list[str] = json.loads(index["-index.json"]) if index else []
    if not names or not all(cache.path(CACHE_NAME, key, suffix(p)).is_file() for p in names):
        files = export_files(model_source() if source is None else source)
        names = sorted(files)
        contents = {suffix(p): blob for p, blob in files.items()}
        cache.store(CACHE_NAME, key, {**contents, "-index.json": json.dumps(names).encode()})
    return {p: cache.path(CACHE_NAME, key, suffix(p)) for p in names}
