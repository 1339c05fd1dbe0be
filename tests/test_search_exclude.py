"""Code, output and widget stand-in text stay out of the search index (search_exclude.py).

Checked with Material's own index parser (the one its search plugin runs on every page)
and with the strip Material applies after indexing, so a change in either shows here;
then on the built site: the index keeps the prose, loses the code, and stays smaller
than it was with two lessons before this change.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from material.plugins.search.plugin import Parser

from site_build import site
from site_build.search_exclude import _VOID, ATTRIBUTE, _Element, _tree, mark
from testbed.rendered import render_html

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
#: What Material does to a page once it is indexed (material/plugins/search/plugin.py).
MATERIAL_STRIP = re.compile(r"\s?data-search-\w+=\"[^\"]+\"")
#: The index's budget per lesson page. Measured: lessons 1 and 2 alone made 111,708 bytes
#: (55.9 kB a lesson, with code and Output blocks in the index); with them left out, five
#: lessons made 134,028 bytes (26.8 kB a lesson, lesson 4 with its practice section).
#: Lesson 5's prose (before its widget and practice sections) adds about 13.6 kB: six
#: lessons made 147,744 bytes, against a budget of 180,000.
INDEX_BYTES_PER_LESSON = 30_000
LESSONS = tuple(lesson.url for lesson in site.LESSONS)


def indexed_text(html: str) -> str:
    """The text Material's search would index from ``html``, sections joined."""
    parser = Parser()
    parser.feed(html)
    parser.close()
    return " ".join(
        "".join(s.title) + " " + "".join(s.text) for s in parser.data if not s.is_excluded()
    )


def rendered(page: str) -> str:
    """A page's HTML as Markdown renders it (includes expanded), before the theme."""
    return render_html(ROOT / "mkdocs.yml", ROOT / "docs" / page)


CODE_BLOCK = (
    '<p>Before.</p>\n<div class="highlight"><span class="filename">Output</span>'
    "<pre><span></span><code>printed 0.506\n</code></pre></div>\n<p>After.</p>"
)
WIDGET = (
    '<div class="ex" data-widget="explorer" markdown="0">\n'
    '<p class="widget__loading">The explorer needs JavaScript.</p>\n</div>\n<p>Prose.</p>'
)
#: The practice section: prose (headings, steps' text) around the widget's parts.
SECTION = (
    '<div class="practice" data-widget="practice" data-lesson="x"><h3>Step 1: the dot product</h3>'
    '<p>Write dot.</p><div class="practice__runner" data-step="01_dot">'
    '<p class="practice__fallback">The editor needs JavaScript.</p></div></div><p>Prose.</p>'
)
NESTED = (
    '<div class="practice__runner" data-step="01_x"><div class="inner"><p>one</p></div>'
    "<p>two</p></div><p>Prose.</p>"
)


@pytest.mark.parametrize("html", [CODE_BLOCK, WIDGET, SECTION, NESTED, "<pre>x</pre>", ""])
def test_material_strips_what_mark_adds(html: str) -> None:
    """The page a reader gets is byte for byte the page without the hook."""
    marked = mark(html)
    assert MATERIAL_STRIP.sub("", marked) == html
    assert marked.count(ATTRIBUTE) == marked.count(f'{ATTRIBUTE}="')


def test_code_and_output_leave_the_index_prose_stays() -> None:
    assert "printed" in indexed_text(CODE_BLOCK) and "Output" in indexed_text(CODE_BLOCK)
    text = indexed_text(mark(CODE_BLOCK))
    assert "printed" not in text and "Output" not in text
    assert "Before." in text and "After." in text


def test_widget_stand_in_text_leaves_the_index() -> None:
    assert "needs JavaScript" in indexed_text(WIDGET)
    text = indexed_text(mark(WIDGET))
    assert "needs JavaScript" not in text and "Prose." in text


def test_a_widget_around_prose_keeps_the_prose_and_loses_its_stand_ins() -> None:
    text = indexed_text(mark(SECTION))
    assert "Step 1: the dot product" in text and "Write dot." in text and "Prose." in text
    assert "needs JavaScript" not in text
    # On a real page: the steps of lesson 1's practice stay searchable.
    page = indexed_text(mark(rendered("attention.md")))
    assert "a softmax that does not overflow" in page
    assert "The editor needs JavaScript" not in page


def test_a_container_holding_its_own_tag_is_marked_one_level_down() -> None:
    """Material compares elements by tag: a nested <div> would end a marked <div>'s exclusion."""
    naive = NESTED.replace('data-step="01_x"', f'data-step="01_x" {ATTRIBUTE}="widget"', 1)
    assert "two" in indexed_text(naive), "Material's parser no longer ends it early: simplify"
    text = indexed_text(mark(NESTED))
    assert "one" not in text and "two" not in text and "Prose." in text


