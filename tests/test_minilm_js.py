"""The browser's forward pass (docs/javascripts/lib/minilm-math.js) run in node on the
exported float16 files gives attention_ref.minilm's attention weights within 3e-3 (the
bound the page states), on sentences of 3 to 64 tokens. The oracle is
``MiniLM.run`` (float64, from the float32 weights, itself checked against transformers).
Chromium runs the same file in tests/browser/test_minilm_browser.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from attention_ref.minilm import load_minilm
from site_build import minilm_export as ex

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "js" / "minilm" / "run-model.mjs"
BOUND = 3e-3

SENTENCES = [
    "it was too tired.",
    "The animal didn't cross the street because it was too tired.",
    "Crème brûlée at 7:30pm, 😀, and 3.14159 — why not?",
    "A fairly long sentence, written to fill the widget: the quick brown fox jumps over "
    "the lazy dog while seven wizards quietly box with jumping zebras, and then everyone "
    "goes home, tired but happy, to sleep until noon tomorrow.",
]


@pytest.fixture(scope="module")
def export_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("minilm")
    for site_path, blob in ex.export_files(ex.model_source()).items():
        target = folder / site_path.removeprefix(ex.EXPORT_DIR + "/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob)
    return folder


def test_node_forward_pass_matches_attention_ref(export_dir: Path, tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node is not None, "node is needed (make install)"
    model = load_minilm()
    runs = [model.run(s) for s in SENTENCES]
    assert [len(r.tokens) for r in runs][-1] <= 64
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([{"ids": r.ids.tolist()} for r in runs]), encoding="utf-8")
    out = tmp_path / "out.json"
    subprocess.run(
        [node, str(SCRIPT), str(export_dir), str(cases), str(out)],
        check=True,
        cwd=ROOT,
        timeout=300,
    )
    results = json.loads(out.read_text(encoding="utf-8"))
    worst_all = 0.0
    for run, result in zip(runs, results, strict=True):
        n = len(run.tokens)
        assert result["simd"], "node has WebAssembly SIMD: the kernel should have been used"
        for key, how in [("attentions", "SIMD kernel"), ("plainAttentions", "plain JS")]:
            got = np.asarray(result[key], dtype=np.float64).reshape(6, 12, n, n)
            diff = np.abs(got - run.attentions)
            worst = float(diff.max())
            where = np.unravel_index(int(diff.argmax()), diff.shape)
            print(
                f"\n{n} tokens, {how}: worst |JS - attention_ref| = {worst:.2e} "
                f"at (layer, head, q, k) = {tuple(int(i) for i in where)}"
            )
            assert worst <= BOUND, f"{run.text!r}, {how}: {worst} at {where}"
            assert np.allclose(got.sum(axis=-1), 1.0, atol=1e-5)
            worst_all = max(worst_all, worst)
    assert worst_all > 0, "float16 weights cannot give exactly the float64 weights: compare failed"
