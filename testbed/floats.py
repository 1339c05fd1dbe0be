"""Committed numbers that do not depend on the CPU.

numpy's OpenBLAS picks its kernels by CPU, and the kernels sum in different orders: the
same float64 computation differs in its last bits from one machine to the next (about
1e-16 relative). A number written to a committed file is therefore rounded to what its
reader needs (:func:`rounded`), and a test that asks whether the file is current
compares it with a tolerance (:func:`differences`), never byte for byte.

Examples
--------
>>> rounded({"y": [0.1 + 0.2, 2.0, 7], "name": "x"}, digits=12)
{'y': [0.3, 2.0, 7], 'name': 'x'}
>>> differences({"y": [0.3, 1.0]}, {"y": [0.3 + 1e-13, 1.0]}, rel=1e-10)
[]
>>> differences({"y": [0.3, 1.0]}, {"y": [0.3, 1.001]}, rel=1e-10)
['y[1]: 1.0 != 1.001']
>>> differences({"a": 1}, {"b": 1}, rel=1e-10)
["keys differ: ['a'] != ['b']"]
"""

from __future__ import annotations

import math
from typing import Any


def rounded(tree: Any, digits: int) -> Any:
    """``tree`` (dicts, lists, tuples, numbers, strings) with every float at ``digits``
    significant digits; ints, bools and strings unchanged, tuples made lists (as JSON)."""
    if isinstance(tree, bool) or not isinstance(tree, float | dict | list | tuple):
        return tree
    if isinstance(tree, float):
        return float(f"{tree:.{digits}g}") if math.isfinite(tree) else tree
    if isinstance(tree, dict):
        return {key: rounded(value, digits) for key, value in tree.items()}
    return [rounded(value, digits) for value in tree]


def differences(
    actual: Any, expected: Any, *, rel: float, abs_: float = 0.0, where: str = ""
) -> list[str]:
    """Where ``actual`` and ``expected`` differ: structure, strings and ints exactly,
    floats within ``rel`` (relative) or ``abs_`` (absolute). An empty list means equal."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if sorted(actual) != sorted(expected):
            prefix = f"{where}: " if where else ""
            return [f"{prefix}keys differ: {sorted(actual)} != {sorted(expected)}"]
        return [
            d
            for key in expected
            for d in differences(
                actual[key], expected[key], rel=rel, abs_=abs_, where=f"{where}.{key}".lstrip(".")
            )
        ]
    if isinstance(expected, list) and isinstance(actual, list):
        if len(actual) != len(expected):
            return [f"{where}: length {len(actual)} != {len(expected)}"]
        return [
            d
            for i, (a, e) in enumerate(zip(actual, expected, strict=True))
            for d in differences(a, e, rel=rel, abs_=abs_, where=f"{where}[{i}]")
        ]
    numbers = (int, float)
    if (
        isinstance(actual, numbers)
        and isinstance(expected, numbers)
        and not isinstance(actual, bool)
        and not isinstance(expected, bool)
        and (isinstance(actual, float) or isinstance(expected, float))
    ):
        if math.isclose(actual, expected, rel_tol=rel, abs_tol=abs_) or (
            math.isnan(actual) and math.isnan(expected)
        ):
            return []
        return [f"{where}: {actual!r} != {expected!r}"]
    return (
        []
        if actual == expected and type(actual) is type(expected)
        else [f"{where}: {actual!r} != {expected!r}"]
    )
