"""The dot product as similarity: length times length times the cosine of the angle.

Uses the worked example's query and keys. Run the file on its own with
``python snippets/similarity.py``.
"""

# --8<-- [start:cosine]
import numpy as np

from attention_ref import attention_weights, scores

q = np.array([1, 0, 1, 0])  # the worked example's query
K = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]])  # (n_k, d_k)

length_q = np.linalg.norm(q)  # |q|
length_k = np.linalg.norm(K, axis=1)  # |k_j|, one per key
cos = scores(q, K) / (length_q * length_k)  # cos(theta_j)
degrees = np.degrees(np.arccos(cos))  # the angle between q and k_j
print("q·k_j           ", scores(q, K).tolist())
print("|q| |k_j| cos θ ", (length_q * length_k * cos).round(3).tolist())
print("θ in degrees    ", degrees.round(1).tolist())
# --8<-- [end:cosine]

# --8<-- [start:temperature]
for c in (0.5, 1, 2, 4):  # the same direction, c times as long
    w = attention_weights(c * q, K)  # (n_k,)
    print(f"{c:>3} * q  weights {w.round(3).tolist()}")
# --8<-- [end:temperature]

# --8<-- [start:same_as_scale]
d_k = K.shape[-1]
twice = attention_weights(2 * q, K)  # a query twice as long ...
hotter = attention_weights(q, K, scale=2 / np.sqrt(d_k))  # ... or scale x2
print(np.allclose(twice, hotter))
# --8<-- [end:same_as_scale]
