"""Per-page first-load budgets: the file, the comparison, and how to update it.

``tests/budgets.json`` holds, for every built page, the most bytes (decoded), transfer
bytes (compressed, as GitHub Pages sends them, headers included) and requests its first
load may take (as counted by :mod:`testbed.pageweight`), and allows no third-party request.
``tests/browser/test_pages.py`` checks every page against it in both palettes.

To update after a deliberate change: ``make build`` then ``python -m bench --update-budgets``
(:func:`bench.budgets.update` measures every page in both palettes, adds :data:`HEADROOM`),
review the diff, commit.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BUDGETS = ROOT / "tests" / "budgets.json"
HEADROOM = 0.15
UPDATE_HINT = "make build && .venv/bin/python -m bench --update-budgets"


def load(path: Path = BUDGETS) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def with_headroom(measured: int, headroom: float = HEADROOM) -> int:
    """``measured`` plus ``headroom``, rounded up (at least one more).

    Examples
    --------
    >>> with_headroom(100), with_headroom(7), with_headroom(0)
    (115, 9, 1)
    """
    return max(measured + 1, math.ceil(measured * (1 + headroom)))


def page_key(path: str) -> str:
    """The budget file's key for a page path ('' is the home page).

    Examples
    --------
    >>> page_key(""), page_key("attention/")
    ('/', '/attention/')
    """
    return "/" + path


def check(page: str, measured: dict[str, Any], budgets: dict[str, Any]) -> list[str]:
    """Every budget ``measured`` breaks, each said with the page, the budget and by how much.

    ``measured`` has ``bytes``, ``transfer``, ``requests`` and ``third_party`` (URLs).

    Examples
    --------
    >>> b = {"third_party_requests": 0,
    ...      "pages": {"/a/": {"bytes": 1000, "transfer": 300, "requests": 10}}}
    >>> check("a/", {"bytes": 1200, "transfer": 300, "requests": 10, "third_party": []}, b)
    ['page /a/: first load 1200 bytes > budget 1000 bytes, over by 200 bytes (+20.0%)']
    >>> got = check("a/", {"bytes": 900, "transfer": 330, "requests": 9, "third_party": []}, b)
    >>> [p.split(", ")[0] for p in got]
    ['page /a/: transferred 330 transfer bytes > budget 300 transfer bytes']
    >>> check("a/", {"bytes": 900, "transfer": 250, "requests": 9, "third_party": []}, b)
    []
    """
    key = page_key(page)
    problems = []
    limits = budgets.get("pages", {}).get(key)
    if limits is None:
        return [f"page {key}: no budget in tests/budgets.json; add one with `{UPDATE_HINT}`"]
    for what, unit, got in (
        ("first load", "bytes", int(measured["bytes"])),
        ("transferred", "transfer", int(measured["transfer"])),
        ("requests", "requests", int(measured["requests"])),
    ):
        if unit not in limits:
            problems.append(f"page {key}: no {unit} budget; update with `{UPDATE_HINT}`")
            continue
        limit = int(limits[unit])
        if got > limit:
            over = got - limit
            problems.append(
                f"page {key}: {what} {got} {_unit(unit)} > budget {limit} {_unit(unit)}, "
                f"over by {over} {_unit(unit)} (+{100 * over / limit:.1f}%)"
            )
    third = list(measured.get("third_party", []))
    allowed = int(budgets.get("third_party_requests", 0))
    if len(third) > allowed:
        problems.append(
            f"page {key}: {len(third)} third-party requests > budget {allowed}: {third[:5]}"
        )
    return problems


def _unit(unit: str) -> str:
    return "transfer bytes" if unit == "transfer" else unit


def make_budgets(measured: dict[str, dict[str, int]], headroom: float = HEADROOM) -> dict[str, Any]:
    """The budget file's content from the worst measured value of each page.

    Examples
    --------
    >>> page = make_budgets({"/": {"bytes": 1000, "transfer": 200, "requests": 10}})["pages"]["/"]
    >>> page["bytes"], page["transfer"], page["requests"], page["measured_transfer"]
    (1150, 230, 12, 200)
    """
    return {
        "about": (
            "First-load budgets per page, checked in both palettes by "
            "tests/browser/test_pages.py. bytes: sum of response bodies, decoded; "
            "transfer: encoded bodies plus headers, served gzipped like GitHub Pages; "
            "requests: finished http requests, the document included. Budgets are the "
            f"measured worst palette plus {round(100 * headroom)}% headroom. "
            f"After a deliberate change: `{UPDATE_HINT}`, review the diff, commit."
        ),
        "headroom": headroom,
        "third_party_requests": 0,
        "pages": {
            key: {
                "bytes": with_headroom(m["bytes"], headroom),
                "transfer": with_headroom(m["transfer"], headroom),
                "requests": with_headroom(m["requests"], headroom),
                "measured_bytes": m["bytes"],
                "measured_transfer": m["transfer"],
                "measured_requests": m["requests"],
            }
            for key, m in sorted(measured.items())
        },
    }
