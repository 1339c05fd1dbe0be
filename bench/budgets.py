"""Rewrite the per-page budget file ``tests/budgets.json`` from a fresh measurement.

The file and its check live in :mod:`testbed.budgets` (the browser tests hold every page to
it); measuring needs the benchmark's first load (:func:`bench.site.first_load`), so the
update lives here: ``make build`` then ``python -m bench --update-budgets``.
"""

from __future__ import annotations

import json
from pathlib import Path

from testbed import budgets

ROOT = Path(__file__).resolve().parents[1]


def update(site: Path = ROOT / "site", path: Path = budgets.BUDGETS) -> Path:
    """Measure every page of the built ``site`` in both palettes and rewrite the budget file."""
    from playwright.sync_api import sync_playwright

    from bench.site import first_load
    from testbed.chromium import CHROMIUM, CHROMIUM_ARGS
    from testbed.serve import built_pages, serve

    if not (site / "index.html").exists():
        raise SystemExit("site/ is not built: run `make build` first")
    worst: dict[str, dict[str, int]] = {}
    with sync_playwright() as pw, serve(site) as base:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for page in built_pages(site):
            for scheme in ("light", "dark"):
                got = first_load(browser, base + page, color_scheme=scheme)
                slot = worst.setdefault(
                    budgets.page_key(page), {"bytes": 0, "transfer": 0, "requests": 0}
                )
                for what in slot:
                    slot[what] = max(slot[what], got[what])
        browser.close()
    path.write_text(json.dumps(budgets.make_budgets(worst), indent=2) + "\n", encoding="utf-8")
    return path
