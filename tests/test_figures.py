"""The build's figures: the claims the captions of "why divide by √d_k" make, and how every
figure is built (the figure of every head has its own claims in ``test_heads_figure.py``).

The claims are checked on the very data the figures plot (``spec.compute(**spec.params)``),
so a change to ``attention_ref`` that breaks the scaling, the scores or softmax fails
here. Tolerances come from the sample sizes, not from the values the code happens to give.
"""

from __future__ import annotations

import dataclasses
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import attention_ref as ar
from site_build import drawing as D
from site_build import experiments as E
from site_build import figures as F
from testbed.claims import claim

ROOT = Path(__file__).resolve().parents[1]
PARTIAL = (ROOT / "docs" / "partials" / "figures.md").read_text(encoding="utf-8")
SPECS = {spec.name: spec for spec in F.FIGURES}
# The figures of "why divide by √d_k", shown in docs/partials/figures.md.
SQRT_DK = ("spread", "saturation", "gradient")
SVG_NS = "{http://www.w3.org/2000/svg}"
Saturation = tuple[E.Sweep, E.Sweep]  # the largest weight, the entropy


def data_of(name: str) -> Any:
    spec = SPECS[name]
    return spec.compute(**spec.params)


@pytest.fixture(scope="module")
def spread() -> E.Sweep:
    return data_of("spread")  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def saturation() -> Saturation:
    return data_of("saturation")  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def gradient() -> E.Sweep:
    return data_of("gradient")  # type: ignore[no-any-return]


# ----------------------------------------------------------------- claims of the prose


def test_the_sweep_is_1_to_1024_in_powers_of_two() -> None:
    for spec in (SPECS[name] for name in SQRT_DK):
        assert spec.params["d_ks"] == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]


def test_unscaled_variance_is_d_k_and_scaled_variance_is_1(spread: E.Sweep) -> None:
    # For X = q·k with d standard-normal products: E[X²] = d and E[X⁴] = 3d² + 6d, so the
    # sample variance of n draws has relative standard error sqrt((2 + 6/d) / n).
    # Five standard errors: a correct implementation fails about once in 10⁵ seeds.
    claim(
        "attention.md",
        r"unscaled, on the line \(\operatorname{Var} = d_k\) (the pale band); divided by "
        r"\(\sqrt{d_k}\), at 1 for every width.",
    )
    n = spread.n_samples
    assert n == 4096
    for d, plain, scaled in zip(spread.d_k, spread.unscaled, spread.scaled, strict=True):
        tol = 5 * math.sqrt((2 + 6 / d) / n)
        assert abs(plain / d - 1) < tol, f"d_k={d:.0f}: Var(q·k) = {plain:.3f}, expected ≈ {d:.0f}"
        assert abs(scaled - 1) < tol, f"d_k={d:.0f}: scaled variance {scaled:.3f}, expected ≈ 1"


def test_unscaled_softmax_saturates_as_d_k_grows(saturation: Saturation) -> None:
    claim("attention.md", r"Unscaled, they head for 1 and 0 as \(d_k\) grows")
    largest, entropy = saturation
    top, h = largest.unscaled, entropy.unscaled
    # Means of 512 queries: the standard error is below 0.02, so steps of -0.03 would be real.
    assert np.all(np.diff(top) > -0.03), top
    assert np.all(np.diff(h) < 0.03), h
    assert top[-1] > 0.9, "at d_k = 1024 the largest weight should be close to 1"
    assert h[-1] < 0.25 * math.log(entropy.n_keys), "entropy should fall towards 0"
    assert top[-1] - top[0] > 0.6 and h[0] - h[-1] > 2.0


def test_scaled_softmax_stays_level(saturation: Saturation) -> None:
    largest, entropy = saturation
    top, h = largest.scaled, entropy.scaled
    uniform = math.log(entropy.n_keys)
    assert np.all(top < 0.35) and np.ptp(top) < 0.1, top
    assert np.all(h > 0.8 * uniform) and np.ptp(h) < 0.3, h
    # At d_k = 1 the scale is 1: both curves start from the same point.
    assert top[0] == largest.unscaled[0] and h[0] == entropy.unscaled[0]


def test_gradient_to_non_max_logits_shrinks_without_scaling(gradient: E.Sweep) -> None:
    plain, scaled = gradient.unscaled, gradient.scaled
    assert np.all(np.diff(plain) < 0), plain
    assert plain[-1] < plain[0] / 10
    assert np.all(np.abs(scaled / scaled[0] - 1) < 0.2), scaled


