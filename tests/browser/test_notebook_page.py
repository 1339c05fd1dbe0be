"""The notebook page, slimmed at build time (``site_build/notebook.py``), looks
exactly as mkdocs-jupyter made it.

Oracle: mkdocs-jupyter's own stylesheets, read from the installed package. The test puts
them back in place of the pruned styles and compares the computed style of every
element of the page content (every property but the custom properties nothing uses),
before and after, in both palettes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import mkdocs_jupyter
import pytest

from tests.browser.settled import wait_settled

ASSETS = Path(mkdocs_jupyter.__file__).parent / "templates" / "mkdocs_html" / "assets"
# The order in which the template inlines them (it picks the light theme by default).
ORIGINAL = [ASSETS / "index.css", ASSETS / "theme-light.css"]

COMPARE = """(sheets) => {
  const snapshot = () => [...document.querySelectorAll('.md-content *')].map((el) => {
    const cs = getComputedStyle(el);
    const parts = [];
    for (let i = 0; i < cs.length; i++) {
      // Custom properties the page never uses are what the pruning removes.
      if (!cs[i].startsWith('--')) parts.push(cs[i] + '=' + cs.getPropertyValue(cs[i]));
    }
    return parts;
  });
  const pruned = [...document.querySelectorAll('style[data-pruned]')];
  const prunedBytes = pruned.reduce((n, s) => n + s.textContent.length, 0);
  const before = snapshot();
  pruned.forEach((s, i) => { s.textContent = sheets[i]; });
  const after = snapshot();
  const changed = [];
  before.forEach((b, i) => {
    const a = after[i];
    if (b.join('\\n') !== a.join('\\n')) {
      changed.push({
        element: i,
        before: b.filter((p) => !a.includes(p)).slice(0, 5),
        after: a.filter((p) => !b.includes(p)).slice(0, 5),
      });
    }
  });
  return {restored: pruned.length, prunedBytes, elements: before.length,
          changed: changed.length, first: changed[0] || null};
}"""


@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
def test_slim_notebook_page_computes_the_same_styles(
    page: Any, site_url: str, color_scheme: str
) -> None:
    page.goto(site_url + "notebooks/sqrt_dk/")
    wait_settled(page)
    sheets = [p.read_text(encoding="utf-8") for p in ORIGINAL]
    got = page.evaluate(COMPARE, sheets)
    assert got["restored"] == len(ORIGINAL), got
    assert got["prunedBytes"] < 0.2 * sum(len(s) for s in sheets), got  # it did prune
    assert got["elements"] > 500, got
    assert got["changed"] == 0, f"{got['changed']} elements styled differently: {got['first']}"
