"""Sybil support for testing the pages *as rendered*.

Two pieces, wired up in the root ``conftest.py``:

:class:`RenderedMarkdownDocument`
    A Sybil document type that expands the ``--8<--`` includes of a Markdown page
    with pymdownx.snippets' own preprocessor, configured from ``mkdocs.yml``,
    before any parser sees the text. Sybil therefore tests the code a reader sees,
    not the include lines.

:class:`PageCodeParser`
    Runs every Python-like fence. The language is the first word of the info
    string, so ```` ```py ````, ```` ```python title="x.py" ```` and
    ```` ```{ .python } ```` all count (Sybil's stock parser only runs fences whose
    info string is exactly ``python``).

    - ``pycon`` fences (and python fences starting with ``>>>``) are doctests.
    - ``python``/``py`` fences are executed. If the fence is followed directly by an
      output fence (```` ```text title="Output" ````), what the code prints must
      equal that block (trailing spaces ignored). If there is no output block, the
      code must print nothing: printed output is always shown and always checked.
    - An output block with no Python fence right before it is an error.
    - A stale output block fails with the file and line where the block is written
      (the page, the partial that holds it, or ``README.md``), the snippet and section
      that printed it, and the hint ``make outputs``, which rewrites stale blocks
      (``testbed/outputs.py``).

The fence syntax is read by :mod:`site_build.page`, as the build reads it; the page is
expanded, and mapped back to the files as written, by :mod:`testbed.rendered`.
"""

from __future__ import annotations

import doctest
import io
import re
import sys
import traceback
from collections.abc import Iterable, Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

from sybil import Document, Example, Region, Sybil
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.parsers.abstract.doctest import DocTestStringParser
from sybil.parsers.markdown import SkipParser
from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer

from site_build.page import PYTHON_CODE, PYTHON_SESSION, fence_language, is_output_fence
from testbed.rendered import SECTION_MARKER, ExpandedPage, Origin

DOCTEST_FLAGS = doctest.NORMALIZE_WHITESPACE

#: The pages Sybil tests (globs from the repository's root); partials are tested
#: through the pages that include them.
PAGE_PATTERNS = ("docs/*.md", "docs/*/*.md", "README.md")
PAGE_EXCLUDES = ("docs/partials/*",)


def snippets_importable(root: Path) -> None:
    """Let code from ``root/snippets`` import its neighbours, as ``python snippets/x.py`` can.

    A snippet may take another's variables (``from worked_example import q, K, V``):
    run as a script, its own folder is on ``sys.path``; run on a page, or by
    ``runpy``, the folder is added here (at the end, once).
    """
    folder = str(root / "snippets")
    if (root / "snippets").is_dir() and folder not in sys.path:
        sys.path.append(folder)


