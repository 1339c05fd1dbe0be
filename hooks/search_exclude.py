"""MkDocs hook: code, output and widget stand-in text stay out of the search index.

Thin wiring only; the logic lives in ``site_build/search_exclude.py`` (tested in
``tests/test_search_exclude.py``). ``on_page_content`` runs before the search plugin's
``on_page_context``, which indexes the page and then strips the attributes again, so
the pages readers get are unchanged. Lowest priority: the other hooks see the page's
HTML as Markdown produced it.
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from site_build.search_exclude import mark


@event_priority(-100)
def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return mark(html)
