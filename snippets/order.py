"""Order: the keys are a set, but a causal mask makes position count.

Shuffle keys and values together and nothing changes; under a causal mask, token 0
sees only itself, so its output is its own value whatever follows it.

Run the file on its own with ``python snippets/order.py``.
"""

# --8<-- [start:shuffle]
import numpy as np

from attention_ref import scaled_dot_product_attention

from worked_example import K, V, q  # the worked example again

order = [2, 0, 1]  # a new order for the key-value pairs
same = scaled_dot_product_attention(q, K[order], V[order])
apart = scaled_dot_product_attention(q, K[order], V)  # values left behind
print(scaled_dot_product_attention(q, K, V).round(2).tolist())
print(same.round(2).tolist(), "keys and values shuffled together")
print(apart.round(2).tolist(), "keys shuffled alone")
# --8<-- [end:shuffle]

# --8<-- [start:causal]
rng = np.random.default_rng(seed=1)
tokens = rng.standard_normal((4, 6))  # (n, d_model): 4 random tokens
W = rng.standard_normal((3, 6, 6))  # W_Q, W_K, W_V: (d_model, d) each


def causal_self_attention(x: np.ndarray) -> np.ndarray:
    q, k, v = x @ W[0], x @ W[1], x @ W[2]  # (n, d) each
    return scaled_dot_product_attention(q, k, v, is_causal=True)


swap = [1, 0, 2, 3]  # swap the first two tokens
causal_out = causal_self_attention(tokens)  # (n, d)
print(np.allclose(causal_self_attention(tokens[swap]), causal_out[swap]))
print(np.allclose(causal_out[0], tokens[0] @ W[2]))  # output 0 is v_0
# --8<-- [end:causal]
