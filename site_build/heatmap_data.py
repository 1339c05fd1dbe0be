"""The heatmap's data: the committed real-model attention file, checked and shipped.

``data/it_attention.json`` is written by ``scripts/model_attention.py`` (real attention
of all-MiniLM-L6-v2). ``hooks/heatmap_data.py`` adds it to the site unchanged as
``assets/data/it_attention.json``, after :func:`heatmap_json` has checked its shape, so
a damaged file fails the build instead of the widget.

Examples
--------
>>> text = heatmap_json()
>>> text == DATA_FILE.read_text(encoding="utf-8")
True
>>> HEATMAP_JSON_PATH
'assets/data/it_attention.json'
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: The committed data file (repository path) and where the site serves it.
DATA_FILE = ROOT / "data" / "it_attention.json"
HEATMAP_JSON_PATH = "assets/data/it_attention.json"

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


def heatmap_json(path: Path = DATA_FILE) -> str:
    """The text of the data file, after :func:`check_record` accepted it."""
    text = path.read_text(encoding="utf-8")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"heatmap data: {path.name} is not valid JSON: {err}") from err
    check_record(record)
    return text