class RenderedMarkdownDocument(Document):
    """A Markdown page with its ``--8<--`` includes expanded, as MkDocs renders it.

    ``text`` is the expanded page (Sybil's line numbers count its lines); ``page`` is
    :class:`testbed.rendered.ExpandedPage`, which maps each line of it back to the files
    as written (``page.line_map``: the page's own line; ``page.origins``: the file and
    line, partials followed). :meth:`source_line` and :meth:`written` name lines so that
    test ids and messages point at lines an author can find.
    """

    page: ExpandedPage

    @classmethod
    def parse(cls, path: str, *parsers: Any, encoding: str = "utf-8") -> Document:
        page = ExpandedPage.read(Path(path), encoding)
        document = cls(page.text, path)
        document.page = page
        snippets_importable(page.root)
        for parser in parsers:
            for region in parser(document):
                document.add(region)
        return document

    @property
    def root(self) -> Path:
        return self.page.root

    @property
    def origins(self) -> list[Origin] | None:
        return self.page.origins

    @property
    def line_map(self) -> list[tuple[int, int]] | None:
        return self.page.line_map

    def examples(self) -> Iterator[Example]:
        """The examples, each numbered by the line of the page as written that holds it.

        Sybil numbers an example by the line of :attr:`text` where it starts, which is a
        line of the expanded page: pytest's report would name a line that is not in the
        file. Here each example's ``line`` is the page's own line (the ``--8<--`` line for
        a fence that a partial brings in); :func:`expanded_line` gives the other.
        """
        for example in super().examples():
            line = self.line_map_of(reported_line(example))
            yield Example(self, line, example.column, example.region, self.namespace)

    def line_map_of(self, line: int) -> int:
        """The page's own line for line ``line`` of the expanded page (itself if unknown)."""
        if self.line_map and 1 <= line <= len(self.line_map):
            return self.line_map[line - 1][0]
        return line

    def source_line(self, line: int) -> str:
        """Name line ``line`` (1-based) of the expanded text by the page as written.

        ``"42"`` for line 42 of the file, ``"42+7"`` for the 7th line that the
        include on line 42 brought in.
        """
        if not self.line_map or not 1 <= line <= len(self.line_map):
            return f"{line} (expanded)"
        raw, inner = self.line_map[line - 1]
        return f"{raw}+{inner}" if inner else str(raw)

    def origin(self, line: int) -> Origin | None:
        """Where line ``line`` (1-based) of the expanded text is written, if known."""
        return self.page.origin(line)

    def written(self, line: int) -> str:
        """Line ``line`` of the expanded text named as written (see :meth:`Origin.written`)."""
        origin = self.origin(line)
        if origin is None:
            return f"{Path(self.path).name} line {self.source_line(line)} as written"
        return origin.written()


class PageSybil(Sybil):
    """A :class:`~sybil.Sybil` whose test ids name lines of pages as written."""

    def identify(self, example: Example) -> str:
        document = example.document
        if isinstance(document, RenderedMarkdownDocument):
            name = f"sybil:{self.name}," if self.name else ""
            line = document.source_line(reported_line(example))
            return f"{name}line:{line},column:{example.column}"
        return super().identify(example)


# --- Running the fences -------------------------------------------------------------------


