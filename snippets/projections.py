"""Where Q, K and V come from: three learned projections of the same rows Z.

The weights here are random (a seeded generator), as they are before training; a
trained model has learned them. Run the file on its own with
``python snippets/projections.py``.
"""

# --8<-- [start:project]
import numpy as np

from attention_ref import scaled_dot_product_attention, scores

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

# --8<-- [start:cross]
Z_other = rng.standard_normal((7, d_model))  # another sequence, 7 long

# Cross-attention: queries from Z, keys and values from Z_other.
K_x, V_x = Z_other @ W_K, Z_other @ W_V  # (7, d_k), (7, d_v)
cross = scaled_dot_product_attention(Q, K_x, V_x)  # (n_q, d_v)
scores_shape = (Q.shape[0], K_x.shape[0])  # (n_q, n_k)
print("scores", scores_shape, " out", cross.shape)
# --8<-- [end:cross]

# --8<-- [start:cost]
n, d_k = 4096, 64  # a long context, one head of width 64
Q = rng.standard_normal((n, d_k), dtype=np.float32)  # (n, d_k)
K = rng.standard_normal((n, d_k), dtype=np.float32)  # (n, d_k)

S = scores(Q, K)  # (n, n): one float32 number per query-key pair
print(S.shape, S.dtype, S.nbytes // 2**20, "MiB for one head")
twice = S.itemsize * (2 * n) ** 2  # bytes for a sequence twice as long
print(twice // 2**20, "MiB at twice the length")
# --8<-- [end:cost]
