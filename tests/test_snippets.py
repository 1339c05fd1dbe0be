"""Every snippet is shown somewhere, runs on its own, and every code fence of a page is tested.

- Each ``snippets/*.py`` file (the exercises in ``snippets/practice/`` have their own
  tests) and each of its named sections is included by at least one page.
- Each snippet file runs on its own, as a reader would run it, without error.
- Each page, as rendered, yields at least one Sybil example per Python-like fence,
  counted here with a regex of its own rather than with Sybil's lexer.

That no number of a page's prose goes untested is ``tests/test_numerals.py``'s check.
"""

from __future__ import annotations

import re
import runpy
import sys
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path

import pytest

from site_build.page import FENCE, INCLUDE, PYTHON_LIKE, fence_language
from site_build.site import LESSONS as MODEL_LESSONS
from site_build.site import PAGES as MODEL_PAGES
from testbed.sybil_docs import RenderedMarkdownDocument, page_parsers

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SNIPPET_FILES = sorted((ROOT / "snippets").glob("*.py"))
# Pages as MkDocs builds them (partials are pieces of pages, overrides are templates).
PAGES = sorted(
    p for p in DOCS.rglob("*.md") if p.relative_to(DOCS).parts[0] not in {"partials", "overrides"}
)
# Every Markdown file that may include a snippet: pages and their partials.
INCLUDERS = sorted(DOCS.rglob("*.md"))

SECTION_START = re.compile(r"--8<--\s*\[\s*start\s*:\s*([a-z][-_0-9a-z]*)\s*\]", re.IGNORECASE)
# An inline include (--8<-- "path" or "path:section") and an opening fence: testbed's
# patterns, the ones the page machinery uses.
MAX_SHOWN_LINE = 76  # wider lines get a horizontal scroll bar on a desktop page


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def sections_of(snippet: Path) -> list[str]:
    return SECTION_START.findall(snippet.read_text(encoding="utf-8"))


def includes() -> set[tuple[str, str | None]]:
    """(file, section or None for the whole file) for every include in docs/."""
    found: set[tuple[str, str | None]] = set()
    for page in INCLUDERS:
        for match in INCLUDE.finditer(page.read_text(encoding="utf-8")):
            target = match["target"]
            path, _, section = target.partition(":")
            found.add((path, section if section and not section[0].isdigit() else None))
    return found


def test_there_are_snippets_and_pages() -> None:
    assert len(SNIPPET_FILES) >= 3, "expected the lesson's snippets in snippets/"
    # Every Markdown page of the site model is one this file tests.
    assert {page.path for page in MODEL_PAGES if not page.is_notebook} == set(PAGES)


@pytest.mark.parametrize("snippet", SNIPPET_FILES, ids=rel)
def test_every_snippet_and_section_is_included_by_a_page(snippet: Path) -> None:
    used = includes()
    name = rel(snippet)
    if (name, None) in used:
        return  # the whole file is included
    sections = sections_of(snippet)
    assert sections, f"{name} has no named section and no page includes it whole"
    missing = [s for s in sections if (name, s) not in used]
    assert not missing, f"{name}: sections no page includes: {missing}"


@pytest.mark.parametrize("snippet", SNIPPET_FILES, ids=rel)
def test_every_snippet_runs_on_its_own(snippet: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "argv", [str(snippet)])
    # As `python snippets/x.py` does: the script's folder first on sys.path, so that a
    # snippet can import its neighbour (`from worked_example import q, K, V`).
    monkeypatch.syspath_prepend(str(snippet.parent))
    printed = StringIO()
    with redirect_stdout(printed):
        runpy.run_path(str(snippet), run_name="__main__")
    assert printed.getvalue().strip(), f"{rel(snippet)} printed nothing: what does the page show?"


@pytest.mark.parametrize("snippet", SNIPPET_FILES, ids=rel)
def test_shown_lines_fit_the_page(snippet: Path) -> None:
    inside, too_long = False, []
    for number, line in enumerate(snippet.read_text(encoding="utf-8").splitlines(), start=1):
        if "--8<-- [start:" in line:
            inside = True
        elif "--8<-- [end:" in line:
            inside = False
        elif inside and len(line) > MAX_SHOWN_LINE:
            too_long.append(f"line {number}: {len(line)} characters")
    assert not too_long, f"{rel(snippet)}: lines wider than {MAX_SHOWN_LINE}: {too_long}"


def rendered(page: Path) -> RenderedMarkdownDocument:
    document = RenderedMarkdownDocument.parse(str(page), *page_parsers())
    assert isinstance(document, RenderedMarkdownDocument)
    return document


def python_fence_starts(text: str) -> list[int]:
    fences = FENCE.finditer(text)
    return [m.start() for m in fences if fence_language(m["info"]) in PYTHON_LIKE]


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_every_python_fence_of_a_page_yields_sybil_examples(page: Path) -> None:
    document = rendered(page)
    examples = list(document)
    fences = python_fence_starts(document.text)
    print(f"{rel(page)}: {len(fences)} python-like fences, {len(examples)} Sybil examples")
    assert len(examples) >= len(fences)
    regions = [example.region for example in examples]
    # And fence by fence: some example starts inside each fence.
    ends = [*fences[1:], len(document.text)][: len(fences)]
    untested = [
        document.line_column(start)
        for start, end in zip(fences, ends, strict=True)
        if not any(start <= r.start < end for r in regions)
    ]
    assert not untested, f"{rel(page)}: fences Sybil does not test, at {untested}"


LESSONS = [lesson.path for lesson in MODEL_LESSONS]
#: The fewest Python fences a lesson page may have: 10, but lesson 4, whose six sections
#: of snippets/learning.py are its only fences.
FEWEST_FENCES = {DOCS / "training.md": 6}


@pytest.mark.parametrize("page", LESSONS, ids=rel)
def test_a_lesson_page_has_one_example_per_fence(page: Path) -> None:
    # Guards the two counts above against both being zero; a lesson shows no pycon
    # session, so each of its Python fences is exactly one Sybil example. (Lesson 0 has
    # 11 since its attention demo moved to the lessons that define attention.)
    document = rendered(page)
    fences = python_fence_starts(document.text)
    assert len(fences) >= FEWEST_FENCES.get(page, 10)
    assert len(list(document)) == len(fences)
