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
from collections.abc import Sequence
from typing import Any

import numpy as np

import attention_ref
from site_build.worked_example import WorkedExample, read

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

#: The seeded d_k experiment: how many keys, the seed, the default d_k.
DK_KEYS = 8
DK_SEED = 1
DK_DEFAULT = 64


def _floats(a: Any) -> list[Any]:
    return np.asarray(a, dtype=np.float64).tolist()  # type: ignore[no-any-return]


def worked_example(
    q: Sequence[float] | None = None,
    keys: Sequence[Sequence[float]] | None = None,
    values: Sequence[Sequence[float]] | None = None,
) -> dict[str, Any]:
    """Inputs and every step of one query's attention (by default the lesson's).

    Returns ``q``, ``keys``, ``values``, ``d_k``, ``scale`` and the steps ``scores``,
    ``scaled``, ``weights`` (n_k,) and ``output`` (d_v,). ``ValueError`` for a ``q`` that
    is not one vector, or shapes that disagree.

    Examples
    --------
    >>> ex = worked_example(q=[2, 0], keys=[[1, 0], [0, 1]], values=[[1, 0], [0, 1]])
    >>> ex["d_k"], ex["scores"], [round(x, 3) for x in ex["weights"]]
    (2, [2.0, 0.0], [0.804, 0.196])
    >>> worked_example(q=[[1, 0, 1, 0]])
    Traceback (most recent call last):
    ...
    ValueError: the explorer's query must be one vector (d_k,), got shape (1, 4)
    """
    if q is None or keys is None or values is None:
        lesson = read()
        q = lesson.q if q is None else q
        keys = lesson.keys if keys is None else keys
        values = lesson.values if values is None else values
    q_arr = np.asarray(q, dtype=np.float64)
    if q_arr.ndim != 1:
        raise ValueError(f"the explorer's query must be one vector (d_k,), got shape {q_arr.shape}")
    d_k = q_arr.shape[0]
    s = attention_ref.scores(q_arr, keys)  # (n_k,)
    return {
        "q": _floats(q_arr),
        "keys": _floats(keys),
        "values": _floats(values),
        "d_k": d_k,
        "scale": 1.0 / math.sqrt(d_k),
        "scores": _floats(s),
        "scaled": _floats(attention_ref.scale_scores(s, d_k)),
        "weights": _floats(attention_ref.attention_weights(q_arr, keys)),
        "output": _floats(attention_ref.scaled_dot_product_attention(q_arr, keys, values)),
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
    keys = np.asarray(example.keys, dtype=np.float64)
    values = np.asarray(example.values, dtype=np.float64)
    # Each component at the end of its range that raises the target key's score more
    # than the others': the sign of (k_target - mean of the other keys).
    others = np.delete(keys, NEAR_VALUE, axis=0).mean(axis=0)
    corner = np.where(keys[NEAR_VALUE] - others >= 0, HIGH, LOW)
    closest_out = attention_ref.scaled_dot_product_attention(corner, keys, values)
    base = np.asarray(example.q, dtype=np.float64)
    return {
        "win": WIN_KEY,
        "near": {
            "value": NEAR_VALUE,
            "within": NEAR_WITHIN,
            "closest": {
                "q": _floats(corner),
                "weights": _floats(attention_ref.attention_weights(corner, keys)),
                "output": _floats(closest_out),
                "distance": float(np.linalg.norm(closest_out - values[NEAR_VALUE])),
            },
        },
        "double": {
            "base": _floats(base),
            "factor": DOUBLE_FACTOR,
            "base_weights": _floats(attention_ref.attention_weights(base, keys)),
            "weights": _floats(attention_ref.attention_weights(DOUBLE_FACTOR * base, keys)),
        },
    }


def dk_choices(lowest: int = 1, highest: int = 1024) -> list[int]:
    """The d_k slider's stops: every power of two from ``lowest`` to ``highest``.

    Examples
    --------
    >>> dk_choices(1, 16)
    [1, 2, 4, 8, 16]
    >>> dk_choices(1, 1000)
    Traceback (most recent call last):
    ...
    ValueError: d_k stops must be powers of two with 1 <= lowest <= highest, got 1 and 1000
    """
    powers = all(isinstance(n, int) and n >= 1 and n & (n - 1) == 0 for n in (lowest, highest))
    if not powers or lowest > highest:
        raise ValueError(
            "d_k stops must be powers of two with 1 <= lowest <= highest, "
            f"got {lowest!r} and {highest!r}"
        )
    return [1 << e for e in range(lowest.bit_length() - 1, highest.bit_length())]


def explorer_data() -> dict[str, Any]:
    """Everything the explorer reads. The d_k experiment's random vectors are drawn in
    the browser (``lib/attention-math.js``): only the seed and sizes go out."""
    choices = dk_choices(1, 1024)
    if DK_DEFAULT not in choices:
        raise ValueError(f"the default d_k {DK_DEFAULT} is not one of the slider's stops")
    lesson = read()
    return {
        "schema": 1,
        "worked_example": worked_example(lesson.q, lesson.keys, lesson.values),
        "query_controls": dict(QUERY_CONTROLS),
        "challenges": challenge_data(lesson),
        "dk_slider": {
            "d_k": choices,
            "default_d_k": DK_DEFAULT,
            "n_keys": DK_KEYS,
            "seed": DK_SEED,
            "generator": "mulberry32 uniform, Box-Muller normals; q first, then each key",
        },
        "precision": dict(PRECISION),
    }


def explorer_json() -> str:
    """:func:`explorer_data` as compact JSON, keys sorted.

    Examples
    --------
    >>> json.loads(explorer_json())["schema"]
    1
    """
    text = json.dumps(explorer_data(), sort_keys=True, separators=(",", ":"), allow_nan=False)
    return text + "\n"
