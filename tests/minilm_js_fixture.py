"""Numbers computed by attention_ref for the browser model's JS tests (tests/js/minilm-*.test.js).

``tests/js/fixtures/minilm-math.json`` is this module's :func:`fixture`, committed so that
``node --test`` needs no Python; ``tests/test_minilm_js_fixture.py`` fails when it is stale.
Regenerate it with ``.venv/bin/python -m tests.minilm_js_fixture``.

Computed numbers are written at :data:`DIGITS` significant digits (the JS tests'
tightest tolerance on a computed value is 1e-6), and ``erf``'s at :data:`ERF_DIGITS` (its
test asks for 1e-14): the last bits that another CPU's BLAS kernels change never reach
the file. The float16 values are exact (a float16 is exactly a float64, and the JS
decoder must match it bit for bit) and are written in full.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from attention_ref.block import EncoderLayerWeights, encoder_layer, feed_forward, gelu, layer_norm
from attention_ref.head_roles import head_role, role_shares
from site_build.heatmap_data import DATA_FILE
from testbed.floats import rounded

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "js" / "fixtures" / "minilm-math.json"
DIGITS = 12
ERF_DIGITS = 15


def _list(a: Any) -> Any:
    return np.asarray(a, dtype=np.float64).tolist()


def _layer(weights: EncoderLayerWeights) -> dict[str, Any]:
    """The layer in the weights file's layout (linear weights as (out, in)), JS names."""
    w = weights
    return {
        "wQ": _list(w.w_q.T), "bQ": _list(w.b_q), "wK": _list(w.w_k.T), "bK": _list(w.b_k),
        "wV": _list(w.w_v.T), "bV": _list(w.b_v), "wO": _list(w.w_o.T), "bO": _list(w.b_o),
        "norm1Gain": _list(w.norm1_gain), "norm1Bias": _list(w.norm1_bias),
        "w1": _list(w.w_1.T), "b1": _list(w.b_1), "w2": _list(w.w_2.T), "b2": _list(w.b_2),
        "norm2Gain": _list(w.norm2_gain), "norm2Bias": _list(w.norm2_bias),
    }  # fmt: skip


def fixture() -> dict[str, Any]:
    rng = np.random.default_rng(2026)
    erf_x = [round(float(v), 4) for v in np.linspace(-7, 7, 141)] + [0.3, -0.001, 2.4999, 2.5001]
    half_bits = [0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0xC000, 0x3555, 0x7BFF, 0xFBFF]
    half_values = np.array(half_bits, dtype=np.uint16).view(np.float16).astype(np.float64)

    ln_x = rng.standard_normal((3, 5)) * 4 + 1
    ln_g, ln_b = rng.standard_normal(5), rng.standard_normal(5)

    ff_x = rng.standard_normal((3, 4))
    w1, b1 = rng.standard_normal((4, 6)), rng.standard_normal(6)
    w2, b2 = rng.standard_normal((6, 4)), rng.standard_normal(4)

    layer = EncoderLayerWeights.random(8, 32, seed=0)
    enc_x = rng.standard_normal((5, 8))
    enc_y, enc_w = encoder_layer(enc_x, layer, num_heads=2, eps=1e-12, return_weights=True)

    record = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    roles = []
    for s in record["sentences"]:
        tokens = s["tokens"]
        mats = [
            [np.asarray(m, dtype=np.float64) / record["scale"] for m in layer_]
            for layer_ in s["attention"]
        ]
        specials = [[role_shares(m, tokens)["special"] for m in heads] for heads in mats]
        flat = int(np.argmin(np.asarray(specials)))  # the first smallest, layer-major
        roles.append(
            {
                "id": s["id"],
                "roles": [[head_role(m, tokens) for m in heads] for heads in mats],
                "shares": [[role_shares(m, tokens) for m in heads] for heads in mats],
                "least_special": {"layer": flat // record["heads"], "head": flat % record["heads"]},
            }
        )
    return {
        "about": "computed by tests/minilm_js_fixture.py with attention_ref",
        "erf": {"x": erf_x, "y": [math.erf(v) for v in erf_x]},
        "gelu": {"x": erf_x, "y": _list(gelu(erf_x))},
        "half": {"bits": half_bits, "values": [float(v) for v in half_values]},
        "layer_norm": {
            "x": _list(ln_x),
            "gain": _list(ln_g),
            "bias": _list(ln_b),
            "eps": 1e-5,
            "y": _list(layer_norm(ln_x, ln_g, ln_b, eps=1e-5)),
        },
        "feed_forward": {
            "x": _list(ff_x),
            "w1": _list(w1.T),
            "b1": _list(b1),
            "w2": _list(w2.T),
            "b2": _list(b2),
            "y": _list(feed_forward(ff_x, w1, b1, w2, b2)),
        },
        "encoder_layer": {
            "x": _list(enc_x),
            "heads": 2,
            "eps": 1e-12,
            "layer": _layer(layer),
            "y": _list(enc_y),
            "weights": _list(enc_w),
        },
        "head_roles": {"data": "data/it_attention.json", "sentences": roles},
    }


def committed() -> dict[str, Any]:
    """:func:`fixture` as the file holds it: rounded to what the JS tests need."""
    out = {}
    for key, value in fixture().items():
        out[key] = (
            value if key == "half" else rounded(value, ERF_DIGITS if key == "erf" else DIGITS)
        )
    return out


def render() -> str:
    return json.dumps(committed(), indent=None, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    FIXTURE.write_text(render(), encoding="utf-8")
    print(f"wrote {FIXTURE.relative_to(ROOT)}")
