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
it, animal, street, cls = map(tokens.index, ["it", "animal", "street", "[CLS]"])

# The head the grid opens on: where "it" gives "animal" the most weight.
best = np.unravel_index(tired[:, :, it, animal].argmax(), tired.shape[:2])
for word, w in (("tired", tired), ("wide", wide)):
    row = w[best][it]  # the row of "it": one weight per key
    print(f"{word:<5}  animal {row[animal]:.3f}  street {row[street]:.3f}"
          f"  [CLS] {row[cls]:.3f}")
# --8<-- [end:tired_wide]
