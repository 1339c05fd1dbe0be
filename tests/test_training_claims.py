"""The claims docs/training.md makes in prose.

Each test recomputes the fact (from the committed run, data/induction_run.json and its
weights, or from a snippet's own variables) with an independent oracle (plain loops, a
forward pass written out here, a value worked by hand) and finds the sentence on the
page as rendered, so it fails when the numbers move and when the sentence is edited.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from attention_ref import cross_entropy
from attention_ref.induction import Config, init_params, repeat_batch
from testbed.claims import claim, run_snippet

PAGE = "training.md"
ROOT = Path(__file__).resolve().parents[1]
RECORD: dict[str, Any] = json.loads((ROOT / "data" / "induction_run.json").read_text())
WEIGHTS: dict[str, Any] = json.loads((ROOT / "data" / "induction_weights.json").read_text())


def test_even_bets_cost_ln_26() -> None:
    claim(PAGE, "A model that spreads its bets evenly over the 26 letters pays ln 26 nats")
    assert math.isclose(cross_entropy(np.zeros((1, 26)), [5]), math.log(26), rel_tol=1e-12)


def test_score_gradient_rows_sum_to_zero() -> None:
    claim(PAGE, "Each row of the score gradient sums to zero")
    grad_s = run_snippet("learning.py")["grad_s"]
    assert np.abs(grad_s.sum(axis=-1)).max() < 1e-12


def test_adam_moves_by_the_learning_rate() -> None:
    claim(PAGE, "moved by the learning rate at each step; the second's changed sign, and its")
    claim(PAGE, "moves nearly cancelled; the third got no gradient and did not move")
    ns = run_snippet("learning.py")
    lr, w = 0.01, [1.0, 1.0, 1.0]
    m, s = [0.0] * 3, [0.0] * 3  # Adam by hand, one weight at a time
    for t, grad in enumerate(([4.0, -0.1, 0.0], [4.0, 0.1, 0.0]), start=1):
        for i, g in enumerate(grad):
            m[i] = 0.9 * m[i] + 0.1 * g
            s[i] = 0.999 * s[i] + 0.001 * g * g
            w[i] -= lr * (m[i] / (1 - 0.9**t)) / (math.sqrt(s[i] / (1 - 0.999**t)) + 1e-8)
    assert np.allclose(ns["params"]["w"], w, atol=1e-12)
    assert abs(w[0] - (1 - 2 * lr)) < 1e-6  # the learning rate, each step
    assert abs(w[1] - 1.0) < lr  # nearly cancelled
    assert w[2] == 1.0


def test_first_half_stays_and_the_repeat_becomes_free() -> None:
    claim(
        PAGE, r"The first half stays near \(\ln 26\), as it must; the repeat becomes almost free."
    )
    end = RECORD["checkpoints"][-1]
    assert abs(end["first"] - math.log(26)) < 0.1
    assert end["repeat"] < 0.1 * end["first"]


def _scores() -> tuple[list[int], list[float], list[float], list[float]]:
    """Per checkpoint: best previous-token score of layer 1, best induction score of layer 2."""
    half = RECORD["probe"]["half"]
    steps, prev, ind, rep = [], [], [], []
    for c in RECORD["checkpoints"]:
        a = np.array(c["attention"]) / RECORD["attention_scale"]  # (layers, heads, n, n)
        n = a.shape[-1]
        prev.append(max(sum(a[0, h, i, i - 1] for i in range(1, n)) / (n - 1) for h in range(4)))
        ind.append(
            max(
                sum(a[1, h, half + j, j + 1] for j in range(1, half)) / (half - 1) for h in range(4)
            )
        )
        steps.append(c["step"])
        rep.append(c["repeat"])
    return steps, prev, ind, rep


def _halfway(steps: list[int], curve: list[float]) -> int:
    middle = (curve[0] + curve[-1]) / 2
    falling = curve[-1] < curve[0]
    for step, value in zip(steps, curve, strict=True):
        if (value < middle) if falling else (value > middle):
            return step
    raise AssertionError("never half-way")


def test_the_heads_form_with_the_drop() -> None:
    claim(
        PAGE, "The loss of the repeat falls and the induction heads appear at the same checkpoint"
    )
    claim(PAGE, "the previous-token head sharpens over the same first few hundred steps")
    steps, prev, ind, rep = _scores()
    assert _halfway(steps, rep) == _halfway(steps, ind)
    assert _halfway(steps, prev) <= 400
    assert _halfway(steps, rep) <= 400 < RECORD["run"]["steps"]


def test_one_previous_token_head_and_every_head_an_induction_head() -> None:
    claim(PAGE, "One head of the first layer becomes a previous-token head, and every head of")
    claim(PAGE, "the second layer an induction head")
    a = np.array(RECORD["checkpoints"][-1]["attention"]) / RECORD["attention_scale"]
    n, half = a.shape[-1], RECORD["probe"]["half"]
    prev = [np.mean([a[0, h, i, i - 1] for i in range(1, n)]) for h in range(4)]
    ind = [np.mean([a[1, h, half + j, j + 1] for j in range(1, half)]) for h in range(4)]
    assert sum(p > 0.5 for p in prev) == 1
    assert all(s > 0.5 for s in ind)


def plain_forward_losses(
    params: dict[str, np.ndarray], tokens: np.ndarray, heads: int, cut: tuple[int, int] | None
) -> np.ndarray:
    """The model written out with loops over heads: loss per position, batch-averaged."""
    x_in, targets = tokens[:, :-1], tokens[:, 1:]
    n = x_in.shape[1]
    x = params["W_E"][x_in] + params["W_pos"][:n]
    d = x.shape[-1]
    dh = d // heads
    future = np.triu(np.ones((n, n), dtype=bool), k=1)
    for layer in range(2):
        outs = []
        for h in range(heads):
            cols = slice(h * dh, (h + 1) * dh)
            q = (x @ params[f"w_q{layer}"])[..., cols]
            k = (x @ params[f"w_k{layer}"])[..., cols]
            v = (x @ params[f"w_v{layer}"])[..., cols]
            s = q @ k.transpose(0, 2, 1) / math.sqrt(dh)
            s[:, future] = -np.inf
            w = np.exp(s - s.max(axis=-1, keepdims=True))
            w /= w.sum(axis=-1, keepdims=True)
            z = w @ v
            outs.append(np.zeros_like(z) if cut == (layer, h) else z)
        x = x + np.concatenate(outs, axis=-1) @ params[f"w_o{layer}"]
    logits = x @ params["W_U"]
    logp = logits - logits.max(-1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(-1, keepdims=True))
    picked = np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    result: np.ndarray = -picked.mean(axis=0)
    return result


def test_the_head_ablations() -> None:
    claim(PAGE, "Without the previous-token head the repeat costs more than ten times as much.")
    claim(PAGE, "induction heads share the work, so no single one of them is missed as much")
    params = {k: np.array(v) for k, v in WEIGHTS["params"].items()}
    ev = RECORD["eval"]
    tokens = repeat_batch(np.random.default_rng(ev["seed"]), ev["batch"], ev["half"])
    half = ev["half"]
    full = plain_forward_losses(params, tokens, 4, None)[half + 1 :].mean()
    rows = {(r["layer"], r["head"]): r["repeat"] for r in RECORD["ablations"]["heads"]}
    # the record agrees with this forward, from the committed (rounded) weights: 1e-3
    for cut in [(0, 0), (1, 0), (1, 3)]:
        mine = plain_forward_losses(params, tokens, 4, cut)[half + 1 :].mean()
        assert abs(mine - rows[cut]) < 1e-3, cut
    assert abs(full - RECORD["checkpoints"][-1]["repeat"]) < 1e-3
    assert rows[(0, 0)] > 10 * full
    assert all(full < rows[(1, h)] < rows[(0, 0)] for h in range(4))


def test_the_scale_ablation() -> None:
    claim(PAGE, "The last two lines train a model with one head per layer, four times as wide")
    claim(PAGE, "Here, without the scale, the loss fell sooner and ended at the same level")
    claim(PAGE, "the starting weights are small, so the scores are small")
    runs = RECORD["ablations"]["scale"]
    wide = runs["scaled"]["config"]
    assert (
        wide["d_model"] // wide["heads"]
        == 4 * RECORD["config"]["d_model"] // RECORD["config"]["heads"]
    )
    by = {name: {c["step"]: c["repeat"] for c in r["checkpoints"]} for name, r in runs.items()}
    assert by["unscaled"][100] < by["scaled"][100] and by["unscaled"][200] < by["scaled"][200]
    assert abs(by["unscaled"][1500] - by["scaled"][1500]) < 0.05
    p = init_params(Config(d_model=32, heads=1, max_len=24), np.random.default_rng(0))
    probe = np.array(RECORD["probe"]["tokens"][:-1])
    x = p["W_E"][probe] + p["W_pos"][: len(probe)]
    raw = (x @ p["w_q0"]) @ (x @ p["w_k0"]).T  # unscaled scores at the start
    assert raw.std() < 1.0  # lesson 1: unit-variance q and k of width 64 give a spread of 8


def test_the_scale_runs_are_shown_at_four_steps_up_to_the_last() -> None:
    """The steps the ablation lines show: checkpoints of both runs, the last one their end."""
    claim(PAGE, "show the loss of its repeat at steps 100, 200, 500 and 1500.")
    shown = (100, 200, 500, 1500)
    runs = RECORD["ablations"]["scale"]
    assert set(runs) == {"scaled", "unscaled"}, sorted(runs)
    for name, run in runs.items():
        steps = [c["step"] for c in run["checkpoints"]]
        assert set(shown) <= set(steps), f"the {name} run has no checkpoint at some of {shown}"
        assert max(steps) == shown[-1], f"the {name} run ends at step {max(steps)}"
        assert shown == tuple(sorted(shown))


def test_the_practice_adam_step_starts_where_the_lesson_does() -> None:
    """Step 4 of the practice: the lesson's example starts from [1, 1, 1], t from 1."""
    claim(PAGE, "with its bias correction (t counts from 1), and return the new lists")
    claim(PAGE, "Two cases are the lesson's own two steps from theta = [1, 1, 1].")
    from attention_ref.induction import Adam

    source = (ROOT / "snippets" / "learning.py").read_text(encoding="utf-8")
    assert 'params = {"w": np.array([1.0, 1.0, 1.0])}' in source, "the lesson starts elsewhere"
    adam = Adam(lr=0.01)
    params = {"w": np.array([1.0])}
    adam.step(params, {"w": np.array([4.0])})
    assert adam.t == 1  # the first step is t = 1
    # at t = 1 the corrected averages are g and g², so the weight moves by lr (to 1e-8)
    assert abs(params["w"][0] - (1 - 0.01)) < 1e-8
