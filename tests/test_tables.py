"""Every plain table of the built site sits in a box of its own (site_build/tables.py).

Checked on the built pages with an HTML parser, not with the module's own pattern: each
``<table>`` without attributes has a ``div.table-box`` as its parent, and that box holds
nothing else, so the box adds no content and no spacing of its own.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from site_build.tables import BOX_CLASS, wrap_tables

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
# Elements without an end tag, in HTML and in the SVG and MathML the pages inline.
VOID = set(
    "area base br col embed hr img input link meta source track wbr"
    " path circle rect line use polyline polygon ellipse mspace stop".split()
)


class _Tables(HTMLParser):
    """For each attribute-less table: its parent's tag and class, and the parent's children."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[list[object]] = []  # [tag, class, children tags]
        self.found: list[tuple[str, str, list[str]]] = []
        self._pending: list[list[object]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.stack:
            children = self.stack[-1][2]
            assert isinstance(children, list)
            children.append(tag)
        if tag == "table" and not attrs and self.stack:
            self._pending.append(self.stack[-1])
        if tag not in VOID:
            self.stack.append([tag, dict(attrs).get("class") or "", []])

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        while self.stack:
            node = self.stack.pop()
            if node in self._pending:
                self._pending.remove(node)
                children = node[2]
                assert isinstance(children, list)
                self.found.append((str(node[0]), str(node[1]), [str(c) for c in children]))
            if node[0] == tag:
                break


def test_a_table_and_its_box() -> None:
    html = "<h2>x</h2>\n<table>\n<thead><tr><th>a</th></tr></thead>\n</table>\n<p>y</p>"
    parser = _Tables()
    parser.feed(wrap_tables(html))
    assert parser.found == [("div", BOX_CLASS, ["table"])]


def test_one_box_per_table_and_the_table_kept_once() -> None:
    once = wrap_tables("<table><tr><td>1</td></tr></table><table><tr><td>2</td></tr></table>")
    assert once.count(BOX_CLASS) == 2
    assert once.count("<table>") == 2
    assert once.count("</div>") == 2


@pytest.mark.parametrize("page", ["attention/index.html"])
def test_every_plain_table_of_the_built_page_has_its_own_box(page: str) -> None:
    path = SITE / page
    if not path.exists():
        pytest.skip(f"{path.relative_to(ROOT)} is not built: run `make build` first")
    parser = _Tables()
    parser.feed(path.read_text(encoding="utf-8"))
    assert parser.found, "the page has a Markdown table (the three steps): none found"
    assert all(found == ("div", BOX_CLASS, ["table"]) for found in parser.found), parser.found
