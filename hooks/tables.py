"""MkDocs hook: each plain table of a page goes in a box of its own.

Thin wiring only; ``site_build/tables.py`` says why and holds the logic (its doctests
and ``tests/test_tables.py`` check it).
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from site_build.tables import wrap_tables


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return wrap_tables(html)
