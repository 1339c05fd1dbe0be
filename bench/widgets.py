"""Widget timings in Chromium: one explorer recompute, one heatmap row focus."""

from __future__ import annotations

from typing import Any


def run(repeat: int = 7) -> dict[str, Any]:
    return {"timings": {}, "note": "not measured yet: the widgets have not landed"}
