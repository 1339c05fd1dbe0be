"""MkDocs hook: every formula is typeset at build time by KaTeX; pages ship no KaTeX code.

Thin wiring only; the logic lives in ``site_build/katex_render.py`` (typesetting) and
``site_build/font_preload.py`` (which fonts to preload), tested in
``tests/test_katex_render.py``.

* ``on_page_content``: note each page's formulas (arithmatex markup, and ``$...$`` in
  notebook Markdown cells); the page itself is not changed yet, so the search index
  keeps the TeX source.
* ``on_env`` (after every page's content, before any page is written): typeset all
  formulas not cached in ``.cache/katex/`` in ONE node run. A formula KaTeX rejects fails
  the build, naming the formula, KaTeX's reason and the page.
* ``on_post_page``: put the typeset HTML in place of the TeX, and preload KaTeX's two
  text fonts on a page whose first screen shows a formula, so that text is not laid out
  first with a fallback font and shifted when the font arrives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from site_build.cache import ContentCache
from site_build.font_preload import fonts_to_preload, preload_links
from site_build.font_subset import subset_fonts
from site_build.katex_render import Formula, KatexError, Renderer, collect, substitute
from site_build.vendor import KATEX_DEST as KATEX_SITE_DIR

ROOT = Path(__file__).resolve().parent.parent
KATEX_CSS = ROOT / "node_modules" / "katex" / "dist" / "katex.min.css"
KATEX_FONTS = KATEX_CSS.parent / "fonts"
FONT_CACHE = ContentCache(ROOT / ".cache" / "katex-fonts")

_renderer: Renderer | None = None
_pages: dict[Formula, list[str]] = {}  # formula -> the pages it is on


def on_pre_build(config: MkDocsConfig) -> None:
    global _renderer
    _renderer = Renderer(ROOT, ROOT / ".cache" / "katex")
    _pages.clear()


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    try:
        formulas = collect(html)
    except KatexError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from None
    for formula in formulas:
        _pages.setdefault(formula, []).append(page.file.src_uri)
    return html


def on_env(env: Any, config: MkDocsConfig, files: Files) -> Any:
    assert _renderer is not None
    try:
        _renderer.render(sorted(_pages), where=_pages)
    except KatexError as error:
        raise PluginError(str(error)) from None
    return env


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    assert _renderer is not None
    try:
        formulas = collect(output)
        where = {f: [page.file.src_uri] for f in formulas}
        output = substitute(output, _renderer.render(formulas, where=where))
    except KatexError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from None
    fonts = fonts_to_preload(output)
    urls = [get_relative_url(f"{KATEX_SITE_DIR}/{font}", page.url) for font in fonts]
    return output.replace("</head>", preload_links(urls) + "</head>", 1)


def on_post_build(config: MkDocsConfig) -> None:
    site = Path(config.site_dir)
    pages = [p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.html"))]
    fonts = subset_fonts(pages, KATEX_FONTS.glob("*.woff2"), FONT_CACHE)
    for name, blob in fonts.items():
        dest = site / KATEX_SITE_DIR / "fonts" / name
        if not dest.is_file() or dest.read_bytes() != blob:
            dest.write_bytes(blob)
