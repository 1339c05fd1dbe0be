"""What each head of the real model mostly looks at, counted for both sentences.

Reads the attention of all-MiniLM-L6-v2 saved in ``data/it_attention.json`` and names
each of its 72 heads after the pattern that takes at least half of its attention.
Run the file on its own from the repository's root with ``python snippets/head_roles.py``.
"""

# --8<-- [start:counts]
import json
from pathlib import Path

import numpy as np

record = json.loads(Path("data/it_attention.json").read_text())
THRESHOLD = 0.5  # the share a pattern needs to name a head


def shares(w, tokens):
    """Where one head's (n, n) weights go, each averaged over its rows."""
    ends = [j for j, t in enumerate(tokens) if t in ("[CLS]", "[SEP]")]
    return {
        "[CLS]/[SEP]": w[:, ends].sum(axis=1).mean(),
        "previous": np.diagonal(w, offset=-1).mean(),  # w[i, i-1]
        "itself": np.diagonal(w).mean(),  # w[i, i]
        "next": np.diagonal(w, offset=1).mean(),  # w[i, i+1]
    }


ROLES = ["[CLS]/[SEP]", "previous", "itself", "next", "mixed"]
print("threshold:", THRESHOLD, "of a head's attention")
print("sentence", *ROLES, sep="  ")
for s in record["sentences"]:
    weights = np.array(s["attention"]) / record["scale"]  # (6, 12, n, n)
    counts = dict.fromkeys(ROLES, 0)
    for head in weights.reshape(-1, *weights.shape[2:]):  # 72 x (n, n)
        raw = shares(head, s["tokens"])
        share = {k: round(float(v), 3) for k, v in raw.items()}  # as shown
        best = max(share, key=share.get)  # the first one on a tie
        enough = share[best] >= THRESHOLD
        counts[best if enough else "mixed"] += 1
    cells = [f"{counts[r]:>{len(r) + 2}}" for r in ROLES]
    print(f"{s['id']:<8}", *cells, sep="")
# --8<-- [end:counts]
