"""Claims: sentences about numbers, checked on the page as the reader reads it.

A claim is a sentence of a page that states a quantity, a comparison or a count
derived from computed numbers ("v₁ dominates", "the crossover is at n = 768"). A
claim test recomputes the fact from ``attention_ref`` (or from a snippet's variables,
with :func:`run_snippet`), asserts it, and calls :func:`claim` with the sentence, so
that the test fails when the numbers move *and* when the sentence is edited without
the test.

The text searched is the page as rendered: its ``--8<--`` includes expanded by
pymdownx.snippets as the build does (partials included), then the Markdown turned
into HTML with the extensions ``mkdocs.yml`` enables and reduced to its visible
text (tags, ``<script>`` and ``<style>`` dropped, whitespace collapsed). Write the
sentence as it reads on the page: ``**v₁**`` on the page is ``v₁`` in the claim.
Math keeps its TeX source between ``\\(`` and ``\\)``, as KaTeX receives it:
``$\\mathbf{v}_1$`` on the page is ``\\(\\mathbf{v}_1\\)`` in the claim.

Examples
--------
>>> visible_text("<p>The weight of <strong>v₁</strong>\\n is <code>0.506</code>.</p>")
'The weight of v₁ is 0.506.'
>>> visible_text("<p>a<script>x = 1</script> b</p>")
'a b'
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import io
import json
import os
import re
import runpy
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown

from testbed.rendered import markdown_settings, render_html
from testbed.sybil_docs import snippets_importable

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "mkdocs.yml"
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"


class _Text(HTMLParser):
    """Collects the visible text of an HTML fragment."""

    _HIDDEN = frozenset({"script", "style"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._HIDDEN:
            self._hidden += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self._HIDDEN and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """Return the text a reader sees in ``html``, whitespace collapsed to single spaces."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return " ".join("".join(parser.parts).split())


@functools.cache
def page_html(page: str) -> str:
    """The HTML of ``docs/<page>`` as rendered (includes expanded), before the theme.

    ``page`` is the path under ``docs/``, e.g. ``"attention.md"``; ``README.md`` names
    the repository's README; a notebook (``"notebooks/sqrt_dk.py"``) gives its cells as
    :func:`notebook_markdown` writes them, rendered the same way.
    """
    path = ROOT / page if page == "README.md" else DOCS / page
    if not path.is_file():
        raise FileNotFoundError(f"no page {page!r} (looked for {path.relative_to(ROOT)})")
    if path.suffix == ".py":
        names, settings = markdown_settings(CONFIG, path)
        converter = markdown.Markdown(extensions=names, extension_configs=settings)
        return str(converter.convert(notebook_markdown(path.read_text(encoding="utf-8"))))
    return render_html(CONFIG, path)


def notebook_markdown(source: str) -> str:
    """A jupytext (percent format) notebook as one Markdown text, cells in order.

    Markdown cells are kept as written; a code cell becomes a fenced Python block, so that
    its code is code, not prose, and no sentence runs from one markdown cell into the
    next. mkdocs-jupyter renders the markdown cells with nbconvert's renderer, which
    leaves math as ``$...$`` for the page's script: rendered here with the site's
    extensions, the text a reader sees is the same and its math is written ``\\(...\\)``,
    as on every other page. The outputs are not here: the build executes the notebook,
    and they are code blocks on the page.

    Examples
    --------
    >>> print(notebook_markdown("# %% [markdown]\\n# Width $d$ is 4.\\n\\n# %%\\nd = 4\\n"))
    Width $d$ is 4.
    <BLANKLINE>
    ```python
    d = 4
    ```
    <BLANKLINE>
    """
    import jupytext  # type: ignore[import-untyped]  # only for notebooks: it is slow to import

    cells = jupytext.reads(source, fmt="py:percent").cells
    if not cells:
        raise ValueError("the notebook has no cell")
    parts = []
    for cell in cells:
        if cell.cell_type == "markdown":
            parts.append(cell.source + "\n")
        elif cell.cell_type == "code":
            parts.append(f"```python\n{cell.source}\n```\n")
    return "\n".join(parts)


@functools.cache
def page_text(page: str) -> str:
    """The visible text of ``docs/<page>`` as rendered (includes expanded)."""
    return visible_text(page_html(page))


def cited(page: str, sentence: str, *addresses: str) -> None:
    """A sentence about the literature is on the page, and the page links its sources.

    Each of ``addresses`` (a paper's or a code file's address, or its start) must be the
    target of a link on ``docs/<page>`` as rendered, so that the reader can check the
    sentence against what it rests on.
    """
    claim(page, sentence)
    links = re.findall(r'<a [^>]*href="([^"]+)"', page_html(page))
    for address in addresses:
        assert any(link.startswith(address) for link in links), (
            f"{page} says {sentence!r} but links no source at {address!r}"
        )


def claim(page: str, sentence: str) -> None:
    """Assert that ``sentence`` is on ``docs/<page>`` as rendered (whitespace-insensitive).

    When ``CLAIMS_RECORD`` names a file, the call also appends the page, the sentence and
    the running test to it, one JSON line each: ``make claims`` lists them from there.
    """
    wanted = " ".join(sentence.split())
    _record(page, wanted)
    text = page_text(page)
    assert wanted in text, (
        f"the claim {wanted!r} is no longer on {page} as rendered; the page says "
        f"{closest_passage(text, wanted)!r} there. If the page was edited, update the claim "
        "test with it, and recheck the numbers it states"
    )


def closest_passage(text: str, wanted: str) -> str:
    """The passage of ``text`` that best matches ``wanted``, as long as ``wanted``.

    The passage is anchored on the longest stretch the two share, so a sentence whose
    number changed is shown beside the number the page now gives.

    Examples
    --------
    >>> closest_passage("Intro. The weight of v1 is 0.61 of it.", "weight of v1 is 0.51")
    'weight of v1 is 0.61'
    >>> closest_passage("abc", "xyz")
    ''
    """
    match = difflib.SequenceMatcher(None, text, wanted, autojunk=False).find_longest_match()
    if match.size == 0:
        return ""
    start = max(0, match.a - match.b)
    return text[start : start + len(wanted)]


def _record(page: str, sentence: str) -> None:
    """Append one claim to the file ``CLAIMS_RECORD`` names, if it names one."""
    record = os.environ.get("CLAIMS_RECORD")
    if record:
        test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
        line = json.dumps({"page": page, "sentence": sentence, "test": test})
        with open(record, "a", encoding="utf-8") as out:  # one short write: O_APPEND keeps it whole
            out.write(line + "\n")


def run_snippet(name: str) -> dict[str, Any]:
    """Run ``snippets/<name>`` as a script, quietly, and return its variables."""
    snippets_importable(ROOT)
    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(SNIPPETS / name))


def snippet_fixture(fixture: str, name: str) -> Any:
    """A module-scoped pytest fixture called ``fixture``: the variables of ``run_snippet(name)``.

    A claim test file writes ``text = snippet_fixture("text", "tokens_text.py")``; its
    tests then take ``text`` as an argument, and the snippet runs once for the file.
    """
    import pytest

    def variables() -> dict[str, Any]:
        return run_snippet(name)

    variables.__doc__ = f"The variables of snippets/{name}, run once for the module."
    return pytest.fixture(scope="module", name=fixture)(variables)
