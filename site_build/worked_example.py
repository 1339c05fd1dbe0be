"""The worked example's inputs, read from their one source: ``snippets/worked_example.py``.

Lesson 1's query, keys and values are written once, in the ``data`` section of that
snippet, the first code a reader of the lesson sees, and read from there, never from a
copy: the other snippets import them, the explorer's data (:mod:`site_build.widget_data`)
and the tests call :func:`read`, the practice checks import them in the repository
(``from _worked_example import Q, K, V``), and the copies the site publishes get the values
written in by :func:`practice_text`, so that a reader's download runs on its own.
``tests/test_worked_example.py`` fails when a literal copy of the inputs is left anywhere
else, and changes an input in a copy of the repository to show that every page follows.

Examples
--------
>>> ex = read()
>>> ex.d_k == len(ex.q) == len(ex.keys[0]), len(ex.keys) == len(ex.values)
(True, True)
>>> made_up = WorkedExample(q=[1, 1], keys=[[2, 0], [0, 2]], values=[[1, 0], [0, 1]])
>>> print(practice_text("from _worked_example import Q, K as KEYS\\n", made_up, "x.py"))
# Lesson 1's worked example, written in by the site's build from its one source,
# snippets/worked_example.py.
Q = [1, 1]
KEYS = [[2, 0], [0, 2]]
<BLANKLINE>
>>> practice_text("scaled_scores({{q}}, {{K}}) is {{scaled}}", made_up, "x.py")
'scaled_scores([1, 1], [[2, 0], [0, 2]]) is [1.4142, 1.4142]'
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import runpy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import attention_ref

ROOT = Path(__file__).resolve().parent.parent
#: The one source of the worked example's inputs.
SOURCE = ROOT / "snippets" / "worked_example.py"

#: The line by which a practice file imports the inputs in the repository. The names
#: are ``Q``, ``K`` and ``V``, each optionally renamed (``K as WORKED_K``).
IMPORT_LINE = re.compile(r"^from _worked_example import (?P<names>[^\n#()]+?)[ \t]*$", re.MULTILINE)
#: A value written into a published practice file: ``{{q}}``, ``{{K}}``, ``{{V}}``,
#: ``{{scaled}}`` (the scaled scores q·k / √d_k, by attention_ref).
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_]\w*)\s*\}\}")
#: Decimals kept when a computed float is written into a practice file's text.
DECIMALS = 4


@dataclass(frozen=True)
class WorkedExample:
    """The worked example's inputs as plain Python lists (numbers as written)."""

    q: list[Any]  # (d_k,)
    keys: list[list[Any]]  # (n_k, d_k)
    values: list[list[Any]]  # (n_k, d_v)

    @property
    def d_k(self) -> int:
        return len(self.q)


def read(source: Path = SOURCE) -> WorkedExample:
    """Run ``source`` quietly (at every call: ``mkdocs serve`` rebuilds after an edit to it)
    and return its ``q``, ``K`` and ``V``; ``ValueError`` if it lacks one, or their shapes
    do not make one query, ``n_k`` keys as wide as it and ``n_k`` values (naming them)."""
    with contextlib.redirect_stdout(io.StringIO()):  # imported, it prints nothing anyway
        ran = runpy.run_path(str(source), run_name="worked_example_inputs")
    missing = [name for name in ("q", "K", "V") if name not in ran]
    if missing:
        raise ValueError(f"{source.name} defines no {', '.join(missing)}: the inputs are q, K, V")
    q, keys, values = (np.asarray(ran[name]) for name in ("q", "K", "V"))
    if q.ndim != 1 or keys.ndim != 2 or values.ndim != 2:
        raise ValueError(
            f"{source.name}: q must be one vector (d_k,), K and V matrices (n_k, d_k) and "
            f"(n_k, d_v); got shapes {q.shape}, {keys.shape} and {values.shape}"
        )
    if keys.shape[1] != q.shape[0] or values.shape[0] != keys.shape[0]:
        raise ValueError(
            f"{source.name}: the keys must be as wide as q ({q.shape[0]}) and as many as the "
            f"values; got K {keys.shape} and V {values.shape}"
        )
    return WorkedExample(q=q.tolist(), keys=keys.tolist(), values=values.tolist())


def _rounded(value: Any) -> Any:
    """Floats rounded to :data:`DECIMALS` (integers as they are), in nested lists."""
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    if isinstance(value, float):
        return round(value, DECIMALS)
    return value


#: What each placeholder stands for, computed from the inputs.
FIELDS: dict[str, Callable[[WorkedExample], Any]] = {
    "q": lambda ex: ex.q,
    "K": lambda ex: ex.keys,
    "V": lambda ex: ex.values,
    "scaled": lambda ex: attention_ref.scaled_scores(ex.q, ex.keys).tolist(),
}
#: What each name of :data:`IMPORT_LINE` stands for.
IMPORTS = {"Q": FIELDS["q"], "K": FIELDS["K"], "V": FIELDS["V"]}


def _assignments(names: str, example: WorkedExample, where: str) -> str:
    lines = [
        "# Lesson 1's worked example, written in by the site's build from its one source,",
        "# snippets/worked_example.py.",
    ]
    for item in names.split(","):
        name, _, alias = (part.strip() for part in item.partition(" as "))
        if name not in IMPORTS or not (alias or name).isidentifier():
            raise ValueError(
                f"{where}: cannot import {item.strip()!r} from _worked_example "
                f"(it has {', '.join(IMPORTS)})"
            )
        lines.append(f"{alias or name} = {IMPORTS[name](example)!r}")
    return "\n".join(lines)


def practice_text(text: str, example: WorkedExample, where: str) -> str:
    """A practice file as the site publishes it: the worked example's values written in.

    The line ``from _worked_example import ...`` becomes assignments of the values, and
    each placeholder (``{{q}}``, ``{{K}}``, ``{{V}}``, ``{{scaled}}``) becomes the value
    (floats to :data:`DECIMALS` decimals); ``ValueError`` for a name either does not know
    (naming the file ``where``). A file with neither comes back unchanged.
    """
    text = IMPORT_LINE.sub(lambda m: _assignments(m["names"], example, where), text)

    def value(match: re.Match[str]) -> str:
        name = match[1]
        if name not in FIELDS:
            raise ValueError(
                f"{where}: unknown placeholder {match[0]} (known: "
                f"{', '.join('{{' + f + '}}' for f in FIELDS)})"
            )
        return repr(_rounded(FIELDS[name](example)))

    return PLACEHOLDER.sub(value, text)


def as_floats(example: WorkedExample) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``q`` (d_k,), ``K`` (n_k, d_k) and ``V`` (n_k, d_v) as float64 arrays."""
    return tuple(  # type: ignore[return-value]
        np.asarray(x, dtype=np.float64) for x in (example.q, example.keys, example.values)
    )


def with_input(source: str, name: str, value: list[Any]) -> str:
    """``source`` (the text of ``snippets/worked_example.py``) with input ``name`` set to
    ``value``, the rest kept byte for byte: for tests and benchmarks that play a contributor
    changing an input. ``name`` is assigned a literal alone (``k_1 = [...]``) or in a tuple
    (``v_1, v_2, v_3 = [...], [...], [...]``).

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
