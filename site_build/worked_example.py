"""The worked example's inputs, read from their one source: ``snippets/worked_example.py``.

The build and the tests call :func:`read`; a practice file's ``from _worked_example import
Q, K, V`` is published with the values written in (:func:`practice_text`).

Examples
--------
>>> ex = read()
>>> len(ex.q) == len(ex.keys[0]), len(ex.keys) == len(ex.values)
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

import re
import runpy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import attention_ref

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "snippets" / "worked_example.py"

#: How a practice file imports the inputs: ``Q``, ``K``, ``V``, each maybe renamed (``as``).
IMPORT_LINE = re.compile(r"^from _worked_example import (?P<names>[^\n#()]+?)[ \t]*$", re.MULTILINE)
#: A value written into a published practice file (the names of :data:`FIELDS`).
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_]\w*)\s*\}\}")
#: Decimals kept when a computed float is written into a practice file's text.
DECIMALS = 4


@dataclass(frozen=True)
class WorkedExample:
    """The worked example's inputs as plain Python lists (numbers as written)."""

    q: list[Any]  # (d_k,)
    keys: list[list[Any]]  # (n_k, d_k)
    values: list[list[Any]]  # (n_k, d_v)


def read(source: Path = SOURCE) -> WorkedExample:
    """Run ``source`` (at every call, so that an edit shows) and return its ``q``, ``K`` and
    ``V``; ``ValueError`` naming a missing one or shapes that do not agree."""
    ran = runpy.run_path(str(source), run_name="worked_example_inputs")  # imported: silent
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


def _rounded(value: Any) -> Any:  # floats to DECIMALS, in nested lists
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return round(value, DECIMALS) if isinstance(value, float) else value


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
    """A practice file as published: its import line and placeholders replaced by values;
    ``ValueError`` naming the file ``where`` for a name that is not known."""
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
