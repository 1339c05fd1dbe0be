"""Lesson 5's generation widget's data: lesson 4's committed weights, as JSON.

The weights go out as ``make train`` wrote them (6 significant digits), so that the
widget and :func:`attention_ref.induction.forward` compute with the same numbers.

Examples
--------
>>> data = generate_data()
>>> data["config"], data["start"], data["letters"][:3]
({'d_model': 32, 'heads': 4, 'max_len': 24, 'scaled': True}, 26, 'abc')
>>> data["prompt"], [len(data["params"][name]) for name in ("W_E", "W_pos", "W_U")]
('planetspl', [27, 24, 32])
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from attention_ref.induction import LAYERS, LETTERS, START, VOCAB, param_names
from site_build.widget_data import compact_json

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS_JSON = ROOT / "data" / "induction_weights.json"
GENERATE_JSON_PATH = "assets/data/generate.json"
#: The widget's first letters: seven, then the first two again, a repeat to continue.
DEFAULT_PROMPT = "planetspl"


def generate_data(record: dict[str, Any] | None = None) -> dict[str, Any]:
    """The widget's data from a weights record (by default the committed one); ``ValueError``
    when the record lacks a weight of the model or has one more."""
    if record is None:
        record = json.loads(WEIGHTS_JSON.read_text(encoding="utf-8"))
    params = record["params"]
    if sorted(params) != sorted(param_names()):
        raise ValueError(
            f"the weights record holds {sorted(params)}, the model needs {sorted(param_names())}"
        )
    if not set(DEFAULT_PROMPT) <= set(LETTERS):
        raise ValueError(f"the default prompt {DEFAULT_PROMPT!r} has a character that is no letter")
    return {
        "config": record["config"],
        "layers": LAYERS,
        "vocab": VOCAB,
        "letters": LETTERS,
        "start": START,
        "prompt": DEFAULT_PROMPT,
        "params": {name: params[name] for name in param_names()},
    }


def generate_json() -> str:
    """:func:`generate_data` as compact JSON."""
    return compact_json(generate_data())
