"""The site's one heat scale (``site_build/heat_scale.py``): colours worked out by hand,
the custom properties the widgets read, and bad scales refused.

Oracle: CSS Color 4's HSL to RGB conversion done by hand in the comments (chroma
C = (1 - |2L - 1|) S, X = C (1 - |H/60 mod 2 - 1|), m = L - C/2; for a hue in
[180, 240) the colour is (m, X + m, C + m)), and the built stylesheet read back.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from site_build.bundles import bundle, sources
from site_build.heat_scale import HEAT, HeatScale, css

ROOT = Path(__file__).resolve().parent.parent


def test_colours_by_hand() -> None:
    # hsl(231 48% 97%): C = 0.06 * 0.48 = 0.0288, X = C (1 - |3.85 mod 2 - 1|) = 0.00432,
    # m = 0.9556: (243.7, 244.8, 251.0).
    assert HEAT["light"].rgb(0.0).tolist() == [244, 245, 251]
    # Weight 1/4: lightness 97 + (24 - 97) * sqrt(1/4) = 60.5%; C = (1 - 0.21) 0.48 =
    # 0.3792, X = 0.05688, m = 0.4154: (105.9, 120.4, 202.6).
    assert HEAT["light"].rgb(0.25).tolist() == [106, 120, 203]
    # Weight 1: hsl(231 48% 24%): C = 0.2304, X = 0.03456, m = 0.1248: (31.8, 40.6, 90.6).
    assert HEAT["light"].rgb(1.0).tolist() == [32, 41, 91]
    # hsl(231 42% 17%): C = 0.1428, X = 0.02142, m = 0.0986: (25.1, 30.6, 61.6).
    assert HEAT["dark"].rgb(0.0).tolist() == [25, 31, 62]
    # Out-of-range weights are clipped to the ends.
    assert HEAT["dark"].rgb(-0.5).tolist() == [25, 31, 62]
    assert HEAT["light"].rgb(7.0).tolist() == [32, 41, 91]


def test_more_weight_is_further_from_the_background() -> None:
    w = [i / 1000 for i in range(1001)]
    light = HEAT["light"].lightness(w).tolist()
    dark = HEAT["dark"].lightness(w).tolist()
    assert all(a >= b for a, b in itertools.pairwise(light)), "light: not darker"
    assert all(a <= b for a, b in itertools.pairwise(dark)), "dark: not lighter"
    # Small weights stay apart from 0: 0.05 already moves the lightness by 5 points or more.
    assert abs(light[50] - light[0]) >= 5 and abs(dark[50] - dark[0]) >= 5


def test_the_site_stylesheet_carries_the_scale() -> None:
    built = bundle(sources(ROOT / "docs")).replace(" ", "")
    # esbuild minifies the rules but keeps each property; the dark palette follows the light.
    assert built.index("--heat-one:24%") < built.index("--heat-one:82%")
    light = ("--heat-hue:231", "--heat-sat:48%", "--heat-zero:97%")
    for name in (*light, "--heat-sat:42%", "--heat-zero:17%"):
        assert name in built, name


def test_bad_scales_are_named() -> None:
    percentage = r"HeatScale.saturation must be a percentage in \[0, 100\], got 120"
    with pytest.raises(ValueError, match=percentage):
        HeatScale(hue=231, saturation=120, zero=97, one=24)
    with pytest.raises(ValueError, match=r"HeatScale.hue must be in \[0, 360\) degrees, got 400"):
        HeatScale(hue=400, saturation=48, zero=97, one=24)
    with pytest.raises(ValueError, match="unknown palette 'sepia'"):
        css({"sepia": HEAT["light"]})
