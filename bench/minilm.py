"""Speed of ``attention_ref.minilm``: loading the model, and one forward pass on the lesson's
16-token sentence, against transformers' eager ``BertModel`` on the same tokens.

- ``load``: ``load_minilm()`` in a fresh interpreter (weights read with safetensors, the
  tokenizer, the layers' float64 copies), once per subprocess, ``--loads`` subprocesses;
- ``attention_ref``: ``model.run(sentence)``, which tokenises and returns every
  attention map, every hidden state and the sentence embedding;
- ``transformers``: ``model(**tokens, output_attentions=True, output_hidden_states=True)``
  under ``torch.no_grad()`` with ``attn_implementation="eager"``, ``torch`` on
  ``--threads`` threads (default: the machine's cores), where torch is installed
  (``make model-deps``). Tokenising is left out of its time.

Every part runs in its own subprocess (``python -m bench.minilm --part ...``), so that
neither library's thread pools or caches disturb the other. On a shared, busy machine the
two timings may come from quieter and busier moments, so the transformers part also
times ``model.run`` in turns with the forward pass, one call of each per sample
(``interleaved``): the ratio of those medians is the fairer one when the load moves.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.stats import ratio, summarize, time_call

ROOT = Path(__file__).resolve().parents[1]
SENTENCE = "The animal didn't cross the street because it was too tired."


def measure_load() -> dict[str, Any]:
    """One cold ``load_minilm()`` in this (fresh) interpreter, import included."""
    start = time.perf_counter()
    from attention_ref.minilm import load_minilm

    model = load_minilm()
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "layers": model.config.layers}


def measure_run(repeat: int) -> dict[str, Any]:
    from attention_ref.minilm import load_minilm

    model = load_minilm()
    run = model.run(SENTENCE)
    return {
        "tokens": len(run.tokens),
        "run": time_call(lambda: model.run(SENTENCE), repeat=repeat, warmup=3),
    }


def measure_transformers(repeat: int, threads: int) -> dict[str, Any]:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        import torch
        import transformers
    except ImportError as err:
        return {"available": False, "reason": f"{err.name} is not installed; `make model-deps`"}
    from attention_ref.minilm import model_dir

    torch.set_num_threads(threads)
    path = model_dir()
    tokenizer = transformers.AutoTokenizer.from_pretrained(path)
    bert = transformers.AutoModel.from_pretrained(path, attn_implementation="eager").eval()
    encoded = tokenizer(SENTENCE, return_tensors="pt")

    def forward() -> object:
        with torch.no_grad():
            return bert(**encoded, output_attentions=True, output_hidden_states=True)

    from attention_ref.minilm import load_minilm

    model = load_minilm()
    for _ in range(3):
        forward()
        model.run(SENTENCE)
    turns: dict[str, list[float]] = {"model.run": [], "transformers": []}
    for _ in range(max(repeat, 1) * 5):
        for name, fn in (("model.run", lambda: model.run(SENTENCE)), ("transformers", forward)):
            start = time.perf_counter()
            fn()
            turns[name].append(time.perf_counter() - start)
    return {
        "available": True,
        "tokens": int(encoded["input_ids"].shape[1]),
        "forward": time_call(forward, repeat=repeat, warmup=3),
        "interleaved": {name: summarize(samples) for name, samples in turns.items()},
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "threads": torch.get_num_threads(),
    }


def _subprocess(args: list[str]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "bench.minilm", *args],
        cwd=ROOT,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def run(repeat: int = 7, loads: int = 5, threads: int | None = None) -> dict[str, Any]:
    """Measure loading, ``model.run`` and transformers' forward, each in fresh subprocesses."""
    threads = threads or os.cpu_count() or 1
    load = summarize([_subprocess(["--part", "load"])["seconds"] for _ in range(loads)])
    ours = _subprocess(["--part", "run", "--repeat", str(repeat)])
    theirs = _subprocess(
        ["--part", "transformers", "--repeat", str(repeat), "--threads", str(threads)]
    )
    result: dict[str, Any] = {
        "what": f"the {ours['tokens']}-token lesson sentence, every attention map and "
        "hidden state; transformers eager under no_grad on "
        f"{threads} thread{'s' if threads > 1 else ''}",
        "sentence": SENTENCE,
        "tokens": ours["tokens"],
        "timings": {"load_minilm() (fresh process)": load, "model.run": ours["run"]},
        "transformers": {k: v for k, v in theirs.items() if k not in ("forward", "interleaved")},
    }
    if theirs.get("available"):
        result["timings"]["transformers eager forward"] = theirs["forward"]
        result["ratio_to_transformers"] = ratio(ours["run"], theirs["forward"])
        turns = theirs["interleaved"]
        result["timings"]["model.run, in turns with transformers"] = turns["model.run"]
        result["timings"]["transformers, in turns with model.run"] = turns["transformers"]
        result["ratio_interleaved"] = ratio(turns["model.run"], turns["transformers"])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["load", "run", "transformers"], required=True)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.part == "load":
        result = measure_load()
    elif args.part == "run":
        result = measure_run(args.repeat)
    else:
        result = measure_transformers(args.repeat, args.threads)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
