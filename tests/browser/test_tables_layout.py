"""A table is laid out the same before and after Material's script wraps it.

site_build/tables.py puts each table in a box of its own; Material's script later wraps
the table in its scroll boxes. The site's stylesheet lays the waiting table out as the
wrap will (extra.css), so that nothing moves when the wrap arrives: a difference here
was a layout shift on the Performance page (CLS 0.016 in one of four Lighthouse runs).

Each table's position and size, the size of its first header cell and the outer
height of its box are read twice: with Material's script blocked (the table as the
build wrote it) and after the script has wrapped it. Every block is rendered in both,
so that the comparison does not depend on what the browser had skipped.
"""

from __future__ import annotations

from typing import Any

import pytest

LAYOUT = """() => [...document.querySelectorAll('.md-content .table-box')].map((box) => {
    const table = box.querySelector('table');
    const r = table.getBoundingClientRect();
    const th = table.querySelector('th').getBoundingClientRect();
    const b = box.getBoundingClientRect();
    const round = (x) => Math.round(x * 10) / 10;
    return {
        wrapped: table.parentElement !== box,
        table: [r.x, r.y, r.width, r.height].map(round),
        first_header_cell: [th.width, th.height].map(round),
        box_height: round(b.height),
    };
})"""

RENDER_ALL = ".md-content__inner > * { content-visibility: visible !important; }"


def layout(page: Any, url: str, *, material: bool) -> list[dict[str, Any]]:
    if not material:
        page.route("**/assets/javascripts/bundle.*.min.js", lambda route: route.abort())
    page.goto(url, wait_until="load")
    page.add_style_tag(content=RENDER_ALL)
    if material:
        page.wait_for_function(
            "[...document.querySelectorAll('.md-content .table-box table')]"
            ".every((t) => t.parentElement.classList.contains('md-typeset__table'))"
        )
    return list(page.evaluate(LAYOUT))


@pytest.mark.parametrize(
    "viewport", [{"width": 412, "height": 823}, {"width": 1280, "height": 900}], indirect=True
)
@pytest.mark.parametrize("path", ["performance/", "attention/"])
def test_a_table_does_not_move_when_material_wraps_it(
    browser: Any, page: Any, site_url: str, path: str, viewport: dict[str, int]
) -> None:
    after = layout(page, site_url + path, material=True)
    other = browser.new_context(viewport=viewport, service_workers="block")
    try:
        before = layout(other.new_page(), site_url + path, material=False)
    finally:
        other.close()
    assert before, f"{path} has no table in a box"
    assert all(not t["wrapped"] for t in before), "the blocked script still wrapped a table"
    assert all(t["wrapped"] for t in after), "Material's script did not wrap every table"
    for i, (b, a) in enumerate(zip(before, after, strict=True)):
        assert {k: v for k, v in b.items() if k != "wrapped"} == {
            k: v for k, v in a.items() if k != "wrapped"
        }, f"table {i + 1} of {path}: as built {b}, once wrapped {a}"
