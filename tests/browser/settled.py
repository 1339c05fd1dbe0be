"""Waiting for a page of this site to settle (settle.js sets ``data-settled`` on the root).

One place for the wait and its limit. The limit is a guard against a page that never
settles, not a speed requirement: on a machine that runs the whole suite on two busy
cores, settling a long lesson page took up to about 20 s, so it is set well above that.

A page settles when the reader starts to move, or ``SETTLE_DELAY_MS`` (3 s) after load
if they do not (settle.js). By default the wait moves first, as a reader scrolling
does, so that no test sits out the delay; ``nudge=False`` waits for the timer alone.
"""

from __future__ import annotations

from typing import Any

SETTLE_TIMEOUT_MS = 60_000


def wait_settled(page: Any, *, nudge: bool = True) -> None:
    """Wait until the page's root element has ``data-settled``, or fail saying so.

    With ``nudge``, a scroll event is sent first: what settle.js waits for from a reader.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    if nudge:
        page.evaluate("() => window.dispatchEvent(new Event('scroll'))")
    try:
        page.wait_for_selector("html[data-settled]", state="attached", timeout=SETTLE_TIMEOUT_MS)
    except PlaywrightTimeout:
        skipped = page.evaluate(
            """() => [...document.querySelectorAll('.md-content__inner > *')]
                .filter((e) => getComputedStyle(e).contentVisibility === 'auto').length"""
        )
        raise AssertionError(
            f"{page.url} did not settle within {SETTLE_TIMEOUT_MS / 1000:.0f} s: "
            f"{skipped} blocks still skipped (content-visibility: auto), see settle.js"
        ) from None


def open_widget(page: Any, url: str, widget: str) -> Any:
    """Load ``url``, bring the widget matched by ``widget`` into view, wait until it is ready.

    Returns the widget's locator. Scrolling is what mounts it (lazy-mount.js mounts a widget
    as it nears the viewport, then sets ``data-widget-state`` to ``ready``).
    """
    page.goto(url, wait_until="load")
    box = page.locator(widget)
    box.scroll_into_view_if_needed()
    page.wait_for_selector(f"{widget}[data-widget-state=ready]")
    return box
