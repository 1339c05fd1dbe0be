"""The role of every head of the site's record, by :func:`attention_ref.head_roles.head_role`
(which defines the roles), shipped as :data:`HEAD_ROLES_JSON_PATH` for the heads widget."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from attention_ref.head_roles import ABOUT, ROLES, THRESHOLD, head_role
from site_build.heatmap_data import model_record

__all__ = ["HEAD_ROLES_JSON_PATH", "ROLES", "head_roles_json", "record_roles", "role_counts"]

#: Where the site serves the roles.
HEAD_ROLES_JSON_PATH = "assets/data/head_roles.json"


def record_roles(record: Mapping[str, Any], threshold: float = THRESHOLD) -> dict[str, Any]:
    """The roles of every head of every sentence of a record like ``data/it_attention.json``.

    Returns ``about``, ``threshold``, ``roles`` and ``sentences``: for each sentence id, a
    list over layers of a list over heads of ``{"role", "share"}``.

    Examples
    --------
    >>> record = {"scale": 10, "sentences": [{"id": "s", "tokens": ["[CLS]", "a"],
    ...     "attention": [[[[10, 0], [10, 0]], [[5, 5], [0, 10]]]]}]}
    >>> record_roles(record)["sentences"]
    {'s': [[{'role': 'special', 'share': 1.0}, {'role': 'self', 'share': 0.75}]]}
    """
    scale = record.get("scale")
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not scale > 0:
        raise ValueError(f"record: 'scale' must be a positive number, got {scale!r}")
    sentences: dict[str, list[list[dict[str, Any]]]] = {}
    for s in record["sentences"]:
        tokens = s["tokens"]
        sentences[s["id"]] = [
            [head_role(np.asarray(m, dtype=np.float64) / scale, tokens, threshold) for m in layer]
            for layer in s["attention"]
        ]
    return {"about": ABOUT, "threshold": threshold, "roles": dict(ROLES), "sentences": sentences}


def role_counts(layers: Sequence[Sequence[Mapping[str, Any]]]) -> dict[str, int]:
    """How many heads have each role, in the order of :data:`ROLES` (zeros included).

    Examples
    --------
    >>> role_counts([[{"role": "self"}, {"role": "mixed"}], [{"role": "self"}]])
    {'special': 0, 'previous': 0, 'self': 2, 'next': 0, 'mixed': 1}
    """
    counts = dict.fromkeys(ROLES, 0)
    for layer in layers:
        for head in layer:
            counts[head["role"]] += 1
    return counts


def head_roles_json(threshold: float = THRESHOLD) -> str:
    """The site's ``assets/data/head_roles.json``: roles of the build's record, compact."""
    return json.dumps(record_roles(model_record(), threshold), separators=(",", ":")) + "\n"
