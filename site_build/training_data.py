"""Lesson 4's training widget's data: the committed run (``data/induction_run.json``), slimmed.

Only what the widget shows goes out: the losses and the causal rows of each checkpoint's
attention maps (row ``i`` has ``i + 1`` weights) in the record's thousandths.

Examples
--------
>>> data = training_data()
>>> data["tokens"][:4], data["half"], len(data["steps"])
(['^', 'w', 'e', 'a'], 8, 40)
>>> [len(row) for row in data["attention"][0][0][0][:3]]  # step 0, layer 1, head 1
[1, 2, 3]
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from attention_ref.induction import LETTERS, START
from site_build.widget_data import compact_json

ROOT = Path(__file__).resolve().parent.parent
RUN_JSON = ROOT / "data" / "induction_run.json"
TRAINING_JSON_PATH = "assets/data/training.json"
#: How the start token is shown (as the page's probe line spells it).
START_SYMBOL = "^"


def symbol(token: int) -> str:
    """The letter a token stands for, or :data:`START_SYMBOL` for the start token.

    >>> symbol(0), symbol(25), symbol(START)
    ('a', 'z', '^')
    """
    if token == START:
        return START_SYMBOL
    if not 0 <= token < len(LETTERS):
        raise ValueError(f"token {token} is neither a letter (0..25) nor the start ({START})")
    return LETTERS[token]


def causal_rows(matrix: list[list[int]]) -> list[list[int]]:
    """Row ``i`` of a causal map cut to its first ``i + 1`` entries; the cut must be zeros.

    >>> causal_rows([[1000, 0], [400, 600]])
    [[1000], [400, 600]]
    >>> causal_rows([[900, 100], [400, 600]])
    Traceback (most recent call last):
    ...
    ValueError: row 0 attends to a later position: [900, 100]
    """
    rows = []
    for i, row in enumerate(matrix):
        if any(row[i + 1 :]):
            raise ValueError(f"row {i} attends to a later position: {row}")
        rows.append(row[: i + 1])
    return rows


def training_data(record: dict[str, Any] | None = None) -> dict[str, Any]:
    """The widget's data from a training record (by default the committed one)."""
    if record is None:
        record = json.loads(RUN_JSON.read_text(encoding="utf-8"))
    probe = record["probe"]["tokens"]
    points = record["checkpoints"]
    return {
        "tokens": [symbol(t) for t in probe[:-1]],  # the positions the model reads
        "half": record["probe"]["half"],
        "steps": [c["step"] for c in points],
        "first": [c["first"] for c in points],
        "repeat": [c["repeat"] for c in points],
        "scale": record["attention_scale"],
        "attention": [
            [[causal_rows(head) for head in layer] for layer in c["attention"]] for c in points
        ],
    }


def training_json() -> str:
    """:func:`training_data` as compact JSON."""
    return compact_json(training_data())
