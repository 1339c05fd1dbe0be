"""The glossary: every term is defined where a reader first meets it, on every page.

Issue 30. ``docs/partials/glossary.md`` holds the terms as abbreviations; pymdownx.snippets
appends it to every page (``auto_append`` in ``mkdocs.yml``) and the abbr extension turns
each use of a term in the prose into an ``<abbr title="definition">``. This test reads
each page as rendered, leaves out code blocks, inline code and comments (which the
reader does not read as prose, and where no definition can attach), finds the first use
of each term, in any letter case, and fails when that use carries no definition: a term
used before it is defined, a spelling the glossary lacks ("Encoder" at the start of a
sentence), or a glossary no longer appended.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from site_build import site
from testbed.claims import page_html

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "partials" / "glossary.md"
PAGES = [page.source for page in site.PAGES if not page.is_notebook]
LESSONS = {lesson.source for lesson in site.LESSONS}
#: The terms issue 30 found used and never defined.
REQUIRED = {
    "encoder",
    "BERT-style",
    "float16",
    "float32",
    "float64",
    "gradient",
    "training",
    "logit",
    "MLP",
    "sentence-transformers",
}
DEFINED = re.compile(r"^\*\[([^\]]+)\]: (.+)$", re.M)
ABBR = re.compile(r'<abbr title="([^"]*)">([^<]*)</abbr>')
HIDDEN = re.compile(r"<(pre|code|script|style)\b.*?</\1>|<!--.*?-->", re.S)
START, END = "\x00", "\x01"


def glossary() -> dict[str, str]:
    return dict(DEFINED.findall(GLOSSARY.read_text(encoding="utf-8")))


def prose(page: str) -> str:
    """The page's prose as text, each defined term marked START term END."""
    text = HIDDEN.sub(" ", page_html(page))
    text = ABBR.sub(lambda m: START + m[2] + END, text)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def first_use(text: str, term: str) -> re.Match[str] | None:
    return re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text, re.I)


def test_the_glossary_defines_the_terms_the_lessons_left_undefined() -> None:
    terms = glossary()
    assert REQUIRED <= set(terms), f"undefined: {sorted(REQUIRED - set(terms))}"
    assert all(len(definition.split()) >= 5 for definition in terms.values())


def test_the_glossary_is_appended_to_every_page() -> None:
    import yaml

    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    snippets = next(
        e["pymdownx.snippets"] for e in config["markdown_extensions"] if "pymdownx.snippets" in e
    )
    assert "docs/partials/glossary.md" in snippets["auto_append"]
    assert "abbr" in config["markdown_extensions"]


@pytest.mark.parametrize("page", PAGES)
def test_every_term_is_defined_at_its_first_use(page: str) -> None:
    text = prose(page)
    terms = glossary()
    used = 0
    for term in terms:
        found = first_use(text, term)
        if found is None:
            continue
        used += 1
        before, after = text[found.start() - 1 : found.start()], text[found.end() : found.end() + 1]
        assert before == START and after == END, (
            f"{page}: the first use of {found[0]!r} carries no definition (…"
            f"{text[max(found.start() - 60, 0) : found.end() + 20]!r}…): add its spelling to "
            f"{GLOSSARY.relative_to(ROOT)} or define it before"
        )
    if page in LESSONS:
        assert used >= 2, f"{page}: fewer glossary terms than expected, is the glossary appended?"


def test_an_undefined_spelling_fails() -> None:
    """The check itself: a capitalised use that the glossary lacks is not marked."""
    text = f"An Encoder reads; an {START}encoder{END} reads."
    found = first_use(text, "encoder")
    assert found is not None and text[found.start() - 1] != START
