"""Practice timings in Chromium: Pyodide cold start to the first result, warm re-run.

- **cold**: a fresh browser context (empty cache) opens the lesson page at the first
  practice step, which brings the section into view and starts loading the editor and
  Pyodide; the bench clicks *Run the checks* as soon as the button exists and stops the
  clock when the step shows its result. Page load, downloads and Python's start are all in.
- **warm**: in the same page, a second click on *Run* until the result shows again
  (the worker is warm: this is what a learner waits for on every later run).

The bytes the practice section loads (Pyodide, the editor, the runner, the exercises) are
recorded too: they are not part of the page's first load.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from bench.stats import summarize
from site_build.vendor import PYODIDE_DEST
from testbed.chromium import CHROMIUM, CHROMIUM_ARGS
from testbed.pageweight import RequestLog

ROOT = Path(__file__).resolve().parents[1]
STEP = "01_dot"
ANCHOR = "attention/#practice-dot"
RUNNER = f'.practice__runner[data-step="{STEP}"]'
DONE = f"""() => ['pass', 'fail'].includes(document.querySelector('{RUNNER}')?.dataset.state)"""

# Click Run in the warm page and resolve with the ms until the result shows.
WARM_RUN = """async (sel) => {
  const box = document.querySelector(sel);
  const button = box.querySelector('[data-action=run]');
  const t0 = performance.now();
  const done = new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (['pass', 'fail'].includes(box.dataset.state)) { obs.disconnect(); resolve(); }
    });
    obs.observe(box, {attributes: true, attributeFilter: ['data-state']});
  });
  button.click();
  await done;
  return performance.now() - t0;
}"""


def run(repeat: int = 3, site: Path = ROOT / "site", warm_runs: int = 7) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from testbed.serve import serve

    cold: list[float] = []
    warm: list[float] = []
    loaded: dict[str, Any] = {}
    with sync_playwright() as pw, serve(site) as base:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for i in range(repeat):
            print(f"  practice: cold start {i + 1}/{repeat}", file=sys.stderr, flush=True)
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            log = RequestLog().attach(page)
            start = time.perf_counter()
            page.goto(base + ANCHOR, wait_until="commit")
            page.locator(f"{RUNNER} [data-action=run]").click(timeout=60_000)
            page.wait_for_function(DONE, polling="raf", timeout=120_000)
            cold.append(time.perf_counter() - start)
            if i == 0:
                for _ in range(warm_runs):
                    warm.append(page.evaluate(WARM_RUN, RUNNER) / 1000)
                page.wait_for_load_state("networkidle")
                entries = [
                    e
                    for e in log.entries()
                    if "/javascripts/practice/" in e["url"]
                    or f"/{PYODIDE_DEST}/" in e["url"]
                    or "/practice/" in e["url"]
                ]
                loaded = {
                    "bytes": sum(e["bytes"] for e in entries),
                    "requests": len(entries),
                    "pyodide_bytes": sum(
                        e["bytes"] for e in entries if f"/{PYODIDE_DEST}/" in e["url"]
                    ),
                }
            context.close()
        browser.close()
    return {
        "what": "seconds; cold = open the page at the first step until its first result, "
        "warm = a re-run in the warm worker",
        "timings": {
            "practice cold: page open to first result": summarize(cold),
            "practice warm re-run": summarize(warm),
        },
        "practice_load": loaded,
    }
