"""Why divide by sqrt(d_k): the spread of q·k grows with d_k, and softmax saturates.

Random queries and keys with independent standard-normal entries, from a seeded
generator so the printed numbers are the same on every run.
"""

# --8<-- [start:variance]
import numpy as np

from attention_ref import attention_weights, scale_scores, scores

rng = np.random.default_rng(seed=0)

for width in (4, 64, 512):  # d_k
    queries = rng.standard_normal((500, width))  # (n_q, d_k)
    keys = rng.standard_normal((500, width))  # (n_k, d_k)
    dots = scores(queries, keys)  # (n_q, n_k): 250 000 dot products
    fair = scale_scores(dots, width)  # (n_q, n_k): divided by sqrt(d_k)
    print(f"d_k={width:3d}  var(q·k)={dots.var():6.1f}  var(q·k/sqrt(d_k))={fair.var():4.2f}")
# --8<-- [end:variance]

# --8<-- [start:saturation]
for width in (4, 64, 512):  # d_k
    queries = rng.standard_normal((500, width))  # (n_q, d_k)
    keys = rng.standard_normal((8, width))  # (n_k, d_k): 8 keys to choose from
    unscaled_w = attention_weights(queries, keys, scale=1.0)  # (n_q, n_k)
    scaled_w = attention_weights(queries, keys)  # (n_q, n_k): scale = 1/sqrt(d_k)
    print(
        f"d_k={width:3d}  largest weight, unscaled={unscaled_w.max(axis=-1).mean():.2f}"
        f"  scaled={scaled_w.max(axis=-1).mean():.2f}"
    )
# --8<-- [end:saturation]
