"""The data of the query explorer (the worked example, read at every build, its steps
computed by :mod:`attention_ref`), lesson 4's training widget and lesson 5's generation
widget (both copy records committed in ``data/``).

Examples
--------
>>> data = explorer_data()
>>> data["worked_example"]["q"] == read().q
True
>>> round(sum(data["worked_example"]["weights"]), 12)
1.0
>>> data["dk_slider"]["d_k"][0], data["dk_slider"]["d_k"][-1]
(1, 1024)
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

import attention_ref
from attention_ref.induction import LAYERS, LETTERS, START, VOCAB, param_names
from site_build.worked_example import WorkedExample, as_floats, read

ROOT = Path(__file__).resolve().parent.parent

#: Decimal places the widget shows for each kind of number.
PRECISION = {"q": 1, "scores": 2, "scaled": 3, "weights": 3, "output": 2, "entropy": 3}

#: The query components' range and step (sliders and the drag plane).
LOW, HIGH = -3.0, 3.0
QUERY_CONTROLS = {"min": LOW, "max": HIGH, "step": 0.1, "plane_pair": [0, 2]}

#: The challenges' value to approach (v2) and how much to stretch the query.
NEAR_VALUE = 1
DOUBLE_FACTOR = 2.0


def worked_example(example: WorkedExample | None = None) -> dict[str, Any]:
    """Inputs and every step of one query's attention (by default the lesson's);
    ``ValueError`` for a ``q`` that is not one vector, or shapes that disagree.

    Examples
    --------
    >>> made_up = WorkedExample(q=[2, 0], keys=[[1, 0], [0, 1]], values=[[1, 0], [0, 1]])
    >>> ex = worked_example(made_up)
    >>> ex["d_k"], ex["scores"], [round(x, 3) for x in ex["weights"]]
    (2, [2.0, 0.0], [0.804, 0.196])
    >>> worked_example(WorkedExample([[1, 0, 1, 0]], made_up.keys, made_up.values))
    Traceback (most recent call last):
    ...
    ValueError: the explorer's query must be one vector (d_k,), got shape (1, 4)
    """
    q, keys, values = as_floats(example or read())
    if q.ndim != 1:
        raise ValueError(f"the explorer's query must be one vector (d_k,), got shape {q.shape}")
    d_k = q.shape[0]
    s = attention_ref.scores(q, keys)  # (n_k,)
    return {
        "q": q.tolist(),
        "keys": keys.tolist(),
        "values": values.tolist(),
        "d_k": d_k,
        "scale": 1.0 / math.sqrt(d_k),
        "scores": s.tolist(),
        "scaled": attention_ref.scale_scores(s, d_k).tolist(),
        "weights": attention_ref.attention_weights(q, keys).tolist(),
        "output": attention_ref.scaled_dot_product_attention(q, keys, values).tolist(),
    }


def challenge_data(example: WorkedExample) -> dict[str, Any]:
    """The explorer's challenges, with the numbers their explanations rest on.

    ``near.closest`` is the query at the corner of :data:`QUERY_CONTROLS` that favours
    the target value's key most (the weights stay positive, so the distance does too).

    Examples
    --------
    >>> made_up = WorkedExample(q=[1, 0], keys=[[1, 0], [0, 1], [1, 1]],
    ...                         values=[[4, 0], [0, 4], [2, 2]])
    >>> ch = challenge_data(made_up)
    >>> ch["near"]["closest"]["q"]  # k2 minus the mean of the other keys: [-1, 0.5]
    [-3.0, 3.0]
    >>> round(ch["near"]["closest"]["distance"], 3), ch["near"]["closest"]["distance"] > 0
    (0.371, True)
    >>> [round(w, 3) for w in ch["double"]["weights"]]
    [0.446, 0.108, 0.446]
    """
    base, keys, values = as_floats(example)
    # Each component at the end of its range given by the sign of (k_target - mean of the others).
    others = np.delete(keys, NEAR_VALUE, axis=0).mean(axis=0)
    corner = np.where(keys[NEAR_VALUE] - others >= 0, HIGH, LOW)
    closest_out = attention_ref.scaled_dot_product_attention(corner, keys, values)
    return {
        "win": 2,  # the key to make win: k3
        "near": {
            "value": NEAR_VALUE,
            "within": 0.25,  # how near counts
            "closest": {
                "q": corner.tolist(),
                "weights": attention_ref.attention_weights(corner, keys).tolist(),
                "output": closest_out.tolist(),
                "distance": float(np.linalg.norm(closest_out - values[NEAR_VALUE])),
            },
        },
        "double": {
            "base": base.tolist(),
            "factor": DOUBLE_FACTOR,
            "base_weights": attention_ref.attention_weights(base, keys).tolist(),
            "weights": attention_ref.attention_weights(DOUBLE_FACTOR * base, keys).tolist(),
        },
    }


def explorer_data() -> dict[str, Any]:
    """Everything the explorer reads. The d_k experiment's random vectors are drawn in
    the browser (``lib/attention-math.js``): only the seed and sizes go out."""
    lesson = read()
    return {
        "schema": 1,
        "worked_example": worked_example(lesson),
        "query_controls": dict(QUERY_CONTROLS),
        "challenges": challenge_data(lesson),
        "dk_slider": {
            "d_k": [1 << e for e in range(11)],  # the slider's stops: 1, 2, 4, ... 1024
            "default_d_k": 64,
            "n_keys": 8,
            "seed": 1,
            "generator": "mulberry32 uniform, Box-Muller normals; q first, then each key",
        },
        "precision": dict(PRECISION),
    }


def compact_json(data: Any, *, sort_keys: bool = False) -> str:
    """``data`` as JSON with no spaces, characters as they are (every data file of the
    site); ``ValueError`` for a NaN.

    Examples
    --------
    >>> compact_json({"b": [1.5, "é"], "a": None}, sort_keys=True)
    '{"a":null,"b":[1.5,"é"]}'
    """
    return json.dumps(
        data, ensure_ascii=False, allow_nan=False, sort_keys=sort_keys, separators=(",", ":")
    )


# --- Lesson 4's training widget

RUN_JSON = ROOT / "data" / "induction_run.json"


def symbol(token: int) -> str:
    """The letter a token stands for, or ``^`` for the start token (as the page spells it).

    >>> symbol(0), symbol(25), symbol(START)
    ('a', 'z', '^')
    """
    if token == START:
        return "^"
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


def training_data() -> dict[str, Any]:
    """The training widget's data from the committed run: the losses, and each checkpoint's
    attention maps in the record's thousandths, rows cut causally (row ``i`` has ``i + 1``).

    Examples
    --------
    >>> data = training_data()
    >>> data["tokens"][:4], data["half"], len(data["steps"])
    (['^', 'w', 'e', 'a'], 8, 40)
    >>> [len(row) for row in data["attention"][0][0][0][:3]]  # step 0, layer 1, head 1
    [1, 2, 3]
    """
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


# --- Lesson 5's generation widget

WEIGHTS_JSON = ROOT / "data" / "induction_weights.json"
#: The widget's first letters: seven, then the first two again, a repeat to continue.
DEFAULT_PROMPT = "planetspl"


def generate_data(record: dict[str, Any] | None = None) -> dict[str, Any]:
    """The generation widget's data from a weights record (by default lesson 4's), as ``make
    train`` wrote them, so that the widget and :func:`attention_ref.induction.forward` compute
    with the same numbers; ``ValueError`` when the record lacks a weight or has one more.

    Examples
    --------
    >>> data = generate_data()
    >>> data["config"], data["start"], data["letters"][:3]
    ({'d_model': 32, 'heads': 4, 'max_len': 24, 'scaled': True}, 26, 'abc')
    >>> data["prompt"], [len(data["params"][name]) for name in ("W_E", "W_pos", "W_U")]
    ('planetspl', [27, 24, 32])
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


def data_files() -> dict[str, str]:
    """The three widgets' data files by site path, compact JSON (the explorer's keys sorted).

    >>> json.loads(data_files()["assets/data/explorer.json"])["schema"]
    1
    """
    return {
        "assets/data/explorer.json": compact_json(explorer_data(), sort_keys=True) + "\n",
        "assets/data/training.json": compact_json(training_data()),
        "assets/data/generate.json": compact_json(generate_data()),
    }