# The alt texts state approximate values: each phrase must be in the partial and true of the data.
ALT_TEXT_CLAIMS = [
    ("reaching about 1000 at width 1024", lambda s, m, g: 900 < s.unscaled[-1] < 1100),
    ("stays at about 1 for every width", lambda s, m, g: np.all(abs(s.scaled - 1) < 0.15)),
    ("climbs from about 0.2 towards 1", lambda s, m, g: 0.15 < m[0].unscaled[0] < 0.25),
    ("falls from about 2.5 towards 0", lambda s, m, g: 2.3 < m[1].unscaled[0] < 2.6),
    ("from about 0.1 to about 0.004", lambda s, m, g: 0.08 < g.unscaled[0] < 0.12),
    ("from about 0.1 to about 0.004", lambda s, m, g: 0.002 < g.unscaled[-1] < 0.006),
    ("With scaling it stays near 0.09", lambda s, m, g: np.all(abs(g.scaled - 0.09) < 0.01)),
]


@pytest.mark.parametrize(("phrase", "holds"), ALT_TEXT_CLAIMS)
def test_alt_text_numbers_match_the_data(
    phrase: str, holds: Any, spread: Any, saturation: Any, gradient: Any
) -> None:
    assert phrase in PARTIAL, f"alt text no longer says {phrase!r}: update this test with it"
    assert holds(spread, saturation, gradient), f"the data no longer supports {phrase!r}"


def test_saturation_alt_text_ranges_are_the_data_rounded(saturation: Saturation) -> None:
    """Issue 30 (h): the alt text's ranges are generated from the figure's data, to 2 decimals.

    From width 2 on (at width 1 dividing by sqrt(1) changes nothing): the smallest and largest
    scaled values, rounded as the alt text writes them, and ln 16 worked out by hand.
    """
    largest, entropy = saturation
    assert largest.d_k[0] == 1 and largest.n_keys == 16
    top, h = largest.scaled[1:], entropy.scaled[1:]
    uniform = math.log(entropy.n_keys)  # 16 equal weights of 1/16: -16 (1/16) ln(1/16)
    assert abs(uniform - 4 * math.log(2)) < 1e-12
    claim("attention.md", r"(in nats: 0 when one key takes all, \(\ln 16\) when all 16 share")
    assert float(ar.entropy(np.eye(16)[3])) == 0.0  # one key takes all
    assert abs(float(ar.entropy(np.full(16, 1 / 16))) - uniform) < 1e-12  # 16 equal shares
    phrases = [
        f"with scaling it stays between {top.min():.2f} and {top.max():.2f} from width 2 on",
        f"with scaling it stays between {h.min():.2f} and {h.max():.2f} from width 2 on, "
        f"below {uniform:.2f}, the value ln 16 of equal weights",
    ]
    for phrase in phrases:
        assert all(phrase in alt for alt in alt_texts("saturation")), phrase
    assert (h < uniform).all()  # never as even as equal weights


def alt_texts(figure: str) -> list[str]:
    found = re.findall(rf"!\[([^\]]+)\]\(figures/{figure}-(?:light|dark)\.svg", PARTIAL)
    assert len(found) == 2, f"{figure}: expected a light and a dark image"
    return found


def test_captions_state_the_parameters_used() -> None:
    claim("attention.md", "The sample variance of 4096 dot products of independent")
    claim("attention.md", "512 random queries, each over 16 random keys.")
    claim(
        "attention.md",
        "of the 15 logits (scores entering the softmax) that are not the largest, over 512 "
        "queries of 16 keys.",
    )
    sections = dict(
        re.findall(r'<figure markdown="span" id="figure-(\w+)">(.*?)</figure>', PARTIAL, re.S)
    )
    assert "4096 dot products" in sections["spread"] and SPECS["spread"].params["n_samples"] == 4096
    for name in ("saturation", "gradient"):
        params = SPECS[name].params
        assert (
            f"{params['n_samples']} " in sections[name] and f"{params['n_keys']} " in sections[name]
        )
    assert f"the {SPECS['gradient'].params['n_keys'] - 1} logits" in sections["gradient"]


# ----------------------------------------------------------- the gradient measure itself


