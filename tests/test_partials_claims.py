"""The claims of the home page and of the partials the lessons include, on the pages as rendered.

A partial is tested through a page that includes it (``claim`` searches the page with
its includes expanded). The facts are recomputed from the committed model data
(``data/it_attention.json``), from ``attention_ref`` or from the built site. The
figures' captions and alt texts have their own claim tests (``test_figures.py``,
``test_heads_figure.py``), and so does the data behind the heatmap's note
(``test_heatmap_data.py``); here each sentence is also required to be on the page.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_ref import attention_weights
from site_build.site import LESSONS
from site_build.worked_example import as_floats, read
from testbed.claims import claim, page_text, run_snippet
from tests.test_heatmap_data import default_head_py, weights

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "it_attention.json"
LESSON_1, LESSON_2, HOME = "attention.md", "self-attention.md", "index.md"
# Every lesson's page includes the practice introduction (through its practice partial);
# written out so that tests/test_numerals.py can read the claims made on each.
PRACTICE_PAGES = (
    "tokens.md",
    "attention.md",
    "self-attention.md",
    "transformer-block.md",
    "training.md",
    "scale.md",
)


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


# --- docs/partials/heatmap.md and the sentences around it on lesson 1 -----------------------


def test_the_model_has_6_layers_of_12_heads(record: dict[str, Any]) -> None:
    claim(LESSON_1, "all-MiniLM-L6-v2, with 6 layers of 12 heads each")
    claim(LESSON_1, "puts the most weight on animal, out of all 72 heads")
    assert (record["layers"], record["heads"]) == (6, 12)
    tired = weights(record, 0)  # (layers, heads, n, n)
    assert tired.shape[:2] == (6, 12) and tired.shape[0] * tired.shape[1] == 72


def test_didnt_is_three_pieces_and_rows_add_up_to_one(record: dict[str, Any]) -> None:
    claim(LESSON_1, 'its tokenizer cuts "didn\'t" into three pieces and wraps the sentence in two')
    claim(LESSON_1, "and every row adds up to 1")
    tokens = record["sentences"][0]["tokens"]
    assert tokens[tokens.index("didn") : tokens.index("didn") + 3] == ["didn", "'", "t"]
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"
    np.testing.assert_allclose(weights(record, 0).sum(axis=-1), 1, atol=1e-3)  # 4 decimals


def test_in_the_default_head_animal_wins_over_the_nearer_street(record: dict[str, Any]) -> None:
    """Issue 30 (e): the head prefers animal, but wide shows it does not follow the referent."""
    claim(LESSON_1, "the head whose it row puts the most weight on animal")
    claim(LESSON_1, "Notice that street sits much closer to it in the sentence than animal does")
    claim(LESSON_1, "yet this head gives animal far more: it does not match by nearness.")
    claim(
        LESSON_1,
        "That alone does not show it follows what it refers to: with wide, the head still"
        " prefers animal (the second caution below the grid).",
    )
    claim(LESSON_1, "Switch the last word from tired to wide, which makes a human read it as the")
    tokens = record["sentences"][0]["tokens"]
    it, animal, street = (tokens.index(t) for t in ("it", "animal", "street"))
    layer, head = default_head_py(record)
    wide = weights(record, 1)[layer, head, it]
    assert record["sentences"][1]["tokens"][-3] == "wide"
    assert wide[animal] > 2 * wide[street]  # still prefers animal, by more than twice
    tokens = record["sentences"][0]["tokens"]
    it, animal, street = (tokens.index(t) for t in ("it", "animal", "street"))
    layer, head = default_head_py(record)
    row = weights(record, 0)[layer, head, it]
    assert row.argmax() == animal and row[animal] > 0.5  # the rest share under half
    assert np.delete(row, animal).max() < row[animal] / 3
    assert abs(street - it) < abs(animal - it)  # street is the nearer


def test_wide_moves_weight_from_animal_mostly_to_cls(record: dict[str, Any]) -> None:
    claim(
        LESSON_1, "In the default head, wide moves weight from animal to street, yet animal still"
    )
    claim(LESSON_1, "gets more than street, and most of what animal loses goes to [CLS]")
    tokens = record["sentences"][0]["tokens"]
    it, animal, street, cls = (tokens.index(t) for t in ("it", "animal", "street", "[CLS]"))
    layer, head = default_head_py(record)
    a, b = weights(record, 0)[layer, head, it], weights(record, 1)[layer, head, it]
    assert b[animal] < a[animal] and b[street] > a[street] and b[animal] > b[street]
    gains = b - a
    assert gains.argmax() == cls and gains[cls] > (a[animal] - b[animal]) / 2


def token_shares(record: dict[str, Any], sentence: int, token: str) -> np.ndarray:
    """(layers, heads): each head's weight on ``token``, averaged over its rows, by a loop."""
    s = record["sentences"][sentence]
    j = s["tokens"].index(token)
    out = np.zeros((record["layers"], record["heads"]))
    for layer, heads in enumerate(s["attention"]):
        for head, rows in enumerate(heads):
            out[layer, head] = sum(row[j] for row in rows) / len(rows) / record["scale"]
    return out


