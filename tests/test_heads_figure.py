"""The figure of every head (``docs/partials/heads_figure.md``): its claims and its files.

- The caption's counts equal the counts of ``site_build/heads_figure.py`` and the output
  block under the figure (which Sybil checks against ``snippets/head_roles.py``, an
  independent count written for the reader); the threshold the prose states is the one used.
- Each claim of the alt text and of the note holds for the data.
- Its colours are the site's one heat scale: checked by hand in ``tests/test_heat_scale.py``
  and against the widgets' cells in ``tests/browser/test_heat_scale.py``.
- It is one small raster, drawn the same way twice; in the built site both files exist
  with the size the markup declares, under the page-weight aim.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from site_build import figures as F
from site_build import heads_figure as H
from site_build import heatmap_data as HD
from site_build.drawing import PALETTES
from testbed.claims import cited, claim
from testbed.roles import role_counts

ROOT = Path(__file__).resolve().parents[1]
PARTIAL_PATH = ROOT / "docs" / "partials" / "heads_figure.md"
PARTIAL = PARTIAL_PATH.read_text(encoding="utf-8")
SITE = Path(os.environ.get("SITE_DIR", ROOT / "site"))
SPEC = next(spec for spec in F.FIGURES if spec.name == "heads")
SVG_NS = "{http://www.w3.org/2000/svg}"
MAX_BYTES = 150_000  # page-weight aim for each file
LETTERS = {"C": "special", "P": "previous", "S": "self", "N": "next", "mixed": "mixed"}


@pytest.fixture(scope="module")
def roles() -> dict[str, Any]:
    return H.record_roles(_record())["sentences"]  # type: ignore[no-any-return]


def _record() -> dict[str, Any]:
    return json.loads(HD.DATA_FILE.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def caption() -> str:
    match = re.search(r"<figcaption[^>]*>(.*?)</figcaption>", PARTIAL, re.S)
    assert match, "the partial has no <figcaption>"
    return match[1]


def alt_texts() -> list[str]:
    # The alt text holds brackets of its own ([CLS]): match up to the image's address.
    return re.findall(r"!\[(.+?)\]\(figures/heads-(?:light|dark)\.svg", PARTIAL)


def output_block() -> list[str]:
    match = re.search(r'```text title="Output"\n(.*?)```', PARTIAL, re.S)
    assert match, "the partial has no output block"
    return [line.strip() for line in match[1].strip().splitlines()]


# ------------------------------------------------------------------------- the counts


def test_the_figure_is_of_the_tired_sentence_at_the_contract_threshold() -> None:
    assert SPEC.params == {
        "sentence": "tired",
        "weights_sha256": json.loads(HD.DATA_FILE.read_text())["weights_sha256"],  # the oracle's
    }
    # The figure's roles are head_role's at its default, THRESHOLD (the frames drawn are
    # those of record_roles: test_frames_drawn_match_the_roles).
    assert H.THRESHOLD == 0.5
    assert "at least half of its attention" in caption()
    assert output_block()[0] == "threshold: 0.5 of a head's attention"


def test_caption_quotes_the_sentence_and_counts_its_tokens() -> None:
    [tired] = [s for s in _record()["sentences"] if s["id"] == "tired"]
    text = " ".join(caption().split())
    assert f'"{tired["text"]}"' in text
    assert f"the {len(tired['tokens'])} tokens as queries" in text
    assert "from `[CLS]` to `[SEP]`" in text
    assert tired["tokens"][0] == "[CLS]" and tired["tokens"][-1] == "[SEP]"


def test_caption_counts_match_the_roles(roles: dict[str, Any]) -> None:
    found = re.findall(r"(\d+) (?:heads )?(?:is|are) (C|P|S|N|mixed)\b", caption())
    said = {LETTERS[letter]: int(n) for n, letter in found}
    assert len(found) == len(said) == 5, f"the caption should count each role once: {found}"
    assert said == role_counts(roles["tired"])
    assert sum(said.values()) == 72


def test_output_block_counts_match_the_roles(roles: dict[str, Any]) -> None:
    lines = output_block()
    assert lines[1].split() == ["sentence", "special", "previous", "self", "next", "mixed"]
    rows = {line.split()[0]: [int(x) for x in line.split()[1:]] for line in lines[2:]}
    assert list(rows) == ["tired", "wide"]
    for sentence, counts in rows.items():
        assert counts == list(role_counts(roles[sentence]).values()), sentence


def test_the_snippet_is_included_with_its_output() -> None:
    include = '--8<-- "snippets/head_roles.py:counts"'
    assert PARTIAL.count(include) == 1
    after = PARTIAL.split(include, 1)[1]
    assert re.match(r'\s*```\s*\n\s*```text title="Output"\n', after), "output must follow"


def test_a_c_head_here_is_a_cls_head(roles: dict[str, Any]) -> None:
    """Issue 30 (d): C lumps [CLS] and [SEP]; the caption says which of the two it is here."""
    phrase = "(in every C head here, `[CLS]` holds at least four fifths of that share)"
    assert phrase in " ".join(caption().split())
    grid = H.head_grid("tired")
    assert grid.tokens[0] == "[CLS]" and grid.tokens[-1] == "[SEP]"
    c_heads = [
        (li, hi)
        for li in range(6)
        for hi in range(12)
        if roles["tired"][li][hi]["role"] == "special"
    ]
    assert len(c_heads) == 34
    for li, hi in c_heads:
        rows = grid.weights[li, hi]
        cls, sep = float(rows[:, 0].mean()), float(rows[:, -1].mean())
        assert cls >= 0.8 * (cls + sep), (li + 1, hi + 1)


def test_the_note_cites_where_sinks_were_seen() -> None:
    cited(
        "self-attention.md",
        "Heads that park on one token, attention sinks, are seen in many trained transformers"
        " (Clark et al., 2019; Xiao et al., 2023)",
        "https://arxiv.org/abs/1906.04341",
        "https://arxiv.org/abs/2309.17453",
    )


# ------------------------------------------------------------- claims of alt text and note


def test_both_alt_texts_are_the_same_real_description() -> None:
    light, dark = alt_texts()
    assert light == dark and len(light) > 200


def layer_roles(roles: dict[str, Any], layer: int) -> list[str]:
    """The roles of a layer counted from 1, as the figure labels it."""
    return [head["role"] for head in roles["tired"][layer - 1]]


ALT_CLAIMS = [
    ("6 rows, layers 1 to 6, and 12 columns, heads 1 to 12", lambda r, w: len(r["tired"]) == 6),
    ("the 16 tokens of the sentence", lambda r, w: w.weights.shape == (6, 12, 16, 16)),
    (
        "Layer 1, head 3 is a single sharp line just below the diagonal, framed as mostly the "
        "previous token",
        lambda r, w: layer_roles(r, 1)[2] == "previous" and r["tired"][0][2]["share"] > 0.95,
    ),
    (
        "layer 2, head 9 is a line just above the diagonal, framed as mostly the next token",
        lambda r, w: layer_roles(r, 2)[8] == "next",
    ),
    (
        "in each of those the first column, [CLS], stands out",
        lambda r, w: all(
            w.weights[li, hi, :, 0].mean() > 5 * w.weights[li, hi, :, -1].mean()
            for li in range(6)
            for hi in range(12)
            if r["tired"][li][hi]["role"] == "special"
        ),
    ),
    (
        "The other heads of layer 1 and most heads of layer 6 have no frame",
        lambda r, w: (
            layer_roles(r, 1).count("mixed") == 11 and layer_roles(r, 6).count("mixed") > 6
        ),
    ),
]


@pytest.mark.parametrize(("phrase", "holds"), ALT_CLAIMS, ids=[c[0][:40] for c in ALT_CLAIMS])
def test_alt_text_claims_hold(phrase: str, holds: Any, roles: dict[str, Any]) -> None:
    assert all(phrase in alt for alt in alt_texts()), f"alt text no longer says {phrase!r}"
    assert holds(roles, H.head_grid("tired")), f"the data no longer supports {phrase!r}"


def test_the_alt_text_counts_c_heads_per_layer_from_the_data(roles: dict[str, Any]) -> None:
    """Issue 30 (i): the per-layer C counts of the alt text, generated from the roles."""
    counts = [layer_roles(roles, li).count("special") for li in range(2, 7)]
    *head, last = (str(c) for c in counts)
    phrase = f"In layers 2 to 6, {', '.join(head)} and {last} of the 12 heads are framed as mostly"
    assert all(phrase in alt for alt in alt_texts()), f"alt text should say {phrase!r}"
    assert layer_roles(roles, 1).count("special") == 0  # hence "2 to 6"
    # An independent count: a head is C when its rows give [CLS] + [SEP] half on average.
    grid = H.head_grid("tired")
    by_hand = [
        sum(
            float((grid.weights[li - 1, hi, :, 0] + grid.weights[li - 1, hi, :, -1]).mean()) >= 0.5
            for hi in range(12)
        )
        for li in range(2, 7)
    ]
    assert by_hand == counts


def test_the_two_sentences_differ_in_a_few_heads_near_the_threshold(
    roles: dict[str, Any],
) -> None:
    assert "changes the role of only a few heads, each of them near the threshold" in " ".join(
        PARTIAL.split()
    )
    moved = [
        (a, b)
        for layer_a, layer_b in zip(roles["tired"], roles["wide"], strict=True)
        for a, b in zip(layer_a, layer_b, strict=True)
        if a["role"] != b["role"]
    ]
    assert 0 < len(moved) <= 6, moved
    for a, b in moved:
        assert {a["role"], b["role"]} == {"special", "mixed"}, (a, b)
        # Near the threshold: within a fifth of it, in both sentences.
        assert abs(a["share"] - 0.5) < 0.1 and abs(b["share"] - 0.5) < 0.1, (a, b)


# ------------------------------------------------------------------------ the files


@pytest.fixture(scope="module")
def svgs() -> dict[str, bytes]:
    built = F.build_figures(ROOT / ".cache" / "figures", [SPEC])
    return {theme: built[f"figures/heads-{theme}.svg"] for theme in ("light", "dark")}


def declared_size() -> tuple[int, int]:
    sizes = set(
        re.findall(
            r'heads-(?:light|dark)\.svg#only-\w+\)\{ width="(\d+)" '
            r'height="(\d+)" loading="lazy" \}',
            PARTIAL,
        )
    )
    assert len(sizes) == 1, f"both images need the same width, height and lazy loading: {sizes}"
    width, height = sizes.pop()
    return int(width), int(height)


def test_markup_size_is_the_figure_size() -> None:
    width, height = (96 * x for x in SPEC.figsize)  # 96 CSS px an inch
    assert declared_size() == (width, height)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_one_small_raster_with_its_title(theme: str, svgs: dict[str, bytes]) -> None:
    svg = svgs[theme]
    assert len(svg) < MAX_BYTES, f"heads-{theme}.svg weighs {len(svg)} bytes"
    root = ET.fromstring(svg)
    assert root.get("role") == "img"
    title = root.find(f"{SVG_NS}title")
    assert title is not None and title.text == SPEC.title
    images = root.findall(f".//{SVG_NS}image")
    assert len(images) == 1, "all 72 heads are one image"
    # One pixel a weight: 12 heads of 16 across with 11 gaps, 6 rows of 16 with a gap each.
    cols, rows = 12 * 16 + 11 * H._GAP_X, 6 * (16 + H._GAP_Y)
    assert (images[0].get("width"), images[0].get("height")) == (str(cols), str(rows))
    assert b"<text" not in svg


def test_drawn_the_same_in_another_process() -> None:
    """Byte for byte, in a process with another hash seed (set and dict order, ids)."""
    here = {
        str(theme): hashlib.sha256(svg).hexdigest() for theme, svg in F.render_svgs(SPEC).items()
    }
    code = (
        "import hashlib, json, sys; from site_build import figures as F; "
        "s = next(f for f in F.FIGURES if f.name == 'heads'); "
        "json.dump({str(t): hashlib.sha256(v).hexdigest() for t, v in F.render_svgs(s).items()}, "
        "sys.stdout)"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == here
    assert len(here) == 2


def test_built_site_has_both_files_at_the_declared_size() -> None:
    if not (SITE / "index.html").is_file():
        pytest.skip(f"{SITE.name}/ is not built (`make build` builds it before pytest)")
    width, height = declared_size()
    for theme in ("light", "dark"):
        path = SITE / "figures" / f"heads-{theme}.svg"
        assert path.is_file(), path
        assert path.stat().st_size < MAX_BYTES, (path, path.stat().st_size)
        root = ET.fromstring(path.read_bytes())
        # The SVG is sized in pt: 3 pt are 4 CSS px.
        assert (root.get("width"), root.get("height")) == (
            f"{width * 3 / 4:g}pt",
            f"{height * 3 / 4:g}pt",
        )


def test_built_pages_that_include_the_partial_embed_both_figures() -> None:
    if not (SITE / "index.html").is_file():
        pytest.skip(f"{SITE.name}/ is not built (`make build` builds it before pytest)")
    docs = ROOT / "docs"
    pages = [
        p
        for p in docs.rglob("*.md")
        if "partials/heads_figure.md" in p.read_text(encoding="utf-8")
        and p.relative_to(docs).parts[0] not in {"partials", "overrides"}
    ]
    assert pages, "no page includes docs/partials/heads_figure.md"
    width, height = declared_size()
    for page in pages:
        built = SITE / page.relative_to(docs).with_suffix("") / "index.html"
        html = built.read_text(encoding="utf-8")
        for theme in ("light", "dark"):
            img = re.search(
                rf'<img [^>]*src="[./]*figures/heads-{theme}\.svg#only-{theme}"[^>]*>', html
            )
            assert img, (page, theme)
            for attr in (f'width="{width}"', f'height="{height}"', 'loading="lazy"', "alt="):
                assert attr in img[0], (page, theme, attr)


def test_the_key_follows_the_data_and_the_role_rules() -> None:
    # A source's bytes enter a figure's key (test_figures.py's key test): these sources.
    names = {p.relative_to(ROOT).as_posix() for p in SPEC.sources}
    assert names == {"site_build/heatmap_data.py", "attention_ref/head_roles.py"}
    # the data is computed by attention_ref (in every figure's key) from these weights
    assert SPEC.params["weights_sha256"] == HD.installed_weights_sha256()
    other = dict(SPEC.params, weights_sha256="0" * 64)
    assert F.cache_key(dataclasses.replace(SPEC, params=other)) != F.cache_key(SPEC)
    assert F.cache_key(dataclasses.replace(SPEC, figsize=(6.75, 5.25))) != F.cache_key(SPEC)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_frames_drawn_match_the_roles(
    theme: str, svgs: dict[str, bytes], roles: dict[str, Any]
) -> None:
    """Each role's frames (width 1.6, its colour) are as many as its heads, plus the two
    strokes of its legend marker; mixed heads get the thin grey frame (width 0.7)."""
    svg = svgs[theme].decode()
    pal = PALETTES[theme]

    def strokes(colour: str, width: str) -> int:
        return svg.count(f"stroke: {colour}; stroke-width: {width}")

    heads = [head["role"] for layer in roles["tired"] for head in layer]
    for role, colour in zip(("special", "previous", "self", "next"), pal.roles, strict=True):
        assert strokes(colour, "1.6") - 2 == heads.count(role), role
    assert strokes(pal.grid, "0.7") - 2 == heads.count("mixed")


def test_the_caption_counts_the_heads_of_each_role(roles: dict[str, Any]) -> None:
    """The caption's counts per letter, and the 16 tokens of its rows, from the data."""
    from collections import Counter

    claim("self-attention.md", "Here 34 heads are C, 1 is P, 0 are S, 1 is N and 36 are mixed.")
    claim("self-attention.md", "rows are the 16 tokens as queries, columns the same tokens")
    counted = Counter(head["role"] for layer in roles["tired"] for head in layer)
    said = {"special": 34, "previous": 1, "self": 0, "next": 1, "mixed": 36}
    assert {role: counted[role] for role in said} == said
    assert sum(counted.values()) == 72, counted
    assert len(H.head_grid("tired").tokens) == 16
