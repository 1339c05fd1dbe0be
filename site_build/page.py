"""A page as written: its includes, its fences and Output blocks, and the page as rendered.

The one reader of the page syntax this site uses, for the build, the doc tests (Sybil),
``make outputs``, the claim tests and ``make serve``'s rebuild alike:

* the syntax: :data:`INCLUDE` (a ``--8<-- "file"`` or ``--8<-- "file:section"`` line of
  pymdownx.snippets), :data:`FENCE` (a code fence's opening), :func:`fence_language`
  and :func:`is_output_fence` (a ```` ```text title="Output" ```` block);
* the page as written, Markdown partials followed in place: :func:`walk` gives each line
  with the file and line it is written on, :func:`included_files` every file a page
  includes, :func:`fences` each fence with its lines, and :func:`section_lines` where a
  named section of a snippet is;
* the page as rendered: :func:`expand_includes` runs pymdownx.snippets' own
  preprocessor with the settings of ``mkdocs.yml`` (:func:`markdown_settings`), and
  :func:`render_html` the Markdown extensions ``mkdocs.yml`` enables;
  :class:`ExpandedPage` is a page with its includes expanded and a source map (an
  :class:`Origin` for each line) back to the files as written, and :func:`snippet_line`
  follows an included line into its snippet.

Examples
--------
>>> files = {"docs/partials/p.md": '```python\\n--8<-- "snippets/a.py:s"\\n```'}
>>> page = 'Text.\\n\\n--8<-- "docs/partials/p.md"\\n\\n```text title="Output"\\n1\\n```\\n'
>>> [(f.language, f.opening.file, f.opening.number) for f in fences(walk("p.md", page, files.get))]
[('python', 'docs/partials/p.md', 1), ('text', 'p.md', 5)]
>>> sorted(included_files(page, files.get))
['docs/partials/p.md', 'snippets/a.py']
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, NamedTuple

import markdown
from mkdocs.utils.yaml import get_yaml_loader, yaml_load

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
#: A pymdownx.snippets section marker, ``# --8<-- [start:name]`` or ``[end:name]``.
SECTION_MARKER = re.compile(r"--8<-- \[(start|end):[^\]]*\]")
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
    """The lines of file ``name`` (its text ``text``), each include of a partial replaced
    by the partial's own lines, recursively (up to :data:`MAX_DEPTH` deep).

    ``read(path)`` returns a file of the project (paths as includes name them) or None.
    An include of a missing partial is an error, or, with ``strict=False``, a line like
    any other. Includes of other files (snippets) stay as lines.
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
    """Every file that ``text`` includes with ``--8<--``, the partials' own includes too.

    The paths are given without their ``:section`` or ``:line`` suffixes; a missing file
    is listed too (the build then reports it).

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
    """A fenced block of a page as written: its info string and its lines.

    ``follows`` is True when only blank lines (or HTML comments) separate it from the
    fence before it, as an Output block follows the code that printed it.
    """

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


def fences(lines: Sequence[Line] | Iterator[Line]) -> Iterator[Fence]:
    """The fences of a page as written (from :func:`walk`), in order.

    A fence inside an HTML comment is not rendered, and not listed.
    """
    lines = list(lines)
    index, follows = 0, False
    while index < len(lines):
        line = lines[index].text
        opening = FENCE.match(line)
        if opening is None and "<!--" in line and "-->" not in line.split("<!--", 1)[1]:
            while index < len(lines) and "-->" not in lines[index].text:
                index += 1  # an HTML comment: a fence in it is not rendered
            index += 1
            continue
        if opening is None:
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
    start = end = None
    for number, line in enumerate(text.split("\n"), start=1):
        if re.search(rf"-+8<-+\s*\[\s*start\s*:\s*{re.escape(section)}\s*\]", line):
            start = number
        elif start is not None and re.search(
            rf"-+8<-+\s*\[\s*end\s*:\s*{re.escape(section)}\s*\]", line
        ):
            end = number
            break
    if start is None or end is None:
        raise SourceError(f"{path} has no section {section!r}")
    return start + 1, end - 1


def snippet_line(root: Path, target: str, index: int) -> int | None:
    """The line (1-based) of the ``index``-th line (0-based) that include ``target`` brings.

    The k-th line an include of ``snippets/x.py:section`` brings is the k-th line of that
    section, section markers left out (as pymdownx.snippets leaves them out). None if the
    file, the section or the line is not there.
    """
    path, _, section = target.partition(":")
    file = root / path
    if not file.is_file():
        return None
    text = file.read_text(encoding="utf-8")
    lines = text.split("\n")
    start, end = 0, len(lines)
    if section:
        try:
            first, last = section_lines(path, text, section)
        except SourceError:
            return None
        start, end = first - 1, last
    body = [i for i in range(start, end) if not SECTION_MARKER.search(lines[i])]
    return body[index] + 1 if index < len(body) else None


# --- The page as rendered: mkdocs.yml's Markdown settings -----------------------------------


@functools.cache
def _mkdocs_yml(config_file: Path, page_src_path: str) -> dict[str, Any]:
    # MkDocs' own YAML loader, so !ENV and !relative resolve as in a build. The
    # placeholder config carries what the !relative tags look at when used.
    fake = SimpleNamespace(
        config_file_path=str(config_file),
        docs_dir=str(config_file.parent / "docs"),
        _current_page=SimpleNamespace(file=SimpleNamespace(src_path=page_src_path)),
    )
    loader = get_yaml_loader(config=fake)  # type: ignore[arg-type]
    config = yaml_load(config_file.read_text(encoding="utf-8"), loader=loader)
    fake.docs_dir = str(config_file.parent / str(config.get("docs_dir", "docs")))
    return config


def _plain(value: Any) -> Any:
    """Turn MkDocs' path placeholders (os.PathLike) into plain strings, recursively."""
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _page_src_path(config_file: Path, page: Path) -> str:
    docs_dir = config_file.resolve().parent / "docs"
    try:
        return page.resolve().relative_to(docs_dir).as_posix()
    except ValueError:
        return page.name


