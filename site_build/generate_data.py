"""What lesson 5's generation widget reads: lesson 4's trained weights, as JSON.

The widget (``docs/javascripts/lib/generate-widget.js``) runs lesson 4's model in the
reader's browser, one token at a time with a cache of keys and values, and continues the
letters the reader types. It needs every weight of the model, and nothing else from the
record: the weights go out exactly as ``make train`` committed them in
``data/induction_weights.json`` (6 significant digits), not rounded further, so that the
JavaScript and :func:`attention_ref.induction.forward` compute with the same numbers.
Beside them: the model's sizes, the letters and the start token, and the prompt the widget
starts with (:data:`DEFAULT_PROMPT`). ``hooks/build.py`` adds the file to the site.

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

ROOT = Path(__file__).resolve().parent.parent
#: The committed weights of lesson 4's model (written by ``make train``).
WEIGHTS_JSON = ROOT / "data" / "induction_weights.json"
#: Site path of the exported JSON (relative to the site root).
GENERATE_JSON_PATH = "assets/data/generate.json"
#: The letters the widget starts with: a run of seven letters and the first two of it
#: again, so that the model has a repeat to continue (``tests/test_generate_data.py``
#: checks that greedy decoding with :func:`attention_ref.induction.forward` does).
DEFAULT_PROMPT = "planetspl"


def generate_data(record: dict[str, Any] | None = None) -> dict[str, Any]:
    """The widget's data from a weights record (by default the committed one).

    Raises ``ValueError`` when the record lacks a weight of the model or has one more.
    """
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
    """:func:`generate_data` as compact JSON (each weight written as the record writes it)."""
    return json.dumps(generate_data(), separators=(",", ":"))
