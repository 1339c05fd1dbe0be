"""Render later, then render all: the lesson page skips what is far below the first
screen while it loads, and renders every block once it has settled.

The element counts are the oracle here (no timings): Material's script forces several
full style passes while a page loads, and each costs in proportion to the elements the
browser does not skip.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.settled import SETTLE_TIMEOUT_MS, wait_settled
from tests.browser.test_pages import PAGES

RENDERED = """() => {
  const all = [...document.body.getElementsByTagName('*')];
  const skipped = all.filter((e) => !e.checkVisibility({contentVisibilityAuto: true})
      && e.checkVisibility());
  return {all: all.length, skipped: skipped.length};
}"""


def test_far_blocks_are_skipped_while_the_page_loads(page: Any, site_url: str) -> None:
    # Without settle.js the page stays as it loads: what is skipped then is skipped at load.
    page.route(
        "**/javascripts/settle.js", lambda r: r.fulfill(body="", content_type="text/javascript")
    )
    page.goto(site_url + "attention/")
    page.wait_for_load_state("load")
    counts = page.evaluate(RENDERED)
    assert counts["all"] > 3000, counts  # the lesson page is long: the premise of this test
    assert counts["skipped"] > 0.6 * counts["all"], (
        f"only {counts['skipped']} of {counts['all']} elements skipped at load"
    )
    assert page.evaluate("document.documentElement.hasAttribute('data-settled')") is False


def test_every_block_renders_once_the_page_settles(page: Any, site_url: str) -> None:
    page.goto(site_url + "attention/")
    wait_settled(page, nudge=False)  # a reader who never moves: settle.js's own timer
    counts = page.evaluate(RENDERED)
    assert counts["skipped"] == 0, f"{counts['skipped']} elements still skipped after settling"
    # The page looks the same: the last formula far down has its real size now.
    height = page.evaluate(
        "[...document.querySelectorAll('.katex-display')].pop().getBoundingClientRect().height"
    )
    assert height > 10


def test_a_page_reached_by_a_link_settles_too(page: Any, site_url: str) -> None:
    page.goto(site_url)
    wait_settled(page)
    page.locator("nav.md-nav--primary a.md-nav__link", has_text="Attention").first.click()
    page.wait_for_url(site_url + "attention/")
    # Settled for the new page: no element of it is skipped any more (a timeout fails).
    page.wait_for_function(
        f"""() => document.querySelectorAll('.katex').length > 10
            && document.documentElement.hasAttribute('data-settled')
            && ({RENDERED})().skipped === 0""",
        timeout=SETTLE_TIMEOUT_MS,
    )
    assert page.evaluate(RENDERED)["all"] > 3000


SHIFTS = """() => new Promise((done) => {
  const BLOCK = '.md-content__inner > *, .jp-Notebook > .jp-Cell, .jp-RenderedMarkdown > *';
  const shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      shifts.push({value: e.value, sources: e.sources.map((s) => s.node
        ? s.node.nodeName + ' ' + (s.node.textContent || '').trim().slice(0, 40) : '?'),
        blocks: e.sources.filter((s) => s.node && s.node.matches && s.node.matches(BLOCK))
          .length});
    }
  }).observe({type: 'layout-shift', buffered: true});
  setTimeout(() => done(shifts), 300);
})"""


@pytest.mark.parametrize(
    "viewport",
    [{"width": 412, "height": 823}, {"width": 1280, "height": 900}],
    ids=["phone", "desktop"],
    indirect=True,
)
@pytest.mark.parametrize("path", PAGES)
def test_nothing_on_screen_moves_while_the_page_loads_and_settles(
    page: Any, site_url: str, path: str, viewport: dict[str, int]
) -> None:
    # A block skipped while on screen would paint at its placeholder height first, then
    # push the blocks that follow when it renders: a layout shift (Lighthouse's CLS) of
    # whole blocks. (Text that reflows within its lines because a KaTeX font arrived after
    # the first paint, which a busy machine can cause, moves text and inline formulas
    # only: not counted here.)
    page.goto(site_url + path, wait_until="load")
    wait_settled(page)
    shifts = page.evaluate(SHIFTS)
    blocks = [s for s in shifts if s["blocks"]]
    assert blocks == [], f"{path or '/'} at {viewport['width']} px: layout shifts {shifts}"