def markdown_settings(config_file: Path, page: Path) -> tuple[list[str], dict[str, Any]]:
    """The Markdown extensions ``mkdocs.yml`` enables, and their settings, for ``page``."""
    config = _mkdocs_yml(config_file.resolve(), _page_src_path(config_file, page))
    names: list[str] = []
    settings: dict[str, Any] = {}
    for entry in config.get("markdown_extensions", []):
        if isinstance(entry, dict):
            for name, options in entry.items():
                names.append(name)
                settings[name] = dict(_plain(options or {}))
        else:
            names.append(str(entry))
    return names, settings


def snippet_settings(config_file: Path, page: Path) -> dict[str, Any]:
    """The ``pymdownx.snippets`` settings of ``mkdocs.yml`` for ``page``."""
    names, settings = markdown_settings(config_file, page)
    if "pymdownx.snippets" not in names:
        raise ValueError(f"{config_file} does not enable pymdownx.snippets in markdown_extensions")
    return dict(settings.get("pymdownx.snippets", {}))


def expand_includes(text: str, config_file: Path, page: Path, *, auto_append: bool = True) -> str:
    """Expand ``--8<--`` includes exactly as the MkDocs build does (pymdownx.snippets).

    ``auto_append=False`` leaves out the files the settings append to every text (the
    glossary): what a single line of the page expands to, for the source map.
    """
    settings = snippet_settings(config_file, page)
    if not auto_append:
        settings.pop("auto_append", None)
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": settings},
    )
    return "\n".join(md.preprocessors["snippet"].run(text.split("\n")))


_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)


def render_html(config_file: Path, page: Path) -> str:
    """The HTML of ``page`` as the build renders it (includes expanded), before the theme."""
    text = _FRONT_MATTER.sub("", page.read_text(encoding="utf-8"), count=1)
    expanded = expand_includes(text, config_file, page)
    names, settings = markdown_settings(config_file, page)
    return str(markdown.Markdown(extensions=names, extension_configs=settings).convert(expanded))


def find_config_file(start: Path) -> Path:
    """Find ``mkdocs.yml`` in ``start`` or one of its parents."""
    for folder in [start, *start.parents]:
        candidate = folder / "mkdocs.yml"
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"no mkdocs.yml above {start}")


# --- The source map: where each line of the expanded page is written ------------------------


class Origin(NamedTuple):
    """Where one line of an expanded page is written.

    ``file`` is a path from the project's root (the folder of ``mkdocs.yml``) and
    ``line`` a 1-based line of it. ``include`` is ``None`` for a line written in
    ``file`` itself, or the target of the ``--8<--`` line ``line`` that brought the
    line in (a snippet, ``"snippets/x.py:section"``). Markdown files included whole
    (partials) are followed: their lines are named by the partial, and ``via`` lists
    the ``(file, line)`` of each include that led there, outermost first.
    """

    file: str
    line: int
    include: str | None = None
    via: tuple[tuple[str, int], ...] = ()

    def written(self) -> str:
        """``"docs/partials/x.md line 39 (included by docs/attention.md line 47)"``."""
        where = f"{self.file} line {self.line}"
        if self.include is not None:
            where += f" (the include of {self.include})"
        if self.via:
            where += " (included by " + ", ".join(f"{f} line {n}" for f, n in reversed(self.via))
            where += ")"
        return where