def test_void_elements_and_the_page_own_marks() -> None:
    html = f'<p>a<br>b<img src="x.svg" alt="y"></p><pre {ATTRIBUTE}="mine">c</pre>'
    assert mark(html) == html  # nothing to add: the <pre> is marked already
    assert mark("<p>x<br/>y</p><pre>z</pre>") == f'<p>x<br/>y</p><pre {ATTRIBUTE}="code">z</pre>'


def test_mark_names_a_bad_argument() -> None:
    with pytest.raises(TypeError, match="html must be a str, got bytes"):
        mark(b"<p>x</p>")  # type: ignore[arg-type]


@pytest.mark.parametrize("page", [lesson.source for lesson in site.LESSONS])
def test_each_lesson_keeps_its_prose_and_loses_its_code(page: str) -> None:
    html = rendered(page)
    before, after = indexed_text(html), indexed_text(mark(html))
    assert len(after) < 0.85 * len(before), f"{page}: the index text shrank only a little"
    assert "<pre>" in before and "<pre>" not in after
    for heading in re.findall(r"^## (.+)$", (ROOT / "docs" / page).read_text("utf-8"), re.M):
        first_words = " ".join(heading.split()[:2])
        assert first_words in after, f"{page}: {heading!r} no longer searchable"


def built_index() -> dict[str, object]:
    path = SITE / "search" / "search_index.json"
    if not path.is_file():
        pytest.skip("site/ is not built (`make build` builds it before pytest in `make test`)")
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_the_built_index_stays_lean() -> None:
    """The index holds the lessons' prose and not their code or Output blocks: it stays
    within INDEX_BYTES_PER_LESSON a lesson (half of what a lesson weighed with its code)."""
    size = (SITE / "search" / "search_index.json").stat().st_size if SITE.is_dir() else 0
    index = built_index()
    budget = INDEX_BYTES_PER_LESSON * len(LESSONS)
    assert size < budget, f"search_index.json is {size:,} bytes, over {budget:,}"
    text = json.dumps(index)
    assert "without residuals: 6.6e-08" not in text  # an Output block of lesson 3
    assert "import numpy as np" not in text
    assert "Residual connections" in text and "semantic search" in text
    locations = {d["location"].split("#")[0] for d in index["docs"]}  # type: ignore[attr-defined]
    assert set(LESSONS) <= locations


def test_no_page_ships_the_attribute() -> None:
    built_index()
    pages = sorted(SITE.rglob("*.html"))
    assert pages
    assert not [p for p in pages if ATTRIBUTE in p.read_text(encoding="utf-8")]


class ReferenceTree(HTMLParser):
    """The oracle: the standard library's HTML parser, nesting elements the same way."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Element("#root", "", 0)
        self._open = [self.root]
        self._starts = [0] + [m.end() for m in re.finditer("\n", source)]

    def _add(self, tag: str, attrs: list[tuple[str, str | None]]) -> _Element:
        line, column = self.getpos()
        el = _Element(tag, "", self._starts[line - 1] + column + 1 + len(tag))
        el.attrs = dict(reversed(attrs))  # the parser's own reading of the attributes
        self._open[-1].children.append(el)
        return el

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = self._add(tag, attrs)
        if tag not in _VOID:
            self._open.append(el)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._add(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self._open) - 1, 0, -1):
            if self._open[depth].tag == tag:
                del self._open[depth:]
                return


def reference_tree(html: str) -> _Element:
    parser = ReferenceTree(html)
    parser.feed(html)
    parser.close()
    return parser.root


def nesting(el: _Element, depth: int = 0) -> list[tuple[int, str, int, dict[str, str | None]]]:
    """Every element in document order: its depth, tag, offset and attributes."""
    found = [(depth, el.tag, el.name_end, el.attrs)]
    for child in el.children:
        found.extend(nesting(child, depth + 1))
    return found


TRICKY = (
    '<DIV Class="highlight" title="a > b"><!-- <div> in a comment --><pre>x</pre></DIV>\n'
    "<script>if (a < b) { document.write('<div>'); }</script>\n"
    '<p>One<br/>two<img src=x.png alt="it\'s"> <span data-step=01_x>s</span></p></p>\n'
    "<style>p > a { color: red }</style><div data-widget=explorer><div>in</div></div>"
)


@pytest.mark.parametrize("page", [p.source for p in site.PAGES if not p.is_notebook])
def test_the_tags_nest_as_the_standard_parser_nests_them(page: str) -> None:
    html = rendered(page)
    assert nesting(_tree(html)) == nesting(reference_tree(html))


def test_comments_raw_text_and_quoted_angles_nest_as_the_standard_parser_nests_them() -> None:
    assert nesting(_tree(TRICKY)) == nesting(reference_tree(TRICKY))
    assert mark(TRICKY).count(ATTRIBUTE) == 3  # the fence, the span widget, the inner div
