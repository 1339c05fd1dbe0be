"""Self-attention worked by hand: three tokens, d_model = 4, one head and then two.

The weights are small integers chosen so that every step can be checked with pencil
and paper; a trained model learns its own. Run the file on its own from the
repository's root with ``python snippets/self_attention.py``.
"""

# --8<-- [start:data]
import numpy as np

from attention_ref import (
    attention_weights,
    causal_mask,
    merge_heads,
    multi_head_attention,
    scaled_dot_product_attention,
    scores,
    softmax,
    split_heads,
)

Z = np.array(  # (n, d_model) = (3, 4): one row per token
    [
        [1, 0, 1, 0],  # token 0
        [0, 1, 0, 1],  # token 1
        [1, 1, 0, 0],  # token 2
    ]
)
W_Q = np.array(  # (d_model, d_model): what each token asks for
    [
        [0, 0, 0, 0],
        [-1, 1, 0, 0],
        [1, -1, 1, 0],
        [2, -2, 0, 1],
    ]
)
W_K = np.eye(4, dtype=int)  # keys: the tokens as they are
W_V = np.diag([1, 2, 3, 4])  # values: column j stretched j + 1 times
# --8<-- [end:data]

# --8<-- [start:project]
Q, K, V = Z @ W_Q, Z @ W_K, Z @ W_V  # (n, d_model) each
print("Q", Q.tolist())
print("K", K.tolist())
print("V", V.tolist())
# --8<-- [end:project]

# --8<-- [start:scores]
S = scores(Q, K)  # (n, n) = Q @ K.T: row i is token i's query
print("S", S.tolist())  # against every key
d_k = Q.shape[-1]  # 4, so the scores are divided by sqrt(4) = 2
print("S / 2", (S / np.sqrt(d_k)).tolist())
# --8<-- [end:scores]

# --8<-- [start:weights]
A = softmax(S / np.sqrt(d_k))  # (n, n): each row adds up to 1
print(*A.round(3).tolist(), sep="\n")  # one row per token
# --8<-- [end:weights]

# --8<-- [start:output]
out = A @ V  # (n, d_model): a new row for every token
print(*out.round(2).tolist(), sep="\n")
same = scaled_dot_product_attention(Q, K, V)  # the one-call version
print(np.allclose(out, same))
# --8<-- [end:output]

# --8<-- [start:permute]
order = [2, 0, 1]  # a new order: token 2 first, then 0, then 1


def self_attention(Z: np.ndarray) -> np.ndarray:
    return scaled_dot_product_attention(Z @ W_Q, Z @ W_K, Z @ W_V)


shuffled = self_attention(Z[order])  # shuffle the tokens first ...
print(np.allclose(shuffled, self_attention(Z)[order]))  # ... or after
# --8<-- [end:permute]

# --8<-- [start:positions]
P = np.array(  # (n, d_model): one vector per position, not per token
    [[0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0]]
)
moved = self_attention(Z[order] + P)  # tokens move, positions stay
print(np.allclose(moved, self_attention(Z + P)[order]))
# --8<-- [end:positions]

# --8<-- [start:causal]
mask = causal_mask(3)  # (n, n): row i may see tokens 0..i
A_causal = attention_weights(Q, K, is_causal=True)  # (n, n)
for m_row, a_row in zip(mask.astype(int), A_causal.round(3), strict=True):
    print(m_row.tolist(), a_row.tolist())
# --8<-- [end:causal]

# --8<-- [start:split]
h = 2  # two heads of width d_model / h = 2
Q_h, K_h, V_h = (split_heads(M, h) for M in (Q, K, V))
print(Q_h.shape)  # (h, n, d_head)
# The page counts heads from 1; arrays count from 0, so head 1 is Q_h[0].
print("head 1 queries", Q_h[0].tolist())  # columns 0-1 of Q
print("head 2 queries", Q_h[1].tolist())  # columns 2-3 of Q
# --8<-- [end:split]

# --8<-- [start:per_head]
for i in range(h):  # each head on its own, scaled by sqrt(2)
    S_i = scores(Q_h[i], K_h[i])  # (n, n)
    A_i = attention_weights(Q_h[i], K_h[i])  # (n, n)
    print(f"head {i + 1}: scores -> weights")
    for s_row, a_row in zip(S_i, A_i.round(3), strict=True):
        print(" ", s_row.tolist(), "->", a_row.tolist())
# --8<-- [end:per_head]

# --8<-- [start:merge]
heads = scaled_dot_product_attention(Q_h, K_h, V_h)  # (h, n, d_head)
concat = merge_heads(heads)  # (n, d_model): heads side by side
print("heads side by side", *concat.round(2).tolist(), sep="\n")

W_O = np.array(  # (d_model, d_model): mixes the heads' columns
    [
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [1, 0, 1, 0],
        [0, 1, 0, 1],
    ]
)
print("times W_O", *(concat @ W_O).round(2).tolist(), sep="\n")
# --8<-- [end:merge]

# --8<-- [start:one_call]
layer = (W_Q, W_K, W_V, W_O)  # the four learned matrices
mha, A_h = multi_head_attention(Z, *layer, num_heads=2, return_weights=True)
print(mha.shape, A_h.shape)  # (n, d_model), (h, n, n)
print(np.allclose(mha, concat @ W_O))
# --8<-- [end:one_call]

# --8<-- [start:cross]
source = np.array(  # (m, d_model) = (5, 4): another sequence
    [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [1, 1, 1, 1]]
)
out_x, A_x = multi_head_attention(
    Z,  # the queries come from Z ...
    *layer,
    num_heads=2,
    context=source,  # ... the keys and values from source
    return_weights=True,
)
print(out_x.shape, A_x.shape)  # (n, d_model), (h, n, m)
# --8<-- [end:cross]