def _normalise_output(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def _shorten(text: str, limit: int = 2000) -> str:
    return (
        text if len(text) <= limit else f"{text[:limit]}\n... ({len(text) - limit} more characters)"
    )


class PythonWithOutput:
    """Evaluate a Python block and compare what it prints with the page's output block.

    ``output`` is the span (start, end offsets in the document's text) of that output
    block, if there is one. After a run, :attr:`printed` holds what the code printed
    (normalised as compared: outer blank lines and trailing spaces dropped), for
    ``make outputs`` (``testbed/outputs.py``) to read.
    """

    def __init__(self, expected: str | None, output: tuple[int, int] | None = None) -> None:
        self.expected = expected
        self.output = output
        self.printed: str | None = None
        #: After a run that raised: where (the snippet's or the page's line) and what.
        self.raised: str | None = None

    def run(self, example: Example) -> None:
        """Run the fence's code in the page's namespace, numbered by the expanded page's lines.

        (Sybil's own evaluator numbers code from ``example.line``, which names the page as
        written here; the lines of the expanded page are what :func:`raised_at` maps.)
        """
        source = "\n" * (expanded_line(example) + example.parsed.line_offset) + example.parsed
        exec(compile(source, example.path, "exec", dont_inherit=True), example.namespace)
        example.namespace.pop("__builtins__", None)

    def __call__(self, example: Example) -> str | None:
        self.printed = self.raised = None
        printed = io.StringIO()
        try:
            with redirect_stdout(printed):
                self.run(example)
        except Exception as error:
            where = raised_at(example, error)
            if where is None:
                raise
            self.raised = where
            return f"{where}\n(in the code block at {_where(example)})"
        got = self.printed = _normalise_output(printed.getvalue())
        if self.expected is None:
            if got:
                return (
                    f"{_where(example)}: this block prints, but the page shows no output "
                    f'block after it (```text title="Output"). It printed:\n{_shorten(got)}'
                )
            return None
        want = _normalise_output(self.expected)
        if got != want:
            block = _where(example, self.output[0] if self.output else None)
            return (
                f"{block}: this Output block is stale: {printed_by(example)} now prints "
                "something else.\n"
                f"The page shows:\n{_shorten(want)}\nThe code printed (^ marks what differs):\n"
                f"{_shorten(marked(want, got))}\n"
                "If the new output is right, run `make outputs` to rewrite the stale "
                "Output blocks, then review the diff (git diff) before committing."
            )
        return None


def line_of(text: str, offset: int) -> int:
    """The 1-based line of ``text`` that holds character ``offset``."""
    return text.count("\n", 0, offset) + 1


def expanded_line(example: Example) -> int:
    """The line of the expanded page (the document's ``text``) where ``example`` starts."""
    return line_of(example.document.text, example.region.start)


def reported_line(example: Example) -> int:
    """The expanded page's line that names ``example`` in test ids and reports.

    A fence followed by an Output block is named by that block: what goes stale, and
    what ``make outputs`` rewrites, is the block. Any other example by its first line.
    """
    evaluator = example.region.evaluator
    if isinstance(evaluator, PythonWithOutput) and evaluator.output is not None:
        return line_of(example.document.text, evaluator.output[0])
    return expanded_line(example)


def marked(want: str, got: str) -> str:
    """``got``, each line that differs from ``want``'s line followed by carets under the change.

    Examples
    --------
    >>> print(marked("[5.68, 1.55]", "[5.69, 1.55]"))
    [5.69, 1.55]
         ^
    """
    wanted = want.split("\n")
    out: list[str] = []
    for number, line in enumerate(got.split("\n")):
        out.append(line)
        other = wanted[number] if number < len(wanted) else ""
        if line != other:
            width = max(len(line), len(other))
            a, b = line.ljust(width), other.ljust(width)
            out.append("".join("^" if x != y else " " for x, y in zip(a, b, strict=True)).rstrip())
    return "\n".join(out)


def raised_at(example: Example, error: BaseException) -> str | None:
    """Where in the files as written ``error`` was raised by the page's code, with context.

    The innermost frame of the page's own code is named by the file a contributor edits
    (the snippet, or the page) and its line, followed by up to three lines of that file
    ending with the line that raised. ``None`` when the frame cannot be placed.
    """
    document = example.document
    if not isinstance(document, RenderedMarkdownDocument):
        return None
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == example.path]
    if not frames or frames[-1].lineno is None:
        return None
    place = document.page.written_line(frames[-1].lineno)
    if place is None:
        return None
    path, number = place
    origin = document.origin(frames[-1].lineno)
    via = (
        ""
        if origin is None or origin.include is None
        else f", included by {origin.file} line {origin.line}"
    )
    lines = (document.root / path).read_text(encoding="utf-8").split("\n")
    shown = [
        f"{'>' if n == number else ' '} {n:4} | {lines[n - 1]}"
        for n in range(max(1, number - 2), number + 1)
        if n == number or not SECTION_MARKER.search(lines[n - 1])
    ]
    return f"{path} line {number}{via}: {type(error).__name__}: {error}\n" + "\n".join(shown)


def printed_by(example: Example) -> str:
    """Name the code of an example's fence: its includes, or the lines written on the page.

    ``"snippets/worked_example.py · data, one_call"`` for a fence of two includes of one
    file, ``"the code on docs/x.md lines 12-14"`` for code written in the page.
    """
    document = example.document
    if not isinstance(document, RenderedMarkdownDocument) or document.origins is None:
        return "the code above it"
    text = document.text
    body = text.index("\n", example.region.start) + 1  # the line after the opening fence
    first = line_of(text, body)
    last = line_of(text, body + max(len(str(example.parsed).rstrip("\n")) - 1, 0))
    return describe_code(document.origins[first - 1 : last])


