"""The numbers behind the heatmap's sentence about *tired* and *wide*.

Reads the real model's attention, saved in ``data/it_attention.json``, and prints
the row of ``it`` in the head the grid opens on. Run the file on its own from the
repository's root with ``python snippets/heatmap_numbers.py``.
"""

# --8<-- [start:tired_wide]
import json
from pathlib import Path

import numpy as np

record = json.loads(Path("data/it_attention.json").read_text())
tired, wide = (  # (layers, heads, n, n) each, rows adding up to 1
    np.array(s["attention"]) / record["scale"] for s in record["sentences"]
)
tokens = record["sentences"][0]["tokens"]
words = ["animal", "street", "[CLS]"]  # the keys to show
it, animal = tokens.index("it"), tokens.index("animal")  # from 0

# The head the grid opens on: where "it" gives "animal" the most weight.
best = np.unravel_index(tired[:, :, it, animal].argmax(), tired.shape[:2])
for word, w in (("tired", tired), ("wide", wide)):
    row = w[best][it]  # the row of "it": one weight per key
    shares = [f"{t} {row[tokens.index(t)]:.3f}" for t in words]
    print(f"{word:<5} ", "  ".join(shares))
# --8<-- [end:tired_wide]
