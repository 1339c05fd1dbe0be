"""One numbering: layers and heads are counted from 1 wherever a reader sees them.

Issue 30. The widgets label layer ``i`` and head ``j`` of the arrays as ``i + 1`` and
``j + 1`` (``heatmap-widget.js``, ``heads-widget.js``); the heads figure says so in its
caption. This file finds every "layer N, head M" a reader can see, on every page as
rendered (prose, alt texts, Output blocks) and, once built, in the site's HTML, and
checks each against what it names, recomputed from the committed data with the
widget's own rule (array index + 1). Code indexes from 0: where a page shows an index,
it says so beside it (``attentions[3, 1] in the code``).
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from site_build import site
from site_build.heads_figure import record_roles
from testbed.claims import page_html, page_text

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "it_attention.json"
SITE = Path(os.environ.get("SITE_DIR", ROOT / "site"))
# The pages (partials are read through them); the notebook's text is checked built.
PAGES = [page.source for page in site.PAGES if not page.is_notebook]
LAYER_HEAD = re.compile(r"(?i)(?<![a-z_\[])layer (\d+), head (\d+)")
ZERO = re.compile(r"(?i)(?<![a-z_\[])(?:layer|head) 0\b")


def _record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def named_heads() -> dict[tuple[int, int], str]:
    """The heads the course names, counted from 1, each recomputed from the data."""
    record = _record()
    tired = record["sentences"][0]
    it, animal = tired["tokens"].index("it"), tired["tokens"].index("animal")
    best = max(
        ((li, hi) for li in range(record["layers"]) for hi in range(record["heads"])),
        key=lambda lh: tired["attention"][lh[0]][lh[1]][it][animal],
    )
    roles = record_roles(record)["sentences"]["tired"]
    found = {(best[0] + 1, best[1] + 1): "the head where it gives animal the most weight"}
    for li, layer in enumerate(roles):
        for hi, head in enumerate(layer):
            if head["role"] in ("previous", "next"):
                found[(li + 1, hi + 1)] = f"the {head['role']}-token head"
    return found


def mentions(text: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in LAYER_HEAD.findall(text)]


def seen_text(page: str) -> str:
    """What a reader can see of a page: its text, and its images' alt texts."""
    alts = re.findall(r'alt="([^"]*)"', page_html(page))
    return " ".join([page_text(page), *(html.unescape(a) for a in alts)])


def test_the_widgets_number_from_one() -> None:
    lib = ROOT / "docs" / "javascripts" / "lib"
    heatmap = (lib / "heatmap-widget.js").read_text(encoding="utf-8")
    heads = (lib / "heads-widget.js").read_text(encoding="utf-8")
    assert "layer ${state.layer + 1}, head ${" in heatmap and "state.head + 1" in heatmap
    assert "layer ${dflt.layer + 1}, head ${dflt.head + 1}" in heatmap
    assert "`Head ${head + 1}`" in heads and "String(state.layer + 1)" in heads


@pytest.mark.parametrize("page", PAGES)
def test_every_layer_and_head_on_a_page_is_counted_from_one(page: str) -> None:
    text = seen_text(page)
    named = named_heads()
    for layer, head in mentions(text):
        assert 1 <= layer <= 6 and 1 <= head <= 12, f"{page}: layer {layer}, head {head}"
        assert (layer, head) in named, (
            f"{page} names layer {layer}, head {head}, which is none of the heads the course "
            f"names ({named}): counted from 0? If it is a new head, add what it is here"
        )
    assert not ZERO.findall(text), f"{page}: a layer or head counted from 0: {ZERO.findall(text)}"


def test_the_named_heads_are_where_the_pages_say() -> None:
    """Each head the pages name, with what the page says of it, is the recomputed one."""
    named = named_heads()
    assert named[(4, 2)].startswith("the head where it gives animal")
    assert named[(1, 3)] == "the previous-token head" and named[(2, 9)] == "the next-token head"
    said = seen_text("self-attention.md")
    assert "Layer 1, head 3 is a single sharp line just below the diagonal" in said
    assert "layer 2, head 9 is a line just above the diagonal" in said
    block = page_text("transformer-block.md")
    assert "layer 4, head 2 (attentions[3, 1] in the code)" in block
    # The array index shown beside it is the head's index from 0.
    record = _record()
    tired = record["sentences"][0]
    weights = np.asarray(tired["attention"])[:, :, tired["tokens"].index("it")]
    flat = weights[:, :, tired["tokens"].index("animal")]
    assert np.unravel_index(flat.argmax(), flat.shape) == (3, 1)
    total = sum(len(mentions(seen_text(p))) for p in PAGES)
    assert total >= 4, "the pages name fewer heads than this test knows: update it"


def test_the_built_site_counts_from_one() -> None:
    pages = sorted(SITE.rglob("*.html")) if SITE.is_dir() else []
    if not pages:
        pytest.skip(f"{SITE.name}/ is not built (make build): the built pages are not there")
    named = named_heads()
    seen = 0
    for path in pages:
        raw = path.read_text(encoding="utf-8", errors="replace")
        text = html.unescape(re.sub(r"<[^>]+>", " ", raw)) + " ".join(
            html.unescape(a) for a in re.findall(r'alt="([^"]*)"', raw)
        )
        text = " ".join(text.split())
        for layer, head in mentions(text):
            assert (layer, head) in named, f"{path.relative_to(SITE)}: layer {layer}, head {head}"
            seen += 1
        assert not ZERO.findall(text), f"{path.relative_to(SITE)}: {ZERO.findall(text)}"
    assert seen >= 4
