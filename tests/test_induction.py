"""Lesson 4's model: its gradients by finite differences, and the committed run reruns.

``make train`` wrote data/induction_run.json on one machine. Training is chaotic over
1,500 steps (a difference in the last bit grows), but not over the first 50: rerun from
the same seed here, on whatever CPU and BLAS kernel, the losses agree with the record
within 1e-4 relative (the record keeps 6 significant digits, 5e-6 relative; kernel
differences measured by OPENBLAS_CORETYPE runs stay below 1e-9 after 50 steps), and the
attention on the probe within 2 thousandths (the record keeps thousandths, rounded).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np

from attention_ref import induction as ind

ROOT = Path(__file__).resolve().parents[1]
RECORD = json.loads((ROOT / "data" / "induction_run.json").read_text(encoding="utf-8"))
STEPS = 50


def test_the_model_gradient_matches_finite_differences() -> None:
    """The whole backward pass (both layers, embeddings, unembedding) against the forward."""
    config = ind.Config(d_model=8, heads=2, max_len=8)
    params = ind.init_params(config, np.random.default_rng(3))
    tokens = ind.repeat_batch(np.random.default_rng(4), batch=2, half=3)
    _, grads = ind.loss_and_grads(params, tokens, config)
    rng = np.random.default_rng(5)
    h = 1e-6
    for name in ind.param_names():
        for _ in range(3):  # three random entries of every parameter
            i = tuple(int(rng.integers(0, n)) for n in params[name].shape)
            if name == "W_pos" and i[0] >= tokens.shape[1] - 1:
                i = (0, *i[1:])  # a position the inputs use
            plus = {**params, name: params[name].copy()}
            minus = {**params, name: params[name].copy()}
            plus[name][i] += h
            minus[name][i] -= h
            fd = (
                ind.loss_and_grads(plus, tokens, config)[0]
                - ind.loss_and_grads(minus, tokens, config)[0]
            ) / (2 * h)
            scale = max(float(np.max(np.abs(grads[name]))), 1e-8)
            assert abs(fd - grads[name][i]) < 1e-6 * scale + 1e-10, (name, i)


def test_the_first_50_steps_rerun_as_recorded() -> None:
    config = ind.Config(**RECORD["config"])
    run_args = RECORD["run"] | {"halves": tuple(RECORD["run"]["halves"])}
    run = ind.RunSettings(**(run_args | {"checkpoints": tuple(RECORD["run"]["checkpoints"])}))
    run = dataclasses.replace(run, steps=STEPS)
    probe = np.array(RECORD["probe"]["tokens"])
    assert (
        probe.tolist()
        == ind.repeat_batch(
            np.random.default_rng(RECORD["probe"]["seed"]), 1, RECORD["probe"]["half"]
        )[0].tolist()
    )
    ev = RECORD["eval"]
    eval_tokens = ind.repeat_batch(np.random.default_rng(ev["seed"]), ev["batch"], ev["half"])
    _, rec = ind.train(config, run, probe, eval_tokens)
    np.testing.assert_allclose(rec["loss"], RECORD["loss"][:STEPS], rtol=1e-4)
    recorded = {c["step"]: c for c in RECORD["checkpoints"]}
    assert [c["step"] for c in rec["checkpoints"]] == [0, 20, 40]
    for c in rec["checkpoints"]:
        want = recorded[c["step"]]
        np.testing.assert_allclose(
            c["weights"] * RECORD["attention_scale"], want["attention"], atol=2
        )
        np.testing.assert_allclose(
            [c["first"], c["repeat"]], [want["first"], want["repeat"]], rtol=1e-4
        )


def test_the_record_is_small_and_rounded() -> None:
    """Committed files stay under 1 MB together, and no float carries more than 6 digits."""
    sizes = [
        (ROOT / "data" / f).stat().st_size for f in ("induction_run.json", "induction_weights.json")
    ]
    assert sum(sizes) < 1_000_000
    assert all(
        len(f"{x:.15g}".lstrip("-").replace(".", "").lstrip("0")) <= 6 for x in RECORD["loss"]
    )
