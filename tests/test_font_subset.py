"""site_build.katex_render's font subsets: a cut-down font keeps exactly the glyphs asked for.

Oracle: fontTools reading KaTeX's own woff2 files from node_modules (their character
maps), and characters picked by hand. The browser side (every formula drawn with the
same fonts as with the whole fonts) is tests/browser/test_katex_fonts.py.
"""

from __future__ import annotations

import io
from pathlib import Path

from fontTools.ttLib import TTFont

from site_build.cache import ContentCache
from site_build.katex_render import katex_characters, subset_fonts, subset_woff2

FONTS = Path(__file__).resolve().parents[1] / "node_modules" / "katex" / "dist" / "fonts"
MAIN = FONTS / "KaTeX_Main-Regular.woff2"


def cmap(font: bytes) -> set[str]:
    return {chr(c) for c in TTFont(io.BytesIO(font)).getBestCmap()}


def test_a_subset_maps_the_characters_asked_for_that_the_font_has() -> None:
    whole = MAIN.read_bytes()
    # "∑" is drawn from KaTeX_Size1/2, not KaTeX_Main, and KaTeX has no CJK at all.
    asked = set("=+()∈∞x∑") | {"\u4e00"}
    assert asked & cmap(whole) == set("=+()∈∞x")
    cut = subset_woff2(whole, asked)
    # Kept: every one of those, and besides them only what fontTools' closure of their
    # glyphs brings along (here one character, "∋").
    assert set("=+()∈∞x") <= cmap(cut) <= set("=+()∈∞x∋")
    assert len(cut) < len(whole) / 4


def test_a_subset_is_the_same_bytes_every_time() -> None:
    whole = MAIN.read_bytes()
    assert subset_woff2(whole, "abc=") == subset_woff2(whole, "=cba")


def test_characters_come_from_the_visible_formula_only() -> None:
    page = (
        '<span class="katex"><span class="katex-mathml"><math><mi>z</mi></math></span>'
        '<span class="katex-html" aria-hidden="true"><span class="base">'
        '<span class="mord">a<span class="msupsub"><span>&amp;</span></span></span>'
        "</span></span></span><p>b</p>"
        '<span class="katex-html"><span>&#x2211;</span></span>'
    )
    assert katex_characters(page) == {"a", "&", "∑"}


def test_fonts_are_cut_once_and_then_read_from_the_cache(tmp_path: Path) -> None:
    cache = ContentCache(tmp_path)
    page = '<span class="katex-html"><span>∈</span></span>'
    first = subset_fonts([page], [MAIN], cache)
    assert list(first) == [MAIN.name] and set("∈() 0123456789") <= cmap(first[MAIN.name])
    assert len(cmap(first[MAIN.name])) < 20
    stored = cache.entries("katex-fonts")
    assert len(stored) == 1
    stored[0].write_bytes(b"marked")  # a second call with the same input reads this
    assert subset_fonts([page], [MAIN], cache) == {MAIN.name: b"marked"}
    other = subset_fonts(['<span class="katex-html"><span>∞</span></span>'], [MAIN], cache)
    assert "∞" in cmap(other[MAIN.name]) and len(cache.entries("katex-fonts")) == 1
