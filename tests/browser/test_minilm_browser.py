"""The real model in Chromium: the worker (docs/javascripts/lib/minilm-worker.js) loads the
site's own float16 files and gives attention_ref.minilm's attention weights within 3e-3
everywhere, on sentences not in the lessons. The oracle is ``MiniLM.run`` (float64,
itself checked against transformers in tests/test_minilm_torch.py).

The page loads nothing of the model by itself; the test imports the widget's client
module, as the widget does after the reader agrees, and every request stays on the site.
"""

from __future__ import annotations

import base64
from typing import Any

import numpy as np

from attention_ref.minilm import load_minilm

BOUND = 3e-3
SENTENCES = [
    "My cat sleeps on the warm windowsill every afternoon.",
    "Zürich's café served 3 crêpes at 9:45, didn't it? 😀",
    "The engineers who built the bridge that crosses the river were praised by the city, "
    "and the bridge, which took seven years, still carries trains and cars today.",
]

RUN = """async ([clientUrl, texts]) => {
  const client = await import(clientUrl);
  const model = client.createModel();
  const out = [];
  for (const text of texts) {
    const r = await model.run(text);
    const parts = r.attentions.map((a) => {
      let s = ""; const bytes = new Uint8Array(a.buffer);
      for (let i = 0; i < bytes.length; i += 0x8000) {
        s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      }
      return btoa(s);
    });
    out.push({ tokens: r.tokens, ids: r.ids, attentions: parts });
  }
  model.terminate();
  return out;
}"""


def test_browser_attention_equals_attention_ref(page: Any, site_url: str) -> None:
    requests: list[str] = []
    page.context.on("request", lambda r: requests.append(r.url))
    page.goto(site_url + "attention/", wait_until="load")
    assert not any("/assets/minilm/" in u for u in requests), "the page loaded the model by itself"
    results = page.evaluate(RUN, [site_url + "javascripts/lib/minilm-client.js", SENTENCES])
    model = load_minilm()
    worst_all = 0.0
    for text, result in zip(SENTENCES, results, strict=True):
        run = model.run(text)
        assert result["tokens"] == run.tokens and result["ids"] == run.ids.tolist()
        n = len(run.tokens)
        got = np.stack(
            [
                np.frombuffer(base64.b64decode(a), dtype="<f4").reshape(12, n, n)
                for a in result["attentions"]
            ]
        ).astype(np.float64)  # (layers, heads, n, n)
        diff = np.abs(got - run.attentions)
        worst = float(diff.max())
        print(f"\nChromium, {n} tokens: worst |browser - attention_ref| = {worst:.2e}")
        assert worst <= BOUND, (
            f"{text!r}: {worst:.2e} at {np.unravel_index(int(diff.argmax()), diff.shape)}"
        )
        worst_all = max(worst_all, worst)
    assert worst_all > 0, "float16 weights cannot give the float64 weights exactly"
    assert any("/assets/minilm/words/" in u for u in requests), "word shards were fetched"
    assert any("/vendor/tokenizers/" in u for u in requests), "the vendored tokenizer was used"
