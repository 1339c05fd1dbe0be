"""The generation widget's data (site_build/widget_data.py) against the committed weights.

Oracles: ``data/induction_weights.json`` itself, read here with ``json``: the widget's
weights must be the record's, number for number (they are copied, not computed, so the
same decimal text parses to the same float in Python and in JavaScript, and equality is
exact); and :func:`attention_ref.induction.forward`, which decodes the widget's default
prompt greedily here in numpy. The widget's own arithmetic is checked in the browser
(tests/browser/test_generate_widget.py).
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest

from attention_ref.induction import LETTERS, START, VOCAB, Config, forward, param_names
from site_build.widget_data import (
    DEFAULT_PROMPT,
    WEIGHTS_JSON,
    data_files,
    generate_data,
)

RECORD: dict[str, Any] = json.loads(WEIGHTS_JSON.read_text(encoding="utf-8"))
CONFIG = Config(**RECORD["config"])
PARAMS = {name: np.asarray(w, dtype=np.float64) for name, w in RECORD["params"].items()}


def test_the_weights_are_the_records_number_for_number() -> None:
    data = json.loads(data_files()["assets/data/generate.json"])
    assert data == generate_data()
    assert sorted(data["params"]) == sorted(param_names()) == sorted(RECORD["params"])
    for name, weights in data["params"].items():
        # Exact: no arithmetic between the record and the site, only the same decimal text.
        assert weights == RECORD["params"][name], name
    d, n = CONFIG.d_model, CONFIG.max_len
    shapes = {name: np.shape(w) for name, w in data["params"].items()}
    assert shapes["W_E"] == (VOCAB, d) and shapes["W_pos"] == (n, d) and shapes["W_U"] == (d, VOCAB)
    assert all(shapes[f"{w}{i}"] == (d, d) for w in ("w_q", "w_k", "w_v", "w_o") for i in (0, 1))
    sizes = {"d_model": 32, "heads": 4, "max_len": 24, "scaled": True}
    assert data["config"] == RECORD["config"] == sizes
    assert (data["layers"], data["vocab"], data["start"], data["letters"]) == (2, 27, 26, LETTERS)


def test_the_json_writes_no_more_digits_than_the_record() -> None:
    """Six significant digits at most, as ``make train`` wrote them: nothing added."""
    text = data_files()["assets/data/generate.json"]
    numbers = re.findall(r"-?\d+\.\d+(?:e-?\d+)?", text)
    assert len(numbers) > 10_000  # every weight: 27·32 + 24·32 + 8·32·32 + 32·27 = 10,688
    digits = [len(m.split("e")[0].lstrip("-").replace(".", "").lstrip("0")) for m in numbers]
    assert max(digits) <= 6, max(digits)


def greedy(prompt: str) -> tuple[list[int], list[float]]:
    """Greedy decoding by recomputing the whole context each step, and each step's margin
    between the largest logit and the next one."""
    tokens = [START] + [LETTERS.index(c) for c in prompt]
    margins = []
    while len(tokens) < CONFIG.max_len:
        logits, _ = forward(PARAMS, np.array([tokens]), CONFIG)
        last = np.sort(logits[0, -1])
        margins.append(float(last[-1] - last[-2]))
        tokens.append(int(np.argmax(logits[0, -1])))
    return tokens, margins


def test_the_default_prompt_is_a_repeat_that_the_model_continues() -> None:
    run = DEFAULT_PROMPT[:7]
    assert len(set(run)) == 7, "the run has seven different letters"
    assert DEFAULT_PROMPT == run + run[:2], "a run of seven and its first two letters again"
    tokens, margins = greedy(DEFAULT_PROMPT)
    written = "".join(LETTERS[t] for t in tokens[1 + len(DEFAULT_PROMPT) :])
    # The rest of the run, then the run once more: seven letters that follow the repeat.
    assert written[:7] == (run * 3)[len(DEFAULT_PROMPT) : len(DEFAULT_PROMPT) + 7], written
    # Far from a tie: no CPU's order of summation (differences near 1e-13) can flip them.
    assert min(margins[:7]) > 0.1, margins[:7]


def test_a_record_without_a_weight_is_named() -> None:
    broken = {**RECORD, "params": {k: v for k, v in RECORD["params"].items() if k != "w_v1"}}
    with pytest.raises(ValueError, match=r"the weights record holds .* the model needs"):
        generate_data(broken)
