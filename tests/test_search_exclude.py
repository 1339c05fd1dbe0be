"""Code, output and widget stand-in text stay out of the search index (search_exclude.py
marks code blocks, each widget's partial its stand-in).

Checked with Material's own index parser (the one its search plugin runs on every page)
and with the strip Material applies after indexing, so a change in either shows here;
then on the built site: the index keeps the prose, loses the code, and stays smaller
than it was with two lessons before this change.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from material.plugins.search.plugin import Parser

from site_build import site
from site_build.search_exclude import ATTRIBUTE, mark
from testbed.rendered import render_html

ROOT = Path(__file__).resolve().parents[1]
PARTIALS = ROOT / "docs" / "partials"
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
    f'<div class="ex" data-widget="explorer" {ATTRIBUTE}="widget" markdown="0">\n'
    '<p class="widget__loading">The explorer needs JavaScript.</p>\n</div>\n<p>Prose.</p>'
)
#: The practice section: prose (headings, steps' text) around the widget's parts.
SECTION = (
    '<div class="practice" data-widget="practice" data-lesson="x"><h3>Step 1: the dot product</h3>'
    f'<p>Write dot.</p><div class="practice__runner" data-step="01_dot" {ATTRIBUTE}="widget">'
    '<p class="practice__fallback">The editor needs JavaScript.</p></div></div><p>Prose.</p>'
)
NESTED = '<div data-step="01_x"><div><p>one</p></div><p>two</p></div><p>Prose.</p>'
NOTEBOOK_COPY = '<div class="clipboard-copy-txt" id="cell-1">print(1)</div><p>Prose.</p>'


@pytest.mark.parametrize("html", [CODE_BLOCK, NOTEBOOK_COPY, "<pre>x</pre>", "<p>x</p>", ""])
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
    assert "print(1)" in indexed_text(NOTEBOOK_COPY)
    text = indexed_text(mark(NOTEBOOK_COPY))
    assert "print(1)" not in text and "Prose." in text


def test_widget_stand_in_text_leaves_the_index() -> None:
    assert "needs JavaScript" in indexed_text(WIDGET.replace(f' {ATTRIBUTE}="widget"', ""))
    text = indexed_text(mark(WIDGET))
    assert "needs JavaScript" not in text and "Prose." in text


@pytest.mark.parametrize("partial", sorted(p.name for p in PARTIALS.glob("*.md")))
def test_each_widget_stand_in_of_the_partials_is_marked(partial: str) -> None:
    """A container of stand-in text (``markdown="0"``) carries the attribute; one that holds
    prose (the practice section, ``markdown``) does not, nor a container of its own tag."""
    text = (PARTIALS / partial).read_text(encoding="utf-8")
    for tag in re.findall(r"<div [^>]*\bdata-(?:widget|step)=[^>]*>", text):
        stand_in = 'markdown="0"' in tag
        assert (f'{ATTRIBUTE}="widget"' in tag) == stand_in, f"{partial}: {tag}"
    assert not re.search(rf'{ATTRIBUTE}="widget"[^>]*>\s*<div\b', text), partial


def test_a_widget_around_prose_keeps_the_prose_and_loses_its_stand_ins() -> None:
    text = indexed_text(mark(SECTION))
    assert "Step 1: the dot product" in text and "Write dot." in text and "Prose." in text
    assert "needs JavaScript" not in text
    # On a real page: the steps of lesson 1's practice stay searchable.
    page = indexed_text(mark(rendered("attention.md")))
    assert "a softmax that does not overflow" in page
    assert "The editor needs JavaScript" not in page


def test_a_marked_element_must_not_hold_its_own_tag() -> None:
    """Material compares elements by tag: a nested <div> ends a marked <div>'s exclusion."""
    naive = NESTED.replace('data-step="01_x"', f'data-step="01_x" {ATTRIBUTE}="widget"', 1)
    assert "two" in indexed_text(naive), "Material's parser no longer ends it early"


def test_mark_names_a_bad_argument() -> None:
    with pytest.raises(TypeError, match="html must be a str, got bytes"):
        mark(b"<p>x</p>")  # type: ignore[arg-type]


@pytest.mark.parametrize("page", [lesson.source for lesson in site.LESSONS])
def test_each_lesson_keeps_its_prose_and_loses_its_code(page: str) -> None:
    html = rendered(page)
    before, after = indexed_text(html), indexed_text(mark(html))
    assert len(after) < 0.85 * len(before), f"{page}: the index text shrank only a little"
    assert "<pre>" in before and "<pre>" not in after
    assert "needs JavaScript" not in after, f"{page}: a widget's stand-in text is indexed"
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
