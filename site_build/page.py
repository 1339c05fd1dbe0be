"""A page as written: its includes, its fences, and the source line under its Output blocks.

The one reader of the page syntax (:data:`INCLUDE`, :data:`FENCE`, :func:`is_output_fence`)
for the build and the tests alike. :func:`walk` gives a page's lines, partials followed,
each with its file and line, and :func:`fences` its fences. The page as rendered, for the
tests only, is in :mod:`testbed.rendered`.

Under each Output block the build puts where its numbers come from:
``snippets/worked_example.py · softmax · checked on every change`` links to the code that
printed the block in the repository (``repo_url``) and to CONTRIBUTING's doc tests. A
missing section, or a count of Output blocks that differs between the Markdown and the
HTML, stops the build. A notebook gets a line under each code cell.

Examples
--------
>>> files = {"docs/partials/p.md": '```python\\n--8<-- "snippets/a.py:s"\\n```',
...          "snippets/a.py": "x = 1\\n# --8<-- [start:s]\\nprint(x)\\n# --8<-- [end:s]\\n"}
>>> page = 'Text.\\n\\n--8<-- "docs/partials/p.md"\\n\\n```text title="Output"\\n1\\n```\\n'
>>> [(f.info, f.opening.file, f.opening.number) for f in fences(walk("p.md", page, files.get))]
[('python', 'docs/partials/p.md', 1), ('text title="Output"', 'p.md', 5)]
>>> [[(s.path, s.sections, s.first, s.last)] for [s] in output_sources("p.md", page, files.get)]
[[('snippets/a.py', ('s',), 3, 3)]]
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
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


# --- The source line under each Output block -----------------------------------------------

#: The rendered Output block: pymdownx.highlight's block with the title "Output".
OUTPUT_HTML = re.compile(
    r'<div class="highlight"><span class="filename">Output</span>.*?</code></pre></div>',
    re.DOTALL,
)


@dataclass(frozen=True)
class Source:
    """A file (from the repository's root) and the lines of it that a fence shows."""

    path: str
    sections: tuple[str, ...]
    first: int
    last: int
    whole: bool = False  #: the whole file is shown

    def label(self) -> str:
        """``"snippets/a.py · data, one_call"``, ``"docs/p.md · lines 3-5"`` or the path.

        Examples
        --------
        >>> Source("a.py", ("x", "y"), 3, 9).label(), Source("p.md", (), 4, 4).label()
        ('a.py · x, y', 'p.md · line 4')
        """
        if self.sections:
            return f"{self.path} · {', '.join(self.sections)}"
        if self.whole:
            return self.path
        if self.first == self.last:
            return f"{self.path} · line {self.first}"
        return f"{self.path} · lines {self.first}-{self.last}"


def _resolve(target: str, read: Callable[[str], str | None]) -> Source:
    path, _, rest = target.partition(":")
    text = read(path)
    if text is None:
        raise SourceError(f"an include names {path}, which does not exist")
    count = len(text.rstrip("\n").split("\n"))
    if not rest:
        return Source(path, (), 1, count, whole=True)
    if rest[0].isdigit():  # a line range, "file:3:5" (pymdownx.snippets)
        numbers = [int(n) for n in rest.split(":") if n.isdigit()] or [1]
        return Source(path, (), numbers[0], numbers[-1] if len(numbers) > 1 else count)
    first, last = section_lines(path, text, rest)
    return Source(path, (rest,), first, last)


def _merge(found: list[Source]) -> list[Source]:
    """One source per file: its sections joined, its lines from the first to the last."""
    merged: dict[str, Source] = {}
    for new in found:
        old = merged.setdefault(new.path, new)
        merged[new.path] = Source(
            new.path,
            tuple(dict.fromkeys(old.sections + new.sections)),
            min(old.first, new.first),
            max(old.last, new.last),
            old.whole or new.whole,
        )
    return list(merged.values())


def output_sources(page: str, text: str, read: Callable[[str], str | None]) -> list[list[Source]]:
    """For each Output block of ``page`` as rendered, in order, the sources of its code.

    ``text`` is the page as written, front matter included; ``read(path)`` returns a file
    of the repository, or None. An Output block with no Python fence before it gets none.
    """
    blocks: list[list[Source]] = []
    code: list[Source] | None = None  # the sources of the fence before, a Python one
    for fence in fences(walk(page, text, read)):
        before, code = (code if fence.follows else None), None
        if is_output_fence(fence.info):
            blocks.append(before or [])
        elif fence_language(fence.info) in PYTHON_CODE:
            targets = [t for line in fence.body if (t := include_target(line.text))]
            if targets:
                code = _merge([_resolve(t, read) for t in targets])
            else:
                body = fence.body or (fence.opening,)
                code = [Source(fence.opening.file, (), body[0].number, body[-1].number)]
    return blocks


def line_html(sources: Sequence[Source], blob_url: str) -> str:
    """The source line for one Output block (``blob_url``: :func:`blob_url`'s).

    Examples
    --------
    >>> line = line_html([Source("s/a.py", ("x",), 3, 5)], "https://h/r/blob/main/")
    >>> print(line.replace("> · <", ">\\n · <").replace("><", ">\\n<"))
    <p class="output-source">
    <a href="https://h/r/blob/main/s/a.py#L3-L5">s/a.py · x</a>
     · <a href="https://h/r/blob/main/CONTRIBUTING.md#doc-tests">checked on every change</a>
    </p>
    """
    links = [(f"{s.path}#L{s.first}-L{s.last}", s.label()) for s in sources]
    links.append(("CONTRIBUTING.md#doc-tests", "checked on every change"))
    anchors = (f'<a href="{html.escape(blob_url + p)}">{html.escape(t)}</a>' for p, t in links)
    return f'<p class="output-source">{" · ".join(anchors)}</p>'


def insert_lines(page_html: str, lines: Sequence[str]) -> str:
    """Put ``lines[i]`` inside the ``i``-th rendered Output block, after its ``<pre>``
    (it adds no block to the page: the blocks ``settle.js`` renders stay as many).

    Examples
    --------
    >>> block = '<div class="highlight"><span class="filename">Output</span>'
    >>> block += "<pre><code>1\\n</code></pre></div>"
    >>> page = insert_lines(f"<p>a</p>{block}<p>b</p>", ["<p>src</p>"])
    >>> page.endswith("</pre><p>src</p></div><p>b</p>")
    True
    """
    found = list(OUTPUT_HTML.finditer(page_html))
    if len(found) != len(lines):
        raise SourceError(
            f"the page has {len(found)} rendered Output blocks but its Markdown has "
            f"{len(lines)}: an Output block is rendered where the source line cannot follow it"
        )
    return _insert(page_html, [m.end() - len("</div>") for m in found], lines)


def _insert(page_html: str, offsets: list[int], lines: Sequence[str]) -> str:
    """``page_html`` with ``lines[i]`` inserted at ``offsets[i]`` (in increasing order)."""
    parts, previous = [], 0
    for offset, line in zip(offsets, lines, strict=True):
        parts += [page_html[previous:offset], line]
        previous = offset
    return "".join([*parts, page_html[previous:]])


def cell_ranges(text: str) -> list[tuple[int, int]]:
    """First and last line (1-based) of each code cell of a jupytext percent script, its
    blank lines at the end left out.

    Examples
    --------
    >>> cell_ranges("# %% [markdown]\\n# Hi\\n\\n# %%\\nx = 1\\n\\n# %%\\nprint(x)\\n")
    [(5, 5), (8, 8)]
    """
    cells: list[tuple[int, int]] = []
    lines = text.split("\n")
    starts = [n for n, line in enumerate(lines, start=1) if line.startswith("# %%")]
    for position, start in enumerate(starts):
        if "[markdown]" in lines[start - 1] or "[md]" in lines[start - 1]:
            continue
        last = starts[position + 1] - 1 if position + 1 < len(starts) else len(lines)
        while last > start and not lines[last - 1].strip():
            last -= 1
        if last > start:
            cells.append((start + 1, last))
    return cells


CODE_CELL = re.compile(r'<div class="jp-Cell jp-CodeCell[^"]*"[^>]*>')
_DIV = re.compile(r"<div\b|</div\s*>")


def insert_cell_lines(page_html: str, lines: Sequence[str]) -> str:
    """Put ``lines[i]`` right after the ``i``-th code cell of a rendered notebook page.

    Examples
    --------
    >>> cell = '<div class="jp-Cell jp-CodeCell x"><div class="jp-Cell jp-CodeCell"></div></div>'
    >>> page = insert_cell_lines(f"<main>{cell}</main>", ["<p>src</p>"])
    >>> page.endswith("</div><p>src</p></main>")
    True
    """
    ends: list[int] = []
    for match in CODE_CELL.finditer(page_html):
        if ends and match.start() < ends[-1]:
            continue  # a cell in the cell before (mkdocs-jupyter wraps each cell once more)
        depth = 0
        for tag in _DIV.finditer(page_html, match.start()):
            depth += 1 if tag.group().startswith("<div") else -1
            if depth == 0:
                ends.append(tag.end())  # just after the </div> that closes the cell
                break
        else:
            raise SourceError("a notebook cell's <div> is never closed")
    if len(ends) != len(lines):
        raise SourceError(
            f"the notebook page has {len(ends)} code cells but its source has {len(lines)}"
        )
    return _insert(page_html, ends, lines)


def blob_url(repo_url: str, edit_uri: str) -> str:
    """The address of the repository's files, on the branch that ``edit_uri`` names.

    Examples
    --------
    >>> blob_url("https://h/r/", "edit/dev/docs/")
    'https://h/r/blob/dev/'
    """
    parts = [p for p in edit_uri.split("/") if p]
    branch = parts[1] if len(parts) > 1 and parts[0] in {"edit", "blob"} else "main"
    return f"{repo_url.rstrip('/')}/blob/{branch}/"


def page_lines(root: Path, name: str, blob: str) -> list[str] | None:
    """The source line of each Output block of page ``name``; None for a generated page."""
    path = root / name
    if not name.endswith(".md") or not path.is_file():
        return None

    def read(include: str) -> str | None:
        file = root / include
        return file.read_text(encoding="utf-8") if file.is_file() else None

    blocks = output_sources(name, path.read_text(encoding="utf-8"), read)
    return [line_html(sources, blob) for sources in blocks]


def notebook_lines(root: Path, name: str, blob: str) -> list[str] | None:
    """The source line of each code cell of notebook ``name`` (its jupytext source)."""
    path = root / name
    if not name.endswith(".py") or not path.is_file():
        return None
    return [
        line_html([Source(name, (), first, last)], blob).replace(
            "checked on every change", "run on every build"
        )
        for first, last in cell_ranges(path.read_text(encoding="utf-8"))
    ]
