"""Attention in one line of numpy, with a batch axis and a head axis.

The line is checked against ``attention_ref`` on random inputs with a causal mask.
Run the file on its own with ``python snippets/one_line.py``.
"""

# --8<-- [start:one_line]
import numpy as np

from attention_ref import causal_mask, scaled_dot_product_attention, softmax

Array = np.ndarray


def attention(Q: Array, K: Array, V: Array, mask: Array) -> Array:
    # Q (b, h, n_q, d_k), K (b, h, n_k, d_k), V (b, h, n_k, d_v)
    return softmax(Q @ K.swapaxes(-1, -2) / np.sqrt(K.shape[-1]) + mask) @ V


rng = np.random.default_rng(seed=0)
b, h, n, d = 2, 3, 5, 4  # a batch of 2 sequences, 3 heads, 5 tokens
Q, K, V = rng.standard_normal((3, b, h, n, d))  # (b, h, n, d) each
keep = causal_mask(n)  # (n, n), True = may attend
mask = np.where(keep, 0.0, -np.inf)  # (n, n): broadcasts over b and h
out = attention(Q, K, V, mask)  # (b, h, n, d_v)
print(out.shape)
print(np.allclose(out, scaled_dot_product_attention(Q, K, V, keep)))
# --8<-- [end:one_line]
