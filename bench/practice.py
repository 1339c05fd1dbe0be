"""Practice timings in Chromium: Pyodide cold start to the first result, warm re-run."""

from __future__ import annotations

from typing import Any


def run(repeat: int = 3) -> dict[str, Any]:
    return {"timings": {}, "note": "not measured yet: the practice runner has not landed"}