def describe_code(lines: list[Origin]) -> str:
    """Name the files (and sections) that the lines of a code fence come from.

    Examples
    --------
    >>> describe_code([Origin("p.md", 3, "snippets/a.py:data"), Origin("p.md", 4),
    ...                Origin("p.md", 5, "snippets/a.py:one_call")])
    'snippets/a.py · data, one_call'
    >>> describe_code([Origin("p.md", 7), Origin("p.md", 8)])
    'the code on p.md lines 7-8'
    """
    sections: dict[str, list[str]] = {}
    written: dict[str, list[int]] = {}
    for origin in lines:
        if origin.include is not None:
            path, _, section = origin.include.partition(":")
            names = sections.setdefault(path, [])
            if section and section not in names:
                names.append(section)
    if sections:
        return "; ".join(f"{p} · {', '.join(n)}" if n else p for p, n in sections.items())
    for origin in lines:
        written.setdefault(origin.file, []).append(origin.line)
    if not written:
        return "the code above it"
    return "; ".join(
        f"the code on {f} lines {min(n)}-{max(n)}" if len(n) > 1 else f"the code on {f} line {n[0]}"
        for f, n in written.items()
    )


def _where(example: Example, offset: int | None = None) -> str:
    document = example.document
    if isinstance(document, RenderedMarkdownDocument):
        line = expanded_line(example) if offset is None else line_of(document.text, offset)
        written = document.written(line)
        return written if written.endswith("as written") else f"{written} as written"
    return f"{Path(example.path).name} line {example.line}"


def orphan_output(example: Example) -> str:
    return (
        f"{_where(example)}: an output block"
        ' (```text title="Output") must directly follow a Python block'
    )


class PageCodeParser:
    """Sybil parser for every Python-like fence of a page (see the module docstring)."""

    def __init__(self, doctest_flags: int = DOCTEST_FLAGS) -> None:
        self.lexer = RawFencedCodeBlockLexer(
            info_pattern=re.compile(r"(?P<info>[^\n]*)$\n", re.MULTILINE),
            mapping={"info": "info", "source": "source"},
        )
        self.doctests = DocTestStringParser(DocTestEvaluator(doctest_flags))

    def __call__(self, document: Document) -> Iterator[Region]:
        fences = sorted(self.lexer(document), key=lambda r: r.start)
        consumed: set[int] = set()
        for index, fence in enumerate(fences):
            if index in consumed:
                continue
            info = fence.lexemes["info"]
            language = fence_language(info)
            source = fence.lexemes["source"]
            if is_output_fence(info):
                yield Region(fence.start, fence.end, source, orphan_output)
            elif language in PYTHON_SESSION or (
                language in PYTHON_CODE and source.startswith(">>>")
            ):
                yield from self._doctest_regions(fence, source, document.path)
            elif language in PYTHON_CODE:
                expected, end = None, fence.end
                following = fences[index + 1] if index + 1 < len(fences) else None
                if (
                    following is not None
                    and is_output_fence(following.lexemes["info"])
                    and not document.text[fence.end : following.start].strip()
                ):
                    consumed.add(index + 1)
                    expected, end = str(following.lexemes["source"]), following.end
                output = None if expected is None else (following.start, following.end)  # type: ignore[union-attr]
                yield Region(fence.start, end, source, PythonWithOutput(expected, output))

    def _doctest_regions(self, fence: Region, source: Any, path: str) -> Iterable[Region]:
        found = False
        for region in self.doctests(source, path):
            region.adjust(fence, source)
            found = True
            yield region
        if not found:
            yield Region(fence.start, fence.end, source, _empty_session)


def _empty_session(example: Example) -> str:
    return "a pycon block without any >>> prompt: nothing in it is checked"


def page_parsers() -> list[Any]:
    """The parsers Sybil applies to every page: Python-like fences, and skip directives."""
    return [PageCodeParser(), SkipParser()]
