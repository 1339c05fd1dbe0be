"""MkDocs hook: under every Output block, the file and section that printed it.

Thin wiring over ``site_build/output_source.py`` (tested in
``tests/test_output_source.py``):

* ``on_page_markdown``: read the page as written (includes not yet expanded) and find
  the sources of each Output block from its include markers; a missing file or section
  fails the build.
* ``on_page_content``: put one source line under each rendered Output block.
* ``on_post_page`` (last, after the notebook page is slimmed): on a notebook page, a
  line under each code cell linking to its lines in the jupytext source.

The links go to ``repo_url`` at the branch of ``edit_uri``, and "checked on every change"
to CONTRIBUTING's section on the doc tests (a notebook cell says "run on every build":
mkdocs-jupyter executes it, and an error fails the build).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from site_build.output_source import (
    Source,
    SourceError,
    cell_ranges,
    insert_cell_lines,
    insert_lines,
    line_html,
    output_sources,
)

_lines: dict[str, list[str]] = {}  # page src_uri -> the source line of each Output block


def _urls(config: MkDocsConfig) -> tuple[str, str]:
    repo = str(config.repo_url or "").rstrip("/")
    parts = [p for p in str(config.edit_uri or "").split("/") if p]
    branch = parts[1] if len(parts) > 1 and parts[0] in {"edit", "blob"} else "main"
    blob = f"{repo}/blob/{branch}/"
    return blob, f"{blob}CONTRIBUTING.md#doc-tests"


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def _written(page: Page, config: MkDocsConfig) -> str:
    """The page's path from the repository's root, as a contributor finds it."""
    docs = Path(config.docs_dir).resolve().relative_to(_root(config))
    return (docs / page.file.src_uri).as_posix()


def _reader(root: Path) -> Callable[[str], str | None]:
    def read(path: str) -> str | None:
        file = root / path
        return file.read_text(encoding="utf-8") if file.is_file() else None

    return read


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    src = page.file.src_uri
    root, name = _root(config), _written(page, config)
    if not src.endswith(".md") or not (root / name).is_file():
        return markdown
    written = (root / name).read_text(encoding="utf-8")
    try:
        blocks = output_sources(name, written, _reader(root))
    except SourceError as error:
        raise PluginError(f"{src}: {error}") from None
    blob, checked = _urls(config)
    _lines[src] = [line_html(sources, blob, checked) for sources in blocks]
    return markdown


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    lines = _lines.pop(page.file.src_uri, None)
    if not lines:
        return html
    try:
        return insert_lines(html, lines)
    except SourceError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from None


@event_priority(-100)
def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    root, name = _root(config), _written(page, config)
    path = root / name
    if not page.file.src_uri.endswith(".py") or not path.is_file():
        return output
    blob, checked = _urls(config)
    cells = cell_ranges(path.read_text(encoding="utf-8"))
    lines = [
        line_html([Source(name, (), first, last)], blob, checked).replace(
            "checked on every change", "run on every build"
        )
        for first, last in cells
    ]
    try:
        return insert_cell_lines(output, lines)
    except SourceError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from None
