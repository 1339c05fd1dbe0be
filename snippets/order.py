"""Attention ignores order: shuffle the keys and values together, nothing changes.

Run the file on its own with ``python snippets/order.py``.
"""

# --8<-- [start:shuffle]
import numpy as np

from attention_ref import scaled_dot_product_attention

q = np.array([1, 0, 1, 0])  # the worked example again
K = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]])  # (n_k, d_k)
V = np.array([[10, 0], [0, 5], [2, 2]])  # (n_k, d_v)

order = [2, 0, 1]  # a new order for the key-value pairs
same = scaled_dot_product_attention(q, K[order], V[order])
apart = scaled_dot_product_attention(q, K[order], V)  # values left behind
print(scaled_dot_product_attention(q, K, V).round(2).tolist())
print(same.round(2).tolist(), "keys and values shuffled together")
print(apart.round(2).tolist(), "keys shuffled alone")
# --8<-- [end:shuffle]

# --8<-- [start:tokens]
rng = np.random.default_rng(seed=1)
Z = rng.standard_normal((4, 6))  # (n, d_model): 4 tokens, no position added
W_Q, W_K, W_V = rng.standard_normal((3, 6, 6))  # (d_model, d) each


def self_attention(Z: np.ndarray) -> np.ndarray:
    return scaled_dot_product_attention(Z @ W_Q, Z @ W_K, Z @ W_V)


swap = [1, 0, 2, 3]  # swap the first two tokens
print(np.allclose(self_attention(Z[swap]), self_attention(Z)[swap]))

P = rng.standard_normal((4, 6))  # (n, d_model): one vector per position
with_position = self_attention(Z[swap] + P)  # tokens swapped, positions not
print(np.allclose(with_position, self_attention(Z + P)[swap]))
# --8<-- [end:tokens]
