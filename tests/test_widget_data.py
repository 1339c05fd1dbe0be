"""The query explorer's exported data: the worked example's numbers, worked by hand.

The inputs come from their one source, ``snippets/worked_example.py``; the oracle here
recomputes every step from them with plain Python loops and ``math``.
"""

from __future__ import annotations

import json
import math
import runpy
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import attention_ref
from site_build.widget_data import (
    PRECISION,
    data_files,
    explorer_data,
    worked_example,
)
from site_build.worked_example import read
from testbed.claims import run_snippet

LESSON = read()


def test_worked_example_inputs_are_the_lessons() -> None:
    ex = explorer_data()["worked_example"]
    assert (ex["q"], ex["keys"], ex["values"]) == (LESSON.q, LESSON.keys, LESSON.values)
    assert ex["d_k"] == len(LESSON.q) == len(LESSON.keys[0])
    assert ex["scale"] == pytest.approx(1 / math.sqrt(ex["d_k"]), rel=1e-15)


def test_worked_example_steps_by_hand() -> None:
    ex = worked_example()
    q, keys, values = LESSON.q, LESSON.keys, LESSON.values
    scores = [sum(a * b for a, b in zip(q, k, strict=True)) for k in keys]
    assert ex["scores"] == pytest.approx(scores, rel=1e-15)
    scaled = [s / math.sqrt(len(q)) for s in scores]
    assert ex["scaled"] == pytest.approx(scaled, rel=1e-15)
    e = [math.exp(s) for s in scaled]
    weights = [x / sum(e) for x in e]
    assert ex["weights"] == pytest.approx(weights, rel=1e-12)
    out = [
        sum(w * v[i] for w, v in zip(weights, values, strict=True)) for i in range(len(values[0]))
    ]
    assert ex["output"] == pytest.approx(out, rel=1e-12)


def test_the_widget_starts_from_the_numbers_the_page_prints() -> None:
    """Rounded as the widget shows them, its weights and output are the page's (step 3, step 4)."""
    page = run_snippet("worked_example.py")
    ex = worked_example()
    shown = [round(w, PRECISION["weights"]) for w in ex["weights"]]
    assert shown == page["weights"].round(PRECISION["weights"]).tolist()
    assert [round(x, PRECISION["output"]) for x in ex["output"]] == page["output"].round(
        PRECISION["output"]
    ).tolist()


def test_export_equals_attention_ref() -> None:
    ex = explorer_data()["worked_example"]
    q, k, v = ex["q"], ex["keys"], ex["values"]
    assert ex["scores"] == attention_ref.scores(q, k).tolist()
    assert ex["scaled"] == attention_ref.scaled_scores(q, k).tolist()
    assert ex["weights"] == pytest.approx(attention_ref.attention_weights(q, k).tolist(), abs=1e-15)
    assert ex["output"] == attention_ref.scaled_dot_product_attention(q, k, v).tolist()


def test_json_round_trips_and_is_deterministic() -> None:
    text = data_files()["assets/data/explorer.json"]
    assert text == data_files()["assets/data/explorer.json"]
    assert text.endswith("}\n") and "\n" not in text[:-1]
    assert json.loads(text) == explorer_data()


def test_dk_slider_settings() -> None:
    d = explorer_data()["dk_slider"]
    assert d["d_k"] == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
    assert d["default_d_k"] in d["d_k"]
    assert d["n_keys"] >= 3
    assert 0 <= d["seed"] < 2**32


def test_worked_example_errors_name_the_problem() -> None:
    with pytest.raises(ValueError, match=r"one vector \(d_k,\), got shape \(1, 4\)"):
        worked_example(replace(LESSON, q=[[1, 0, 1, 0]]))
    with pytest.raises(ValueError):
        worked_example(replace(LESSON, q=[1, 0, 1]))  # d_k 3 against keys of width 4


def test_worked_example_is_the_snippets() -> None:
    """The widget starts from the same q, K, V as the page's runnable snippet."""
    snippet = Path(__file__).resolve().parents[1] / "snippets" / "worked_example.py"
    ns = runpy.run_path(str(snippet), run_name="snippet")
    ex = explorer_data()["worked_example"]
    assert ns["q"].tolist() == ex["q"]
    assert ns["K"].tolist() == ex["keys"]
    assert ns["V"].tolist() == ex["values"]


def test_challenges_closest_corner_is_the_closest_point_and_never_exact() -> None:
    """Over a grid of the query box, attention_ref never puts the output on v2, and no
    point gets closer than the exported corner; the doubled weights are sharper."""
    data = explorer_data()
    ch, c = data["challenges"], data["query_controls"]
    keys, values = LESSON.keys, LESSON.values
    axis = np.linspace(c["min"], c["max"], 13)
    grid = np.stack(np.meshgrid(axis, axis, axis, axis, indexing="ij"), axis=-1).reshape(-1, 4)
    out = attention_ref.scaled_dot_product_attention(grid, keys, values)  # (n, 2)
    gaps = np.linalg.norm(out - np.asarray(values[ch["near"]["value"]]), axis=-1)
    best = ch["near"]["closest"]["distance"]
    assert gaps.min() > 0
    assert gaps.min() == pytest.approx(best, abs=1e-12)
    assert 0 < best < ch["near"]["within"]
    assert min(ch["near"]["closest"]["weights"]) > 0
    before, after = ch["double"]["base_weights"], ch["double"]["weights"]
    assert max(after) > max(before)
    assert attention_ref.entropy(np.array(after)) < attention_ref.entropy(np.array(before))
    assert ch["win"] == 2 and ch["near"]["value"] == 1  # k3 and v2 of the lesson
