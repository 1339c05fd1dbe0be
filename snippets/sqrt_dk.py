"""Why divide by sqrt(d_k): the spread of q·k grows with d_k, and softmax saturates.

Random queries and keys with independent standard-normal entries, from a seeded
generator so the printed numbers are the same on every run. Run the file on its
own with ``python snippets/sqrt_dk.py``.
"""

# --8<-- [start:variance]
import numpy as np

from attention_ref import (
    attention_weights,
    scale_scores,
    scores,
    softmax_jacobian,
)

rng = np.random.default_rng(seed=0)

for width in (4, 64, 512):  # d_k
    queries = rng.standard_normal((500, width))  # (n_q, d_k)
    keys = rng.standard_normal((500, width))  # (n_k, d_k)
    dots = scores(queries, keys)  # (500, 500) dot products
    fair = scale_scores(dots, width)  # divided by sqrt(d_k)
    var, var_scaled = dots.var(), fair.var()
    print(f"d_k={width:<4} {var=:6.1f}  {var_scaled=:.2f}")
# --8<-- [end:variance]

# --8<-- [start:saturation]
for width in (4, 64, 512):  # d_k
    queries = rng.standard_normal((500, width))  # (n_q, d_k)
    keys = rng.standard_normal((8, width))  # (n_k, d_k): 8 keys
    raw = attention_weights(queries, keys, scale=1.0)  # unscaled
    fair = attention_weights(queries, keys)  # scale 1/sqrt(d_k)
    top_raw = raw.max(axis=-1).mean()  # mean largest weight
    top_fair = fair.max(axis=-1).mean()
    print(f"d_k={width:<4} unscaled={top_raw:.2f}  scaled={top_fair:.2f}")
# --8<-- [end:saturation]

# --8<-- [start:over_flatten]
for width in (4, 64, 512):  # d_k
    queries = rng.standard_normal((500, width))  # (n_q, d_k)
    keys = rng.standard_normal((8, width))  # (n_k, d_k): 8 keys
    flat = attention_weights(queries, keys, scale=1 / width)  # / d_k
    var = (scores(queries, keys) / width).var()  # about 1 / d_k
    top = flat.max(axis=-1).mean()  # 1/8 = 0.125 would be uniform
    print(f"d_k={width:<4} var={var:.4f}  largest weight={top:.3f}")
# --8<-- [end:over_flatten]

# --8<-- [start:learned_scale]
width = 512  # d_k
queries = rng.standard_normal((500, width))  # (n_q, d_k)
keys = rng.standard_normal((16, width))  # (n_k, d_k): 16 keys

starts = (("1 (no scaling)", 1.0), ("1/sqrt(d_k)", None))
for name, scale in starts:
    p = attention_weights(queries, keys, scale=scale)  # (n_q, n_k)
    jac = softmax_jacobian(p)  # (n_q, n_k, n_k): d p_i / d z_j
    reach = np.abs(jac).sum(axis=-2).mean()  # how much a z_j moves p
    top = p.max(axis=-1).mean()  # mean largest weight
    print(f"scale {name:<15}", f"largest weight {top:.2f} ", end=" ")
    print(f"gradient reach {reach:.4f}")
# --8<-- [end:learned_scale]