def test_the_sink_is_cls_not_sep_or_the_full_stop(record: dict[str, Any]) -> None:
    """Issue 30 (d): which token is the sink, counted on the course sentence."""
    claim(LESSON_1, "Many park their weight on [CLS], a way for a head to")
    claim(LESSON_1, "a token used so is called an attention sink")
    claim(
        LESSON_1,
        "on this sentence, 32 of the 72 heads give [CLS] at least half of their weight, averaged"
        " over their rows, while no head gives [SEP] a seventh or the full stop a third.",
    )
    claim(LESSON_1, "and only a few link it with animal")
    cls, sep, stop = (token_shares(record, 0, t) for t in ("[CLS]", "[SEP]", "."))
    assert int((cls >= 0.5).sum()) == 32 and cls.size == 72
    assert sep.max() < 1 / 7 and stop.max() < 1 / 3
    assert (sep < 0.5).all() and (stop < 0.5).all()  # neither is any head's sink
    tokens = record["sentences"][0]["tokens"]
    strongest = weights(record, 0)[:, :, tokens.index("it")].argmax(axis=-1)  # (layers, heads)
    assert 1 <= int((strongest == tokens.index("animal")).sum()) <= 3


# --- docs/partials/explorer.md --------------------------------------------------------------


def test_the_output_stays_in_the_triangle_of_the_values() -> None:
    claim(LESSON_1, "Since the weights are positive and add up to 1, the output can never leave")
    claim(LESSON_1, "the triangle the values span")
    rng = np.random.default_rng(seed=5)
    _, keys, values = as_floats(read())  # the explorer's: the worked example's
    assert len(keys) == len(values) == 3  # three values span a triangle
    for q in rng.normal(scale=4, size=(200, keys.shape[1])):
        w = attention_weights(q, keys)
        assert (w > 0).all() and w.sum() == pytest.approx(1)  # barycentric coordinates


# --- the practice partials ------------------------------------------------------------------


def test_step_one_quotes_the_worked_examples_dot_product() -> None:
    """The sentence quotes q, k_1 and their dot product: all three from the one source."""
    claim(LESSON_1, "It is how a query meets a key: in the worked example, dot(")
    said = re.search(
        r"in the worked example, dot\((\[[^\]]*\]), (\[[^\]]*\])\) is (-?[\d.]+)\.",
        page_text(LESSON_1),
    )
    assert said, "step 1 no longer quotes a dot product of the worked example"
    example = read()
    q, k_1 = example.q, example.keys[0]
    dot = sum(a * b for a, b in zip(q, k_1, strict=True))  # by hand
    quoted = (json.loads(said[1]), json.loads(said[2]), float(said[3]))
    assert quoted == (q, k_1, dot), (
        f"step 1 says dot({said[1]}, {said[2]}) is {said[3]}; the worked example's q and "
        f"k_1 are {q} and {k_1}, whose dot product is {dot:g}"
    )
    claim(LESSON_1, f"in the worked example, dot({json.dumps(q)}, {json.dumps(k_1)}) is {dot:g}.")


