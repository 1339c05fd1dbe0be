"""What each head of the real model mostly looks at, counted for both sentences.

Reads the attention of all-MiniLM-L6-v2 saved in ``data/it_attention.json`` and names
each of its 72 heads with ``attention_ref.head_roles.head_role``: after the pattern that
takes at least half of its attention (``special`` is [CLS] and [SEP] together).
Run the file on its own from the repository's root with ``python snippets/head_roles.py``.
"""

# --8<-- [start:counts]
import json
from pathlib import Path

import numpy as np

from attention_ref.head_roles import ROLES, THRESHOLD, head_role

record = json.loads(Path("data/it_attention.json").read_text())
print("threshold:", THRESHOLD, "of a head's attention")
print("sentence", *ROLES, sep="  ")  # special, previous, self, next, mixed
for s in record["sentences"]:
    weights = np.array(s["attention"]) / record["scale"]  # (6, 12, n, n)
    counts = dict.fromkeys(ROLES, 0)
    for head in weights.reshape(-1, *weights.shape[2:]):  # 72 x (n, n)
        counts[head_role(head, s["tokens"])["role"]] += 1
    cells = [f"{counts[r]:>{len(r) + 2}}" for r in ROLES]
    print(f"{s['id']:<8}", *cells, sep="")
# --8<-- [end:counts]
