"""Where Q, K and V come from: three learned projections of the same rows Z.

The weights here are random (a seeded generator), as they are before training; a
trained model has learned them. Run the file on its own with
``python snippets/projections.py``.
"""

# --8<-- [start:project]
import numpy as np

from attention_ref import scaled_dot_product_attention

rng = np.random.default_rng(seed=0)
n, d_model, d_k, d_v = 5, 8, 4, 3  # 5 tokens, rows of Z 8 wide

Z = rng.standard_normal((n, d_model))  # (n, d_model): embedding + position
W_Q = rng.standard_normal((d_model, d_k))  # learned, (d_model, d_k)
W_K = rng.standard_normal((d_model, d_k))  # learned, (d_model, d_k)
W_V = rng.standard_normal((d_model, d_v))  # learned, (d_model, d_v)

Q, K, V = Z @ W_Q, Z @ W_K, Z @ W_V  # one row per token each
out = scaled_dot_product_attention(Q, K, V)  # (n, d_v)
print("Q", Q.shape, " K", K.shape, " V", V.shape, " out", out.shape)
# --8<-- [end:project]
