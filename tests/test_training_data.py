"""The training widget's data (site_build/widget_data.py) against the committed record.

Oracle: ``data/induction_run.json`` itself, read here with numpy: the widget's ragged
rows, padded back with zeros, must be the record's maps entry for entry, and its losses
and steps the record's. Its scores are checked in the browser
(tests/browser/test_training_widget.py).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from attention_ref.induction import spell
from site_build.widget_data import RUN_JSON, causal_rows, data_files, symbol, training_data

RECORD = json.loads(RUN_JSON.read_text(encoding="utf-8"))


def padded(rows: list[list[int]]) -> np.ndarray:
    n = len(rows)
    out = np.zeros((n, n), dtype=np.int64)
    for i, row in enumerate(rows):
        out[i, : len(row)] = row
    return out


def test_the_maps_are_the_records_maps_cut_to_their_causal_rows() -> None:
    data = training_data()
    full = np.array([c["attention"] for c in RECORD["checkpoints"]])  # (40, 2, 4, 16, 16)
    assert full.shape[0] == len(data["attention"]) == 40
    for at, layers in enumerate(data["attention"]):
        for layer, heads in enumerate(layers):
            for head, rows in enumerate(heads):
                assert [len(r) for r in rows] == list(range(1, full.shape[-1] + 1))
                np.testing.assert_array_equal(padded(rows), full[at, layer, head])
    # Each row of thousandths sums to about 1000 (rounding each weight moves it a little).
    sums = full.sum(axis=-1)
    assert np.abs(sums - RECORD["attention_scale"]).max() <= full.shape[-1] // 2


def test_steps_losses_and_tokens_are_the_records() -> None:
    data = training_data()
    points = RECORD["checkpoints"]
    assert data["steps"] == [c["step"] for c in points] == RECORD["run"]["checkpoints"]
    assert data["first"] == [c["first"] for c in points]
    assert data["repeat"] == [c["repeat"] for c in points]
    assert data["half"] == RECORD["probe"]["half"] == 8
    # The page prints the probe with spell(): the widget spells it the same way.
    assert "".join(data["tokens"]) == spell(RECORD["probe"]["tokens"][:-1]).replace("|", "")
    assert json.loads(data_files()["assets/data/training.json"]) == data


def test_a_map_that_looks_ahead_or_a_token_out_of_range_is_named() -> None:
    with pytest.raises(ValueError, match=r"row 1 attends to a later position: \[0, 500, 500\]"):
        causal_rows([[1000, 0, 0], [0, 500, 500], [0, 0, 1000]])
    with pytest.raises(ValueError, match="token 27 is neither a letter"):
        symbol(27)