def origins(
    name: str, text: str, expand: Callable[[str], str], root: Path, *, _via: Any = ()
) -> list[Origin]:
    """The :class:`Origin` of each line of ``expand(text)``, ``text`` being file ``name``.

    Each include line is expanded on its own to count the lines it brings in; a
    Markdown file included whole is mapped line by line, recursively.

    Examples
    --------
    >>> fake = {'--8<-- "a.py:s"': "x = 1\\ny = 2"}
    >>> [tuple(o)[:3] for o in origins("p.md", 'Hi\\n--8<-- "a.py:s"', fake.get, Path("."))]
    [('p.md', 1, None), ('p.md', 2, 'a.py:s'), ('p.md', 2, 'a.py:s')]
    """
    found: list[Origin] = []
    for number, line in enumerate(text.split("\n"), start=1):
        target = include_target(line)
        if target is None:
            found.append(Origin(name, number, None, _via))
            continue
        count = len(expand(line).split("\n"))
        path, _, section = target.partition(":")
        inner: list[Origin] | None = None
        partial = root / path
        if path.endswith(".md") and not section and len(_via) < MAX_DEPTH and partial.is_file():
            written = partial.read_text(encoding="utf-8")
            inner = origins(path, written, expand, root, _via=(*_via, (name, number)))
            if len(inner) != count:
                inner = None
        found.extend(inner or [Origin(name, number, target, _via)] * count)
    return found


def _appended_origins(
    appended: list[str], settings: dict[str, Any], root: Path
) -> list[Origin] | None:
    """The :class:`Origin` of each line that ``auto_append`` adds after a page's own.

    Each line is matched, in order, with the lines of the appended files; the blank
    lines pymdownx.snippets puts around them are named by the file they surround.
    None if a line matches neither.
    """
    files = [
        (t, (root / t).read_text(encoding="utf-8").split("\n"))
        for t in settings.get("auto_append", [])
    ]
    found: list[Origin] = []
    at = 0  # which file
    number = 0  # lines of it matched so far
    for line in appended:
        while at < len(files) and number >= len(files[at][1]):
            at, number = at + 1, 0
        if at < len(files) and line == files[at][1][number]:
            number += 1
            found.append(Origin(files[at][0], number, None))
        elif not line.strip() and files:
            found.append(Origin(files[min(at, len(files) - 1)][0], 0, "auto_append"))
        else:
            return None
    return found


def _line_map(found: list[Origin]) -> list[tuple[int, int]]:
    """For each line of a page's own :func:`origins`: (the page's line that holds it,
    1-based; its place among the lines that line's include brings, 1-based, or 0)."""
    mapping: list[tuple[int, int]] = []
    previous, inner = None, 0
    for origin in found:
        if not origin.via and origin.include is None:
            mapping.append((origin.line, 0))
            previous = None
            continue
        key = origin.via[0] if origin.via else (origin.file, origin.line)
        inner = inner + 1 if key == previous else 1
        previous = key
        mapping.append((key[1], inner))
    return mapping


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.name


@dataclass
class ExpandedPage:
    """A page with its ``--8<--`` includes expanded as the build expands them, and its map.

    ``text`` is the expanded page, glossary appended; ``raw`` the file as written; ``root``
    the folder of ``mkdocs.yml``. For each line of ``text`` (0-based): ``line_map`` gives
    (line of the page as written, 1-based; line within that line's include, 1-based, or
    0 if the line is not included), and ``origins`` the file and line where it is
    written, following includes of partials (:class:`Origin`); both are None if unsure.
    """

    path: Path
    raw: str
    text: str
    root: Path
    line_map: list[tuple[int, int]] | None
    origins: list[Origin] | None

    @classmethod
    def read(cls, page: Path, encoding: str = "utf-8") -> ExpandedPage:
        raw = page.read_text(encoding=encoding)
        config_file = find_config_file(page.resolve().parent)
        root = config_file.parent
        expanded = expand_includes(raw, config_file, page)

        def expand(text: str) -> str:
            return expand_includes(text, config_file, page, auto_append=False)

        # The page's own lines, then what auto_append adds after them (the glossary):
        # lines of the appended files, named by those files.
        body = expand(raw).split("\n")
        lines = expanded.split("\n")
        tail = _appended_origins(lines[len(body) :], snippet_settings(config_file, page), root)
        if lines[: len(body)] != body:
            tail = None
        found = origins(_relative(page, root), raw, expand, root)
        if tail is None or len(found) != len(body):
            return cls(page, raw, expanded, root, None, None)
        line_map = _line_map(found) + [(len(raw.split("\n")), 0)] * len(tail)
        return cls(page, raw, expanded, root, line_map, found + tail)

    def origin(self, line: int) -> Origin | None:
        """Where line ``line`` (1-based) of the expanded text is written, if known."""
        if self.origins is None or not 1 <= line <= len(self.origins):
            return None
        return self.origins[line - 1]

    def written_line(self, line: int) -> tuple[str, int] | None:
        """The file and line where line ``line`` of the expanded page is written, into
        snippets: an included line is named by its line in the snippet (:func:`snippet_line`)."""
        origin = self.origin(line)
        if origin is None:
            return None
        if origin.include is None:
            return origin.file, origin.line
        first = line - 1
        while first > 0 and self.origin(first) == origin:
            first -= 1
        number = snippet_line(self.root, origin.include, line - 1 - first)
        return None if number is None else (origin.include.partition(":")[0], number)