def test_steps_6_and_7_have_a_case_with_scores_in_the_thousands() -> None:
    claim(LESSON_1, "One case has scores in the thousands.")
    import sys

    sys.path.insert(0, str(ROOT / "snippets" / "practice"))
    import _harness as h

    for step in ("06_causal", "07_many_queries"):
        checks = h.load_step(ROOT / "snippets" / "practice" / "attention" / step / "checks.py")
        cases = checks.cases()
        raw = [np.abs(np.asarray(c.args[0]) @ np.asarray(c.args[1]).T).max() for c in cases]
        assert max(raw) >= 1000, f"{step}: the largest raw score is {max(raw)}"
        assert sum(x >= 1000 for x in raw) == 1, step  # one such case


def test_math_exp_1000_overflows() -> None:
    claim(LESSON_1, "math.exp(1000) raises OverflowError")
    with pytest.raises(OverflowError):
        math.exp(1000)


def test_the_interpreter_is_about_12_mb() -> None:
    assert PRACTICE_PAGES == tuple(lesson.source for lesson in LESSONS), (
        "PRACTICE_PAGES must list every lesson's page, as site_build/site.py does"
    )
    for page in PRACTICE_PAGES:
        claim(page, "Pyodide, about 12 MB, from this site")
    folder = ROOT / "site" / "vendor" / "pyodide"
    if not folder.is_dir():
        pytest.skip("the site is not built (make build): the vendored interpreter is not there")
    size = sum(f.stat().st_size for f in folder.iterdir() if f.is_file())
    assert 11.5e6 <= size < 12.5e6, f"the interpreter's files weigh {size / 1e6:.1f} MB"


def test_help_comes_in_the_tiers_the_practice_code_offers() -> None:
    """The count and the order of the tiers, as the practice module defines them."""
    sentence = (
        "help comes in three tiers, each when you ask: a nudge, then the failing call with "
        "your answer and the expected one, then a solution"
    )
    claim(LESSON_1, sentence)
    claim(LESSON_2, sentence)
    node = shutil.which("node")
    assert node, "node is needed (make install puts the npm tools in place)"
    lib = (ROOT / "docs" / "javascripts" / "practice" / "lib.js").as_uri()
    script = f"import {{ TIERS }} from {json.dumps(lib)}; console.log(JSON.stringify(TIERS));"
    out = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    tiers = json.loads(out.stdout)
    assert len(tiers) == 3 and tiers[0] == "a nudge" and tiers[-1] == "a solution"
    assert tiers[1] in sentence  # "the failing call"
    assert sentence.index(tiers[0]) < sentence.index(tiers[1]) < sentence.index(tiers[2])


# --- docs/partials/heads_widget.md (lesson 2) -----------------------------------------------


def test_each_layer_has_twelve_heads(record: dict[str, Any]) -> None:
    claim(LESSON_2, "pick a layer to see its twelve heads side by side")
    assert record["heads"] == 12


# --- the home page --------------------------------------------------------------------------


def test_home_page_claims(record: dict[str, Any]) -> None:
    claim(HOME, "the twelve heads of a real model's layer side by side")
    claim(HOME, "Here is the whole worked example of the lesson in one call")
    assert record["heads"] == 12
    # "the whole worked example ... in one call": the one call gives the step-by-step answer.
    ran = run_snippet("worked_example.py")
    np.testing.assert_allclose(ran["same"], ran["contributions"].sum(axis=0), rtol=1e-12)


def test_home_page_says_the_output_would_stop_matching() -> None:
    # The mechanism itself (a changed answer fails its Output block) is proved by
    # tests/test_sybil_docs.py::test_output_block_must_match_what_the_code_prints.
    claim(HOME, "If a change to the code moves that answer, the output above no longer matches")
    ran = run_snippet("worked_example.py")
    shown = '```text title="Output"\n' + str(ran["same"].round(2).tolist()) + "\n```"
    assert shown in (ROOT / "docs" / "index.md").read_text(encoding="utf-8")  # that answer
