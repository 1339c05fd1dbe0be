"""The query explorer's exported data: the worked example's numbers, worked by hand."""

from __future__ import annotations

import json
import math
import runpy
from pathlib import Path

import numpy as np
import pytest

import attention_ref
from site_build.widget_data import (
    WORKED_KEYS,
    WORKED_VALUES,
    dk_choices,
    explorer_data,
    explorer_json,
    worked_example,
)


def test_worked_example_inputs_are_the_lessons() -> None:
    ex = explorer_data()["worked_example"]
    assert ex["q"] == [1, 0, 1, 0]
    assert ex["keys"] == [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]]
    assert ex["values"] == [[10, 0], [0, 5], [2, 2]]
    assert ex["d_k"] == 4
    assert ex["scale"] == 0.5


def test_worked_example_steps_by_hand() -> None:
    ex = worked_example()
    assert ex["scores"] == [2.0, 0.0, 1.0]  # 1+1, 0, 1
    assert ex["scaled"] == [1.0, 0.0, 0.5]  # divided by sqrt(4) = 2
    e = [math.e, 1.0, math.sqrt(math.e)]  # exp(1), exp(0), exp(0.5)
    total = sum(e)
    assert ex["weights"] == pytest.approx([x / total for x in e], rel=1e-12)
    assert [round(w, 3) for w in ex["weights"]] == [0.506, 0.186, 0.307]
    expected_out = [10 * e[0] / total + 2 * e[2] / total, 5 * e[1] / total + 2 * e[2] / total]
    assert ex["output"] == pytest.approx(expected_out, rel=1e-12)
    assert [round(x, 2) for x in ex["output"]] == [5.68, 1.55]


def test_export_equals_attention_ref() -> None:
    ex = explorer_data()["worked_example"]
    q, k, v = ex["q"], ex["keys"], ex["values"]
    assert ex["scores"] == attention_ref.scores(q, k).tolist()
    assert ex["scaled"] == attention_ref.scaled_scores(q, k).tolist()
    assert ex["weights"] == pytest.approx(attention_ref.attention_weights(q, k).tolist(), abs=1e-15)
    assert ex["output"] == attention_ref.scaled_dot_product_attention(q, k, v).tolist()


def test_json_round_trips_and_is_deterministic() -> None:
    text = explorer_json()
    assert text == explorer_json()
    assert text.endswith("}\n") and "\n" not in text[:-1]
    assert json.loads(text) == explorer_data()


def test_dk_slider_settings() -> None:
    d = explorer_data()["dk_slider"]
    assert d["d_k"] == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
    assert d["default_d_k"] in d["d_k"]
    assert d["n_keys"] >= 3
    assert 0 <= d["seed"] < 2**32


@pytest.mark.parametrize("low, high", [(0, 4), (3, 8), (1, 1000), (8, 4), (1.0, 4)])
def test_dk_choices_rejects_bad_stops(low: int, high: int) -> None:
    with pytest.raises(ValueError, match="powers of two"):
        dk_choices(low, high)


def test_dk_choices() -> None:
    assert dk_choices(4, 4) == [4]
    assert dk_choices(2, 32) == [2, 4, 8, 16, 32]


def test_worked_example_errors_name_the_problem() -> None:
    with pytest.raises(ValueError, match=r"one vector \(d_k,\), got shape \(1, 4\)"):
        worked_example(q=[[1, 0, 1, 0]])
    with pytest.raises(ValueError):
        worked_example(q=[1, 0, 1])  # d_k 3 against keys of width 4


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
    keys, values = WORKED_KEYS, WORKED_VALUES
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
