"""Masks: keep some keys out of a query's reach (True = may attend).

Run the file on its own with ``python snippets/masking.py``.
"""

# --8<-- [start:hide_a_key]
import numpy as np

from attention_ref import attention_weights, causal_mask

q = np.array([1, 0, 1, 0])  # (d_k,)
K = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]])  # (n_k, d_k)

keep = [True, False, True]  # (n_k,): k_2 is hidden from q
print(attention_weights(q, K, mask=keep).round(3).tolist())
# --8<-- [end:hide_a_key]

# --8<-- [start:causal]
print(causal_mask(3).astype(int).tolist())  # row i: keys token i sees

X = K  # (n, d): three tokens, each both a query and a key
W = attention_weights(X, X, is_causal=True)  # (n, n)
print(W.round(3).tolist())
# --8<-- [end:causal]
