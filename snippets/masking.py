"""Masks: keep some keys out of a query's reach (True = may attend).

Positions count from 0, as Python's lists do. Run the file on its own with
``python snippets/masking.py``.
"""

# --8<-- [start:hide_a_key]
import numpy as np

from attention_ref import (
    attention_weights,
    causal_mask,
    scaled_scores,
    softmax,
)

from worked_example import K, q  # the worked example's query and keys

keep = [True, False, True]  # (n_k,): k_2, at position 1, is hidden
print(attention_weights(q, K, mask=keep).round(3).tolist())
# --8<-- [end:hide_a_key]

# --8<-- [start:minus_inf]
s = scaled_scores(q, K)  # (n_k,): the scaled scores of step 2
masked = np.where(keep, s, -np.inf)  # a hidden key scores -inf
print(masked.tolist())
print(np.exp(masked).round(3).tolist())  # e^-inf = 0
print(softmax(masked).round(3).tolist())  # the rest share all of it
# --8<-- [end:minus_inf]

# --8<-- [start:after_softmax]
late = softmax(s) * keep  # wrong: zeroed after the softmax
print(late.round(3).tolist(), "sum:", round(float(late.sum()), 3))
# --8<-- [end:after_softmax]

# --8<-- [start:causal]
print(causal_mask(3).astype(int).tolist())  # row i: the keys 0..i it sees

X = K  # (n, d): three tokens, each both a query and a key
W = attention_weights(X, X, is_causal=True)  # (n, n)
print(W.round(3).tolist())
# --8<-- [end:causal]