def test_non_max_reach_by_hand() -> None:
    # Column j of diag(p) - p pᵀ has |p_j (1 - p_j)| on the diagonal and p_i p_j elsewhere,
    # total 2 p_j (1 - p_j). For p = (0.5, 0.3, 0.2) the non-max columns give 0.42 and 0.32.
    assert float(E.non_max_reach([0.5, 0.3, 0.2])) == pytest.approx(0.37)
    assert float(E.non_max_reach([0.2, 0.5, 0.3])) == pytest.approx(0.37)


def test_non_max_reach_against_finite_differences() -> None:
    rng = np.random.default_rng(5)
    z = rng.normal(size=(4, 6))  # (rows, n_k) logits
    p = ar.softmax(z)
    eps = 1e-6
    for row in range(z.shape[0]):
        reach = []
        for j in range(z.shape[1]):
            up, down = z[row].copy(), z[row].copy()
            up[j] += eps
            down[j] -= eps
            column = (ar.softmax(up) - ar.softmax(down)) / (2 * eps)  # dp/dz_j
            reach.append(np.abs(column).sum())
        others = [r for j, r in enumerate(reach) if j != int(np.argmax(p[row]))]
        assert float(E.non_max_reach(p[row])) == pytest.approx(np.mean(others), rel=1e-6)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: E.dot_product_spread([], n_samples=10, seed=0), "d_ks"),
        (lambda: E.dot_product_spread([0, 4], n_samples=10, seed=0), "d_ks"),
        (lambda: E.dot_product_spread([4], n_samples=1, seed=0), "n_samples"),
        (lambda: E.softmax_saturation([4], n_keys=1, n_samples=10, seed=0), "n_keys"),
        (lambda: E.gradient_reach([4], n_keys=0, n_samples=10, seed=0), "n_keys"),
        (lambda: E.non_max_reach([1.0]), "at least 2 weights"),
    ],
)
def test_bad_arguments_are_named(call: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


# ------------------------------------------------------------------------- rendering


SMALL = {
    "spread": {"d_ks": [1, 4, 16], "n_samples": 64, "seed": 3},
    "saturation": {"d_ks": [1, 4, 16], "n_keys": 4, "n_samples": 16, "seed": 3},
    "gradient": {"d_ks": [1, 4, 16], "n_keys": 4, "n_samples": 16, "seed": 3},
}


def small(name: str) -> F.FigureSpec:
    return dataclasses.replace(SPECS[name], params=SMALL[name])


def test_two_renders_give_identical_bytes() -> None:
    # Ids, dates and fonts are set once for every figure (rc context, savefig metadata):
    # one figure with two panels, annotations and mathtext is enough to catch a leak.
    assert F.render_svgs(small("saturation")) == F.render_svgs(small("saturation"))


@pytest.fixture(scope="module")
def built() -> Mapping[str, bytes]:
    # The build's own cache: after `make build` these are the very files the site ships
    # (and a cache miss renders them, exactly as the build would).
    return F.build_figures(ROOT / ".cache" / "figures")


def test_every_figure_in_both_themes(built: Mapping[str, bytes]) -> None:
    expected = {f"figures/{name}-{theme}.svg" for name in SPECS for theme in ("light", "dark")}
    assert set(built) == expected


@pytest.mark.parametrize("name", sorted(SPECS))
def test_light_and_dark_differ_and_fill_their_background(
    name: str, built: Mapping[str, bytes]
) -> None:
    light, dark = built[f"figures/{name}-light.svg"], built[f"figures/{name}-dark.svg"]
    assert light != dark
    for svg, theme in ((light, "light"), (dark, "dark")):
        background = D.PALETTES[theme].background  # type: ignore[index]
        assert f"fill: {background}".encode() in svg, f"{name}-{theme}: no opaque background"


@pytest.mark.parametrize("path", [f"figures/{n}-{t}.svg" for n in SPECS for t in ("light", "dark")])
def test_svg_is_valid_xml_with_a_title(path: str, built: Mapping[str, bytes]) -> None:
    root = ET.fromstring(built[path])
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("role") == "img"
    title = root.find(f"{SVG_NS}title")
    name = path.split("/")[1].rsplit("-", 1)[0]
    assert title is not None and title.text == SPECS[name].title
    width, height = (72 * x for x in SPECS[name].figsize)  # 72 pt an inch
    assert (root.get("width"), root.get("height")) == (f"{width:g}pt", f"{height:g}pt")
    assert b"<text" not in built[path], "text must be drawn as paths (svg.fonttype = path)"


def test_rendering_leaves_matplotlib_settings_alone() -> None:
    import matplotlib

    before = dict(matplotlib.rcParams)
    F.render_svgs(small("spread"))
    assert dict(matplotlib.rcParams) == before


# ---------------------------------------------------------------------------- cache


def counting_render() -> tuple[list[str], Any]:
    calls: list[str] = []

    def render(spec: F.FigureSpec) -> dict[D.Theme, bytes]:
        calls.append(spec.name)
        return {"light": b"<svg>light</svg>", "dark": b"<svg>dark</svg>"}

    return calls, render


def test_second_call_is_served_from_the_cache(tmp_path: Path) -> None:
    calls, render = counting_render()
    first = F.build_figures(tmp_path, [small("spread")], render)
    second = F.build_figures(tmp_path, [small("spread")], render)
    assert calls == ["spread"]
    assert (
        first
        == second
        == {
            "figures/spread-light.svg": b"<svg>light</svg>",
            "figures/spread-dark.svg": b"<svg>dark</svg>",
        }
    )


def test_changed_parameters_miss_the_cache_and_replace_the_old_files(tmp_path: Path) -> None:
    calls, render = counting_render()
    spec = small("spread")
    F.build_figures(tmp_path, [spec], render)
    other = dataclasses.replace(spec, params={**spec.params, "seed": 4})
    F.build_figures(tmp_path, [other], render)
    assert calls == ["spread", "spread"]
    assert len(list(tmp_path.glob("spread-*.svg"))) == 2, "one key's light and dark files remain"


def test_cache_key_covers_parameters_title_and_sources(tmp_path: Path) -> None:
    spec = small("gradient")
    key = F.cache_key(spec)
    assert F.cache_key(spec) == key
    assert F.cache_key(dataclasses.replace(spec, params={**spec.params, "n_keys": 5})) != key
    assert F.cache_key(dataclasses.replace(spec, title="another title")) != key
    src = tmp_path / "core.py"
    src.write_text("x = 1\n")
    with_src = dataclasses.replace(spec, sources=(src,))
    src_key = F.cache_key(with_src)
    src.write_text("x = 2\n")
    assert F.cache_key(with_src) != src_key


def test_a_cache_hit_does_not_import_matplotlib(tmp_path: Path) -> None:
    # Filled with stand-in SVGs: what matters is that every figure is found in the cache.
    _, render = counting_render()
    F.build_figures(tmp_path, render=render)
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from site_build.figures import build_figures\n"
        f"svgs = build_figures(Path({str(tmp_path)!r}))\n"
        "print(len(svgs), sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.split(maxsplit=1) == [str(2 * len(F.FIGURES)), "[]\n"]


def test_the_key_reads_attention_ref_and_the_figure_modules() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in F.source_files()}
    modules = ("experiments", "drawing", "heads_figure", "figures")
    figure_modules = {f"site_build/{m}.py" for m in modules}
    assert {"attention_ref/core.py", "attention_ref/stats.py"} | figure_modules <= names


# --------------------------------------------------------------------------- the page


def test_partial_embeds_each_figure_for_both_palettes_with_alt_text_and_caption() -> None:
    for name in SQRT_DK:
        for theme in ("light", "dark"):
            ref = f"](figures/{name}-{theme}.svg#only-{theme})"
            match = re.search(r"!\[([^\]]{40,})" + re.escape(ref), PARTIAL)
            assert match, f"{name}-{theme}: missing, or alt text shorter than 40 characters"
    assert PARTIAL.count("<figcaption") == PARTIAL.count("<figure ") == len(SQRT_DK)


def test_built_lesson_page_embeds_every_figure() -> None:
    page = ROOT / "site" / "attention" / "index.html"
    if not page.is_file():
        pytest.skip("site/ is not built (`make build` builds it before pytest in `make test`)")
    html = page.read_text(encoding="utf-8")
    for name in SQRT_DK:
        for theme in ("light", "dark"):
            assert f'src="../figures/{name}-{theme}.svg#only-{theme}"' in html, (name, theme)
            svg = ROOT / "site" / "figures" / f"{name}-{theme}.svg"
            assert svg.is_file() and svg.read_bytes().startswith(b"<?xml"), svg
