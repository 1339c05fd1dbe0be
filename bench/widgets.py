"""Widget timings in Chromium: explorer recomputes, a heatmap row focus, the heads widget.

Each timing is taken inside the page with ``performance.now()`` around a loop of events,
each dispatched to the element the widget listens on and followed by a forced layout
(reading ``offsetHeight``), so it covers the maths, the DOM updates and the layout they
cause (not the paint). A run is the loop's time divided by its events (Chromium coarsens
``performance.now()`` to 0.1 ms, too coarse for one event). Events alternate between two
states so that every one really changes the numbers shown.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from bench.stats import summarize
from testbed.chromium import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[1]
EVENTS = 50  # dispatched events per sample


def _per_event(params: str, setup: str, fire: str) -> str:
    """A page function: ``setup``, then ``fire`` once per event (``i`` its index).

    ``params`` destructures the arguments, ``events`` first. The page is laid out again
    after every event (the offsetHeight read), so the time includes the re-render; the
    function returns milliseconds per event.
    """
    return f"""({params}) => {{
  {setup}
  const t0 = performance.now();
  for (let i = 0; i < events; i++) {{
    {fire}
    void document.body.offsetHeight;
  }}
  return (performance.now() - t0) / events;
}}"""


# Move one of the explorer's sliders (chosen by a CSS selector) between its two ends.
EXPLORER_SLIDER = _per_event(
    "[events, slider]",
    """const root = document.querySelector('[data-widget=explorer][data-widget-state="ready"]');
  const input = root.querySelector(slider);
  const values = [input.min, input.max];""",
    """input.value = values[i % 2];
    input.dispatchEvent(new Event('input', {bubbles: true}));""",
)
QUERY_SLIDER = ".ex__sliders input[type=range]"  # the first query component
DK_SLIDER = 'input[type=range][id$="-dk"]'

# Click two elements of a widget in turn (chosen by a CSS selector and their positions,
# negative from the end). The heatmap's click on a row header focuses that row; the
# heads widget's click on a small head opens it in full (its canvas, token labels and
# readout are redrawn).
CLICK_TWO = _per_event(
    "[events, box, target, first, second]",
    """const all = document.querySelector(box).querySelectorAll(target);
  const at = (i) => all[i < 0 ? all.length + i : i];
  const targets = [at(first), at(second)];""",
    "targets[i % 2].dispatchEvent(new MouseEvent('click', {bubbles: true}));",
)
HEATMAP_READY = "[data-widget=heatmap][data-widget-state=ready]"
HEADS_READY = "[data-widget=heads][data-widget-state=ready]"

# Switch the heads widget between two layers (twelve small canvases and labels redrawn).
HEADS_LAYER = _per_event(
    "[events]",
    """const box = document.querySelector('[data-widget=heads][data-widget-state=ready]');
  const select = box.querySelector('select[data-hd=layer]');
  const values = [select.options[0].value, select.options[select.options.length - 1].value];""",
    """select.value = values[i % 2];
    select.dispatchEvent(new Event('change', {bubbles: true}));""",
)


# The heatmap with a reader's 64-token sentence (4,096 cells), on a 412 px phone with the
# CPU slowed four times (CDP Emulation.setCPUThrottlingRate), the probe's setting of issue
# 34: a layer change (cells updated in place), and the sentence shown again after a fixed
# one (its grid built afresh, what showing a new result costs).
LONG_SENTENCE = " ".join(["word"] * 62)  # 64 tokens with [CLS] and [SEP]
PHONE_412 = {"width": 412, "height": 915}
CPU_SLOWDOWN = 4
HEATMAP_LAYER = _per_event(
    "[events]",
    """const box = document.querySelector('[data-widget=heatmap][data-widget-state=ready]');
  const select = box.querySelector('select[data-hm=layer]');
  const values = ['0', '5'];""",
    """select.value = values[i % 2];
    select.dispatchEvent(new Event('change', {bubbles: true}));""",
)
HEATMAP_SHOW_OWN = _per_event(
    "[events]",
    """const box = document.querySelector('[data-widget=heatmap][data-widget-state=ready]');
  const radios = [box.querySelector('input[type=radio]'), box.querySelector('[data-hm=own]')];""",
    """radios[(i + 1) % 2].checked = true;
    radios[(i + 1) % 2].dispatchEvent(new Event('change', {bubbles: true}));""",
)
LONG_EVENTS = 6  # a rebuild of 4,096 cells takes long enough to time a few at once


def heatmap_64(browser: Any, base: str, repeat: int) -> dict[str, Any]:
    """Timings of the heatmap with a 64-token sentence at 412 px, CPU slowed 4x."""
    page = browser.new_page(viewport=PHONE_412)
    page.goto(base + "attention/?stall=120000", wait_until="load")
    box = page.locator("[data-widget=heatmap]")
    box.scroll_into_view_if_needed()
    page.wait_for_selector(HEATMAP_READY, state="attached", timeout=30_000)
    field = box.get_by_label("Try your own sentence")
    field.fill(LONG_SENTENCE)
    field.press("Enter")
    box.locator("[data-own='consent']").click()
    page.wait_for_selector("[data-own-state=done]", timeout=180_000)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    timings: dict[str, Any] = {}
    for name, script in {
        "heatmap 64 tokens, 412 px, CPU 4x: layer change": HEATMAP_LAYER,
        "heatmap 64 tokens, 412 px, CPU 4x: own sentence shown (grid built)": HEATMAP_SHOW_OWN,
    }.items():
        print(f"  widgets: {name}", file=sys.stderr, flush=True)
        page.evaluate(script, [2])  # warm-up
        timings[name] = summarize(
            [page.evaluate(script, [LONG_EVENTS]) / 1000 for _ in range(repeat)]
        )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    page.close()
    return timings


def run(repeat: int = 7, site: Path = ROOT / "site") -> dict[str, Any]:
    """``repeat`` samples of each interaction; a sample is the mean over EVENTS events."""
    from playwright.sync_api import sync_playwright

    from testbed.serve import serve

    scripts = {
        "explorer recompute (query slider)": (
            "attention/",
            "[data-widget=explorer]",
            "[data-widget-state=ready]",
            EXPLORER_SLIDER,
            [EVENTS, QUERY_SLIDER],
        ),
        "explorer d_k recompute (slider end to end)": (
            "attention/",
            "[data-widget=explorer]",
            "[data-widget-state=ready]",
            EXPLORER_SLIDER,
            [EVENTS, DK_SLIDER],
        ),
        "heatmap row focus (click)": (
            "attention/",
            "[data-widget=heatmap]",
            HEATMAP_READY,
            CLICK_TWO,
            [EVENTS, HEATMAP_READY, "tbody tr > :first-child", 1, -2],
        ),
        "heads: open a head (click)": (
            "self-attention/",
            "[data-widget=heads]",
            HEADS_READY,
            CLICK_TWO,
            [EVENTS, HEADS_READY, ".heads__head", 2, 8],
        ),
        "heads: switch layer (select)": (
            "self-attention/",
            "[data-widget=heads]",
            HEADS_READY,
            HEADS_LAYER,
            [EVENTS],
        ),
    }
    timings: dict[str, Any] = {}
    with sync_playwright() as pw, serve(site) as base:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        for name, (path, box, ready, script, args) in scripts.items():
            print(f"  widgets: {name}", file=sys.stderr, flush=True)
            if page.url != base + path:
                page.goto(base + path, wait_until="load")
            page.locator(box).first.scroll_into_view_if_needed()
            page.wait_for_selector(ready, state="attached", timeout=30_000)
            page.evaluate(script, args)  # warm-up (JIT, first layout)
            samples = [page.evaluate(script, args) / 1000 for _ in range(repeat)]
            timings[name] = summarize(samples)
        timings.update(heatmap_64(browser, base, repeat))
        browser.close()
    return {
        "what": f"seconds per interaction; each run is the mean of {EVENTS} events",
        "timings": timings,
    }
