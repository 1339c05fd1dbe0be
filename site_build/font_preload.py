"""Which KaTeX fonts a typeset page shows on its first screen, to preload them.

KaTeX's stylesheet says, rule by rule, which font each class of its HTML uses. Read
with the CSS parser of :mod:`site_build.css_prune`, it gives a table from class sets to
woff2 files (:func:`font_table`); a page's typeset HTML then needs the fonts whose
classes it carries (:func:`fonts_needed`). ``hooks/math.py`` preloads those of the first
screen (:func:`first_screen`) with :func:`preload_links`: the fonts of formulas further
down load when they render.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Iterable, Mapping, Sequence

from site_build.css_prune import class_sets, declarations, parse, walk

#: For each selector, the class sets its compound parts need, and its woff2 file.
FontTable = list[tuple[tuple[frozenset[str], ...], str]]

_WOFF2 = re.compile(r"url\(([^)]*\.woff2)\)")
_KATEX_FAMILY = re.compile(r"\b(KaTeX_\w+)")


def _face(decl: Mapping[str, str]) -> tuple[str, str, str]:
    """(family, style, weight) of a rule or @font-face, weights as numbers."""
    family = decl["font-family"].split(",")[0].strip().strip("\"'")
    weight = decl.get("font-weight", "400")
    return (
        family,
        decl.get("font-style", "normal"),
        {"normal": "400", "bold": "700"}.get(weight, weight),
    )


def font_table(css: str) -> FontTable:
    """What KaTeX's CSS says: for each selector, the classes it needs and its woff2 file.

    A selector such as ``.katex .delimsizing.mult .delim-size1>span`` becomes the class
    sets of its compound parts after ``.katex`` (``{delimsizing, mult}``, ``{delim-size1}``);
    ``.katex`` itself maps to the empty tuple (every formula uses its font).

    Examples
    --------
    >>> css = ('@font-face{font-family:KaTeX_Main;font-style:normal;font-weight:400;'
    ...        'src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2")}'
    ...        '.katex{font:normal 1.21em KaTeX_Main,Times New Roman,serif}'
    ...        '.katex .mathbf{font-family:KaTeX_Main;font-weight:700}'
    ...        '@font-face{font-family:KaTeX_Main;font-style:normal;font-weight:700;'
    ...        'src:url(fonts/KaTeX_Main-Bold.woff2) format("woff2")}')
    >>> for classes, woff2 in font_table(css):
    ...     print([sorted(c) for c in classes], woff2)
    [] fonts/KaTeX_Main-Regular.woff2
    [['mathbf']] fonts/KaTeX_Main-Bold.woff2
    """
    rules = list(walk(parse(css)))
    faces = {}
    for rule in rules:
        if rule.prelude == "@font-face" and rule.declarations is not None:
            decl = declarations(rule.declarations)
            woff2 = _WOFF2.search(decl.get("src", ""))
            if woff2:
                faces[_face(decl)] = woff2.group(1)
    table: FontTable = []
    for rule in rules:
        if rule.at or rule.declarations is None:
            continue
        decl = declarations(rule.declarations)
        if rule.prelude == ".katex" and "font" in decl:  # the shorthand: every formula
            family = _KATEX_FAMILY.search(decl["font"])
            if family:
                table.insert(0, ((), faces[(family.group(1), "normal", "400")]))
        if "font-family" not in decl or _face(decl) not in faces:
            continue
        for selector in rule.prelude.split(","):
            parts = selector.replace(">", " ").split()
            if not parts or parts[0] != ".katex":
                continue
            needs = tuple(
                frozenset(p.strip(".").split(".")) for p in parts[1:] if p.startswith(".")
            )
            table.append((needs, faces[_face(decl)]))
    return table


def fonts_needed(page: str, table: Sequence[tuple[tuple[frozenset[str], ...], str]]) -> list[str]:
    """The woff2 files (as KaTeX's CSS names them) that the page's typeset formulas use.

    A selector counts when each of its class sets is carried whole by some element of
    the page (descendant order is not checked). No formula, no font.

    Examples
    --------
    >>> table = [((), "Main.woff2"), ((frozenset({"delimsizing", "size1"}),), "Size1.woff2"),
    ...          ((frozenset({"delimsizing", "size3"}),), "Size3.woff2")]
    >>> fonts_needed('<span class="katex"><span class="delimsizing size1">(</span>'
    ...              '<span class="sizing size3">2</span></span>', table)
    ['Main.woff2', 'Size1.woff2']
    >>> fonts_needed("<p>no maths</p>", table)
    []
    """
    elements = class_sets(page)
    if not any("katex" in element for element in elements):
        return []
    found = {
        woff2
        for needs, woff2 in table
        if all(any(classes <= element for element in elements) for classes in needs)
    }
    return sorted(found)


def first_screen(page: str) -> str:
    """The part of a built page that a reader sees first: up to the article's first ``<h2``.

    Fonts preloaded for the whole of a long page compete for bandwidth with what the
    first screen needs; the fonts of formulas further down load when those render.

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


def preload_links(urls: Iterable[str]) -> str:
    """``<link rel="preload">`` tags for fonts (``crossorigin`` is required for fonts).

    Examples
    --------
    >>> preload_links(["../f/A.woff2"])
    '<link rel="preload" href="../f/A.woff2" as="font" type="font/woff2" crossorigin>'
    """
    tag = '<link rel="preload" href="{}" as="font" type="font/woff2" crossorigin>'
    return "".join(tag.format(html_lib.escape(url)) for url in urls)
