"""The query explorer's data: the worked example, its steps and the widget's settings.

The inputs are read from ``snippets/worked_example.py`` at every build and the steps
computed by :mod:`attention_ref`: the widget types no number of the lesson itself.

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
from typing import Any

import numpy as np

import attention_ref
from site_build.worked_example import WorkedExample, as_floats, read

EXPLORER_JSON_PATH = "assets/data/explorer.json"
#: Decimal places the widget shows for each kind of number.
PRECISION = {"q": 1, "scores": 2, "scaled": 3, "weights": 3, "output": 2, "entropy": 3}

#: The query components' range and step (sliders and the drag plane).
LOW, HIGH = -3.0, 3.0
QUERY_CONTROLS = {"min": LOW, "max": HIGH, "step": 0.1, "plane_pair": [0, 2]}

#: The challenges: the key to make win (k3), the value to approach (v2) and how near
#: counts, how much to stretch the query.
WIN_KEY = 2
NEAR_VALUE = 1
NEAR_WITHIN = 0.25
DOUBLE_FACTOR = 2.0

#: The seeded d_k experiment: the slider's stops (1, 2, 4, ... 1024), how many keys, the
#: seed, the default d_k (one of the stops).
DK_STOPS = [1 << e for e in range(11)]
DK_KEYS = 8
DK_SEED = 1
DK_DEFAULT = 64


def worked_example(example: WorkedExample | None = None) -> dict[str, Any]:
    """Inputs and every step of one query's attention (by default the lesson's).

    Returns ``q``, ``keys``, ``values``, ``d_k``, ``scale`` and the steps ``scores``,
    ``scaled``, ``weights`` (n_k,) and ``output`` (d_v,). ``ValueError`` for a ``q`` that
    is not one vector, or shapes that disagree.

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
    # Each component at the end of its range that raises the target key's score more
    # than the others': the sign of (k_target - mean of the other keys).
    others = np.delete(keys, NEAR_VALUE, axis=0).mean(axis=0)
    corner = np.where(keys[NEAR_VALUE] - others >= 0, HIGH, LOW)
    closest_out = attention_ref.scaled_dot_product_attention(corner, keys, values)
    return {
        "win": WIN_KEY,
        "near": {
            "value": NEAR_VALUE,
            "within": NEAR_WITHIN,
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
            "d_k": DK_STOPS,
            "default_d_k": DK_DEFAULT,
            "n_keys": DK_KEYS,
            "seed": DK_SEED,
            "generator": "mulberry32 uniform, Box-Muller normals; q first, then each key",
        },
        "precision": dict(PRECISION),
    }


def compact_json(data: Any, *, sort_keys: bool = False) -> str:
    """``data`` as JSON with no spaces, characters as they are; ``ValueError`` for a NaN.

    The site's data files are all written by it.

    Examples
    --------
    >>> compact_json({"b": [1.5, "é"], "a": None}, sort_keys=True)
    '{"a":null,"b":[1.5,"é"]}'
    """
    return json.dumps(
        data, ensure_ascii=False, allow_nan=False, sort_keys=sort_keys, separators=(",", ":")
    )


def explorer_json() -> str:
    """:func:`explorer_data` as compact JSON, keys sorted.

    >>> json.loads(explorer_json())["schema"]
    1
    """
    return compact_json(explorer_data(), sort_keys=True) + "\n"
