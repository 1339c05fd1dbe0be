"""A longer query acts like a lower temperature: every score grows by the same factor.

Uses the worked example's query and keys. Run the file on its own with
``python snippets/similarity.py``.
"""

# --8<-- [start:temperature]
from attention_ref import attention_weights

from worked_example import K, q  # the query and keys of the example below

for c in (0.5, 1, 2, 4):  # the same direction, c times as long
    w = attention_weights(c * q, K)  # (n_k,)
    print(f"{c:>3} * q  weights {w.round(3).tolist()}")
# --8<-- [end:temperature]
