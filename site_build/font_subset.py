"""KaTeX's fonts cut down to the characters the site's formulas show.

Each KaTeX font holds every glyph TeX may ask of it, while a page of this site shows
about a hundred distinct characters in its formulas. The first screen of a lesson
waits for three of those fonts (KaTeX_Main, KaTeX_Math, KaTeX_AMS: 71 KB of woff2),
and they share the network with the page's stylesheets and scripts. ``hooks/build.py``
calls :func:`site_characters` on the built pages and :func:`subset_woff2` on each
woff2 font, so the site serves fonts that hold exactly the glyphs its formulas can use.

The characters are those of KaTeX's visible HTML (``span.katex-html``), where every
glyph of a typeset formula is a text character, plus what KaTeX's stylesheet writes
itself (:data:`ALWAYS`: equation numbers). The hidden
MathML copy is for screen readers and is not drawn with these fonts. The woff and ttf
files stay whole: a browser that reads woff2 never asks for them.
"""

from __future__ import annotations

import html as html_lib
import io
import re
from collections.abc import Iterable
from pathlib import Path

from site_build.cache import ContentCache, content_key

#: Always kept: what KaTeX's stylesheet writes itself, "(" and ")" around the digits of
#: an equation number (``.eqn-num:before``), and the space.
ALWAYS = frozenset("() 0123456789")

_VISIBLE = re.compile(r'<span class="katex-html"[^>]*>')
_SPAN = re.compile(r"<(/?)span\b[^>]*>")
_TAG = re.compile(r"<[^>]*>")


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
    for start in _VISIBLE.finditer(page):
        depth = 1
        end = len(page)
        for tag in _SPAN.finditer(page, start.end()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                end = tag.start()
                break
        found.update(html_lib.unescape(_TAG.sub("", page[start.end() : end])))
    found.discard("\n")
    return found


def site_characters(pages: Iterable[str]) -> frozenset[str]:
    """The characters every font must keep: those of all pages' formulas, and ASCII.

    Examples
    --------
    >>> chars = site_characters(['<span class="katex-html"><span>&#x221E;</span></span>'])
    >>> "∞" in chars and "7" in chars and "x" not in chars
    True
    """
    found: set[str] = set(ALWAYS)
    for page in pages:
        found |= katex_characters(page)
    return frozenset(found)


def subset_woff2(font: bytes, characters: Iterable[str]) -> bytes:
    """The woff2 font ``font`` with only the glyphs of ``characters`` (and what they use).

    Layout features, hinting and names are kept; the result is the same bytes for the
    same input (no timestamp is rewritten), so two builds of the site are identical.
    A character the font does not have is ignored.
    """
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
    """Each woff2 file of ``fonts``, by file name, cut down to the pages' characters.

    The result is cached by the characters, the fonts' bytes and fontTools' version, so
    a build whose formulas show no new character reuses the last fonts.
    """
    import fontTools

    fonts = sorted(fonts)
    characters = "".join(sorted(site_characters(pages)))
    key = content_key(
        meta={"fontTools": fontTools.version, "flavor": "woff2"},
        files=fonts,
        data=[characters.encode("utf-8")],
    )
    suffixes = ["-" + f.name for f in fonts]
    cached = cache.load("katex-fonts", key, suffixes)
    if cached is None:
        cached = {"-" + f.name: subset_woff2(f.read_bytes(), characters) for f in fonts}
        cache.store("katex-fonts", key, cached)
    return {suffix[1:]: blob for suffix, blob in cached.items()}
