"""Train lesson 4's model from its seed and write the run into ``data/`` (``make train``).

A two-layer, attention-only transformer (:mod:`attention_ref.induction`) learns to
continue runs of random letters that repeat. numpy only, every gradient by hand.
Writes:

* ``data/induction_run.json``: the settings, the training loss of every step, and at
  each checkpoint the losses on a fixed evaluation batch and every head's attention on
  a fixed probe sequence (integers in thousandths); then the ablations: the
  trained model's losses with each head removed, and two runs of a one-head-per-layer
  model with a wider head, with and without the 1/sqrt(d_head) scale;
* ``data/induction_weights.json``: the trained weights.

Floats are rounded (6 significant digits, attention to 3 decimals): a rerun on another
CPU differs in the last bits and, after many steps, by more (training is chaotic). The
page reads only these files, and ``tests/test_induction.py`` reruns the first steps
and compares them with the record within a tolerance.

    python scripts/train.py           # writes both files
    python scripts/train.py --steps 50 --out /tmp/x   # a short run elsewhere
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from attention_ref import induction as ind
from testbed.floats import rounded

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
COMMAND = "make train"

CONFIG = ind.Config(d_model=32, heads=4, max_len=24)
RUN = ind.RunSettings(
    seed=0,
    steps=1500,
    lr=1e-2,
    batch=32,
    halves=(6, 12),
    checkpoints=(*range(0, 600, 20), *range(600, 1501, 100)),
)
PROBE_SEED, PROBE_HALF = 2026, 8  # the probe: one sequence, 8 letters then the same 8
EVAL_SEED, EVAL_BATCH, EVAL_HALF = 1, 256, 8
# The scale ablation: one head per layer, so each head is as wide as the model (32, not 8).
WIDE = ind.Config(d_model=32, heads=1, max_len=24)
WIDE_CHECKPOINTS = tuple(range(0, 1501, 50))
SCALE = 1000  # attention weights kept in thousandths


def probe_and_eval() -> tuple[np.ndarray, np.ndarray]:
    probe = ind.repeat_batch(np.random.default_rng(PROBE_SEED), 1, PROBE_HALF)[0]
    eval_tokens = ind.repeat_batch(np.random.default_rng(EVAL_SEED), EVAL_BATCH, EVAL_HALF)
    return probe, eval_tokens


def settings(config: ind.Config, run: ind.RunSettings) -> dict[str, Any]:
    return {"config": dataclasses.asdict(config), "run": dataclasses.asdict(run)}


def checkpoint_json(c: dict[str, Any]) -> dict[str, Any]:
    weights = np.rint(c["weights"] * SCALE).astype(int)  # (layers, heads, n, n)
    return {
        "step": c["step"],
        "first": c["first"],
        "repeat": c["repeat"],
        "attention": weights.tolist(),
    }


def run_all(steps: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The main run and its ablations: (record, weights), ready to be written."""
    run = RUN if steps is None else dataclasses.replace(RUN, steps=steps)
    probe, eval_tokens = probe_and_eval()
    params, rec = ind.train(CONFIG, run, probe, eval_tokens)
    heads = [
        {
            "layer": layer,
            "head": head,
            **ind.evaluate(params, eval_tokens, CONFIG, ablate=[(layer, head)]),
        }
        for layer in range(ind.LAYERS)
        for head in range(CONFIG.heads)
    ]
    scale_runs = {}
    for name, scaled in (("scaled", True), ("unscaled", False)):
        wide = dataclasses.replace(WIDE, scaled=scaled)
        wide_run = dataclasses.replace(run, checkpoints=WIDE_CHECKPOINTS)
        _, wide_rec = ind.train(wide, wide_run, probe, eval_tokens)
        scale_runs[name] = {
            **settings(wide, wide_run),
            "checkpoints": [
                {"step": c["step"], "first": c["first"], "repeat": c["repeat"]}
                for c in wide_rec["checkpoints"]
            ],
        }
    record = {
        "about": "Lesson 4's training run (attention_ref.induction), written by " + COMMAND,
        **settings(CONFIG, run),
        "probe": {"seed": PROBE_SEED, "half": PROBE_HALF, "tokens": probe.tolist()},
        "eval": {"seed": EVAL_SEED, "batch": EVAL_BATCH, "half": EVAL_HALF},
        "attention_scale": SCALE,
        "loss": rec["loss"],
        "checkpoints": [checkpoint_json(c) for c in rec["checkpoints"]],
        "ablations": {"heads": heads, "scale": scale_runs},
    }
    weights = {
        "about": "Lesson 4's trained weights (row-vector convention, x @ w), by " + COMMAND,
        **settings(CONFIG, run),
        "params": {name: params[name].tolist() for name in ind.param_names()},
    }
    return rounded(record, 6), rounded(weights, 6)


def write(path: Path, tree: dict[str, Any]) -> None:
    path.write_text(json.dumps(tree, separators=(",", ":")) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=None, help="train fewer steps (a trial)")
    parser.add_argument("--out", type=Path, default=DATA, help="folder to write into")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    with threadpool_limits(1):  # small matrices: one BLAS thread is faster than two
        record, weights = run_all(args.steps)
    args.out.mkdir(parents=True, exist_ok=True)
    write(args.out / "induction_run.json", record)
    write(args.out / "induction_weights.json", weights)
    seconds = time.perf_counter() - start
    last = record["checkpoints"][-1]
    print(
        f"trained {record['run']['steps']} steps in {seconds:.1f} s; at the end the repeat "
        f"costs {last['repeat']:.3f} nats, the first half {last['first']:.3f}; "
        f"wrote {args.out / 'induction_run.json'} and induction_weights.json"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
