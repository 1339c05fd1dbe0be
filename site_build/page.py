"""A page as written: its includes, its fences and its Output blocks.

The one reader of the page syntax (:data:`INCLUDE`, :data:`FENCE`, :func:`is_output_fence`)
for the build and the tests alike. :func:`walk` gives a page's lines, partials followed,
each with its file and line, and :func:`fences` its fences. The page as rendered, for the
tests only, is in :mod:`testbed.rendered`.

Examples
--------
>>> files = {"docs/partials/p.md": '```python\\n--8<-- "snippets/a.py:s"\\n```'}
>>> page = 'Text.\\n\\n--8<-- "docs/partials/p.md"\\n\\n```text title="Output"\\n1\\n```\\n'
>>> [(f.language, f.opening.file, f.opening.number) for f in fences(walk("p.md", page, files.get))]
[('python', 'docs/partials/p.md', 1), ('text', 'p.md', 5)]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

# --- The syntax ----------------------------------------------------------------------------

#: An include line, ``--8<-- "path"`` or ``--8<-- "path:section"`` (pymdownx.snippets);
#: ``target`` is what is between the quotes.
INCLUDE = re.compile(r"""^[ \t]*-+8<-+[ \t]+(["'])(?P<target>.+?)\1[ \t]*$""", re.MULTILINE)
#: A fence's opening line: optional indentation or list/quote prefix, then ``` or ~~~,
#: then the info string (its first word is the language: :func:`fence_language`).
FENCE = re.compile(
    r"^(?P<indent>[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d+[.)])[ \t]+)?)"
    r"(?P<fence>`{3,}|~{3,})(?P<info>.*)$",
    re.MULTILINE,
)
OUTPUT_TITLE = re.compile(r"""\btitle\s*=\s*["']Output["']""")
#: Info-string languages that are executed as Python code.
PYTHON_CODE = frozenset({"python", "py", "python3", "py3"})
#: Info-string languages that are doctest sessions (``>>>`` prompts and output).
PYTHON_SESSION = frozenset({"pycon"})
PYTHON_LIKE = PYTHON_CODE | PYTHON_SESSION
#: How deep partials may include partials before a walk stops (a cycle, most likely).
MAX_DEPTH = 8


class SourceError(ValueError):
    """An include names a missing file or section, or the blocks cannot be matched."""


def fence_language(info: str) -> str:
    """The language of a fence from its info string: the first word, lowercased.

    Examples
    --------
    >>> fence_language('python title="worked_example.py"'), fence_language('{ .pycon x="1" }')
    ('python', 'pycon')
    """
    text = info.strip()
    if text.startswith("{"):
        text = text[1:].lstrip().removeprefix(".")
    match = re.match(r"[^\s{}]*", text)
    return match.group(0).lower() if match else ""


def is_output_fence(info: str) -> bool:
    """True for the block that shows what the Python block before it prints.

    Examples
    --------
    >>> is_output_fence('text title="Output"'), is_output_fence("text")
    (True, False)
    """
    return fence_language(info) == "text" and bool(OUTPUT_TITLE.search(info))


def include_target(line: str) -> str | None:
    """The target of an include line (``"snippets/a.py:s"``), or None for any other line."""
    match = INCLUDE.match(line)
    return match["target"] if match else None


# --- The page as written, partials followed --------------------------------------------------


class Line(NamedTuple):
    """A line of a page as written: the file it is written in, its number there, its text."""

    file: str
    number: int
    text: str


def walk(
    name: str, text: str, read: Callable[[str], str | None], *, strict: bool = True, depth: int = 0
) -> Iterator[Line]:
    """The lines of file ``name``, each include of a partial replaced by its lines, recursively.

    ``read(path)`` returns a file of the project or None. An include of a missing partial
    is an error, or with ``strict=False`` a line like any other; snippets' stay as lines.
    """
    for number, line in enumerate(text.split("\n"), start=1):
        target = include_target(line)
        if target is not None and target.endswith(".md") and depth < MAX_DEPTH:
            inner = read(target)
            if inner is not None:
                yield from walk(target, inner, read, strict=strict, depth=depth + 1)
                continue
            if strict:
                raise SourceError(f"{name} line {number}: no file {target}")
        yield Line(name, number, line)


def included_files(text: str, read: Callable[[str], str | None]) -> set[str]:
    """Every file that ``text`` includes, partials' includes too; missing ones listed too.

    Examples
    --------
    >>> files = {"docs/partials/p.md": '--8<-- "snippets/b.py:show"\\n'}
    >>> page = 'Text.\\n\\n--8<-- "snippets/a.py:3:5"\\n\\n--8<-- "docs/partials/p.md"\\n'
    >>> sorted(included_files(page, files.get))
    ['docs/partials/p.md', 'snippets/a.py', 'snippets/b.py']
    """
    page = "\0page"  # a name no include can give
    found: set[str] = set()
    for line in walk(page, text, read, strict=False):
        target = include_target(line.text)
        if target is not None:
            found.add(target.partition(":")[0])
        if line.file != page:
            found.add(line.file)
    return found


@dataclass(frozen=True)
class Fence:
    """A fenced block of a page as written; ``follows``: only blank lines or HTML comments
    separate it from the fence before it (as an Output block follows its code)."""

    info: str
    opening: Line
    body: tuple[Line, ...]
    follows: bool

    @property
    def language(self) -> str:
        return fence_language(self.info)

    @property
    def is_output(self) -> bool:
        return is_output_fence(self.info)


def fences(lines: Iterable[Line]) -> Iterator[Fence]:
    """The fences of a page as written (from :func:`walk`), in order, none in a comment."""
    lines = list(lines)
    index, follows = 0, False
    while index < len(lines):
        line = lines[index].text
        opening = FENCE.match(line)
        if opening is None:
            if "<!--" in line and "-->" not in line.split("<!--", 1)[1]:
                while index < len(lines) and "-->" not in lines[index].text:
                    index += 1  # an HTML comment: a fence in it is not rendered
            else:
                follows = follows and not line.strip()
            index += 1
            continue
        fence = opening["fence"]
        close = index + 1
        while close < len(lines):
            stripped = lines[close].text.strip()
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
                break
            close += 1
        yield Fence(opening["info"], lines[index], tuple(lines[index + 1 : close]), follows)
        index, follows = close + 1, True


def section_lines(path: str, text: str, section: str) -> tuple[int, int]:
    """First and last line (1-based) of named section ``section`` of ``text``.

    Examples
    --------
    >>> section_lines("a.py", "# --8<-- [start:s]\\nx = 1\\ny = 2\\n# --8<-- [end:s]\\n", "s")
    (2, 3)
    >>> section_lines("a.py", "x = 1\\n", "s")
    Traceback (most recent call last):
    ...
    site_build.page.SourceError: a.py has no section 's'
    """
    marker = re.compile(rf"-+8<-+\s*\[\s*(start|end)\s*:\s*{re.escape(section)}\s*\]")
    start = end = None
    for number, line in enumerate(text.split("\n"), start=1):
        found = marker.search(line)
        if found and found[1] == "start":
            start = number
        elif found and start is not None:
            end = number
            break
    if start is None or end is None:
        raise SourceError(f"{path} has no section {section!r}")
    return start + 1, end - 1
