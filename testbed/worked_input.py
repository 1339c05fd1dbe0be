"""Play a contributor changing an input of the worked example (for tests and benchmarks)."""

from __future__ import annotations

import ast
from typing import Any


def with_input(source: str, name: str, value: list[Any]) -> str:
    """The text of ``snippets/worked_example.py`` with input ``name`` (assigned alone or in
    a tuple) set to ``value``, the rest byte for byte: for tests and benchmarks.

    Examples
    --------
    >>> print(with_input("a = [1]\\nb, c = [2], [3]\\n", "c", [4, 5]), end="")
    a = [1]
    b, c = [2], [4, 5]
    >>> with_input("a = [1]\\n", "z", [0])
    Traceback (most recent call last):
    ...
    ValueError: no input z is assigned a value of its own in the worked example
    """
    lines = source.split("\n")
    for node in ast.parse(source).body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, expr = node.targets[0], node.value
        if isinstance(target, ast.Name) and target.id == name:
            spot = expr
        elif (
            isinstance(target, ast.Tuple)
            and isinstance(expr, ast.Tuple)
            and len(target.elts) == len(expr.elts)
            and name in [t.id for t in target.elts if isinstance(t, ast.Name)]
        ):
            names = [t.id if isinstance(t, ast.Name) else "" for t in target.elts]
            spot = expr.elts[names.index(name)]
        else:
            continue
        if spot.lineno != spot.end_lineno or spot.end_col_offset is None:
            break
        line = lines[spot.lineno - 1].encode("utf-8")  # ast counts UTF-8 bytes
        new = line[: spot.col_offset] + repr(value).encode() + line[spot.end_col_offset :]
        lines[spot.lineno - 1] = new.decode("utf-8")
        return "\n".join(lines)
    raise ValueError(f"no input {name} is assigned a value of its own in the worked example")
