"""KaTeX's woff2 fonts cut down to the characters the site's formulas draw.

The characters are those of KaTeX's visible HTML (``span.katex-html``) and :data:`ALWAYS`;
the hidden MathML is not drawn with these fonts. The woff and ttf files stay whole: a
browser that reads woff2 never asks for them.
"""

from __future__ import annotations

import html as html_lib
import io
import re
from collections.abc import Iterable
from pathlib import Path

from site_build.cache import ContentCache, content_key

#: What KaTeX's stylesheet writes itself (an equation number's parentheses), and the space.
ALWAYS = frozenset("() 0123456789")

_VISIBLE = re.compile(r'<span class="katex-html"[^>]*>')
_TAG = re.compile(r"<[^>]*>")


def element_insides(page: str, opening: re.Pattern[str], tag: str) -> list[tuple[int, int]]:
    """(start, end) of the inside of every element whose start tag matches ``opening``,
    up to its own ``</tag>``; ``ValueError`` for an element that is never closed.

    Examples
    --------
    >>> page = '<p><span class="k"><span>a</span>b</span>c</p>'
    >>> [page[s:e] for s, e in element_insides(page, re.compile('<span class="k">'), "span")]
    ['<span>a</span>b']
    """
    tags = re.compile(rf"<{tag}\b[^>]*>|</{tag}\s*>")
    spans = []
    for start in opening.finditer(page):
        depth = 1
        for found in tags.finditer(page, start.end()):
            depth += -1 if found.group().startswith("</") else 1
            if depth == 0:
                spans.append((start.end(), found.start()))
                break
        else:
            raise ValueError(f"<{tag}> at character {start.start()} has no closing </{tag}>")
    return spans


def katex_characters(page: str) -> set[str]:
    """Every character drawn in the page's typeset formulas (their visible HTML).

    Examples
    --------
    >>> page = ('<p>x</p><span class="katex"><span class="katex-mathml"><math>'
    ...         '<mi>q</mi></math></span><span class="katex-html" aria-hidden="true">'
    ...         '<span class="base"><span class="mord mathnormal">k</span>'
    ...         '<span class="mrel">&#x2208;</span></span></span></span> after')
    >>> sorted(katex_characters(page))
    ['k', '∈']
    """
    found: set[str] = set()
    for start, end in element_insides(page, _VISIBLE, "span"):
        found.update(html_lib.unescape(_TAG.sub("", page[start:end])))
    found.discard("\n")
    return found


def subset_woff2(font: bytes, characters: Iterable[str]) -> bytes:
    """The woff2 ``font`` with only the glyphs of ``characters`` (others are ignored);
    layout features and names kept, no timestamp rewritten (same input, same bytes)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    ttf = TTFont(io.BytesIO(font), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in set(characters)))
    subsetter.subset(ttf)
    out = io.BytesIO()
    ttf.flavor = "woff2"
    ttf.save(out)
    return out.getvalue()


def subset_fonts(
    pages: Iterable[str], fonts: Iterable[Path], cache: ContentCache
) -> dict[str, bytes]:
    """Each woff2 file of ``fonts``, by file name, cut down to the pages' characters;
    cached by the characters, the fonts' bytes and fontTools' version."""
    import fontTools

    fonts = sorted(fonts)
    found = set(ALWAYS).union(*(katex_characters(page) for page in pages))
    characters = "".join(sorted(found))
    key = content_key(
        meta={"fontTools": fontTools.version, "flavor": "woff2"},
        files=fonts,
        data=[characters.encode("utf-8")],
    )
    cut = cache.get(
        "katex-fonts",
        key,
        ["-" + f.name for f in fonts],
        lambda: {"-" + f.name: subset_woff2(f.read_bytes(), characters) for f in fonts},
    )
    return {suffix[1:]: blob for suffix, blob in cut.items()}
