"""Counting the heads of each role, for the tests of the pages that state such counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attention_ref.head_roles import ROLES


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
