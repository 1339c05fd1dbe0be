"""Masks: keep some keys out of a query's reach (True = may attend).

Run on its own with ``python snippets/masking.py``.
"""

# --8<-- [start:hide_a_key]
import numpy as np

from attention_ref import attention_weights, causal_mask

q = np.array([1, 0, 1, 0])  # (d_k,)
K = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]])  # (n_k, d_k) = (3, 4)

keep = np.array([True, False, True])  # (n_k,): k_2 is hidden from the query
print(attention_weights(q, K, mask=keep).round(3).tolist())
# --8<-- [end:hide_a_key]

# --8<-- [start:causal]
print(causal_mask(3).astype(int).tolist())  # row i: which keys token i may see

X = K  # (n, d): three tokens that are queries and keys at once (a preview of self-attention)
print(attention_weights(X, X, is_causal=True).round(3).tolist())  # (n, n)
# --8<-- [end:causal]
