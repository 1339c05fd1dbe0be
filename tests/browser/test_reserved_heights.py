"""The height each widget's box holds before it is built, against the height it takes once
built, at a phone's and a desktop's width.

The heatmap, the explorer and the practice steps reserve fixed heights in their
stylesheets (``min-height`` while ``data-widget-state`` is ``waiting`` or ``loading``);
the heads widget derives its height from its layout rules and has its own, tighter test
(``test_heads_widget.py::test_reserved_height_and_phone_width``). Here the widget's module
is held back, the box is measured, the module is let through and the built widget is
measured again. ``SLACK`` is how far the built height may land from the reserved one:
what the fixed value cannot follow as the text rewraps across the widths of one layout
(measured in December 2026, built minus reserved: heatmap +86 px at 360 px and +5 px at
1280 px; explorer +170 px and +30 px; the shortest practice step +232 px and +41 px,
its 15rem being a desktop's value). A change that makes a widget much taller or shorter
fails here, and its reserved height must follow.
"""

from __future__ import annotations

from typing import Any

import pytest

from site_build.site import WIDGETS

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
REM = 20  # px: Material's root font size on these widths

#: widget: (page, the measured element inside its container or "" for the container
#: itself, slack in px). Its container and module come from the site model.
RESERVED = {
    "heatmap": ("attention/", "", 6 * REM),
    "explorer": ("attention/", "", 10 * REM),
    "practice": ("attention/", ".practice__runner", 240),
}


def heights(page: Any, container: str, inner: str) -> list[float]:
    sel = f"{container} {inner}".strip()
    found: list[float] = page.eval_on_selector_all(
        sel, "els => els.map((e) => e.getBoundingClientRect().height)"
    )
    assert found, f"nothing matches {sel}"
    return found


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], indirect=True, ids=["phone", "desktop"])
@pytest.mark.parametrize("widget", list(RESERVED))
def test_reserved_height_is_the_built_height(
    page: Any, site_url: str, viewport: dict[str, int], widget: str
) -> None:
    path, inner, slack = RESERVED[widget]
    container, module = WIDGETS[widget].container, f"**/{WIDGETS[widget].module}"
    held: list[Any] = []
    page.route(module, lambda route: held.append(route))
    page.goto(site_url + path, wait_until="load")
    page.locator(container).scroll_into_view_if_needed()
    page.wait_for_selector(f"{container}[data-widget-state=loading]", state="attached")
    page.wait_for_timeout(200)
    reserved = heights(page, container, inner)
    for route in held:
        route.continue_()
    page.wait_for_selector(f"{container}[data-widget-state=ready]", timeout=30_000)
    if widget == "practice":
        page.wait_for_selector(f"{container} .practice__runner .cm-editor", timeout=30_000)
    page.wait_for_timeout(300)
    built = heights(page, container, inner)
    # A practice step reserves the height of the shortest built step; a widget, its own.
    reserved_px, built_px = min(reserved), min(built)
    assert abs(built_px - reserved_px) <= slack, (
        f"{widget} at {viewport['width']} px: reserved {reserved_px:.0f} px, "
        f"built {built_px:.0f} px (slack {slack} px)"
    )
