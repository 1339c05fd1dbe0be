"""The KaTeX fonts a page preloads: those of its first screen's formulas.

Every formula is set in KaTeX_Main, and every letter that stands for a quantity in
KaTeX_Math italic: a page whose first screen (up to its article's first ``<h2``) shows a
formula preloads both, so that its text is not laid out with a fallback font first and
shifted when the font arrives. Fonts used further down would compete for bandwidth with
what the first screen needs, and load when their formulas render.
``tests/browser/test_katex.py`` checks on the lesson page that both preloads are used.
"""

from __future__ import annotations

import html as html_lib
from collections.abc import Iterable

#: The woff2 files a first screen with a formula uses, as KaTeX's CSS names them.
FIRST_SCREEN_FONTS = ("fonts/KaTeX_Main-Regular.woff2", "fonts/KaTeX_Math-Italic.woff2")


def first_screen(page: str) -> str:
    """The part of a built page that a reader sees first: up to the article's first ``<h2``.

    Examples
    --------
    >>> first_screen('<head></head><article><h1>T</h1><p>a</p><h2 id="x">S</h2><p>b</p>')
    '<head></head><article><h1>T</h1><p>a</p>'
    >>> first_screen("<article><p>short page</p></article>")
    '<article><p>short page</p></article>'
    """
    start = page.find("<article")
    cut = page.find("<h2", start) if start >= 0 else -1
    return page if cut < 0 else page[:cut]


def fonts_to_preload(page: str) -> tuple[str, ...]:
    """:data:`FIRST_SCREEN_FONTS` if the typeset page shows a formula on its first screen.

    Examples
    --------
    >>> fonts_to_preload('<article><p><span class="katex">x</span></p><h2>S</h2></article>')
    ('fonts/KaTeX_Main-Regular.woff2', 'fonts/KaTeX_Math-Italic.woff2')
    >>> fonts_to_preload('<article><p>a</p><h2>S</h2><span class="katex">x</span></article>')
    ()
    """
    return FIRST_SCREEN_FONTS if 'class="katex' in first_screen(page) else ()


def preload_links(urls: Iterable[str]) -> str:
    """``<link rel="preload">`` tags for fonts (``crossorigin`` is required for fonts).

    Examples
    --------
    >>> preload_links(["../f/A.woff2"])
    '<link rel="preload" href="../f/A.woff2" as="font" type="font/woff2" crossorigin>'
    """
    tag = '<link rel="preload" href="{}" as="font" type="font/woff2" crossorigin>'
    return "".join(tag.format(html_lib.escape(url)) for url in urls)
