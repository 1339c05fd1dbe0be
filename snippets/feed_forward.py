"""The feed-forward network: its shapes in all-MiniLM-L6-v2, GELU, its weights, its cost.

Run the file on its own from the repository's root with
``python snippets/feed_forward.py``.
"""

# --8<-- [start:shapes]
import numpy as np

from attention_ref.block import feed_forward, gelu
from attention_ref.minilm import load_minilm

model = load_minilm()
p = model.layers[0]  # the first block's weights
print("w_1", p.w_1.shape, "b_1", p.b_1.shape, "w_2", p.w_2.shape)

x = np.random.default_rng(seed=0).standard_normal((3, 384))  # 3 tokens
together = feed_forward(x, p.w_1, p.b_1, p.w_2, p.b_2)  # (3, 384)
alone = [feed_forward(t[None], p.w_1, p.b_1, p.w_2, p.b_2)[0] for t in x]
print(together.shape, np.allclose(together, alone))
# --8<-- [end:shapes]

# --8<-- [start:gelu]
z = np.array([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0])
print("relu", np.maximum(z, 0).tolist())
print("gelu", gelu(z).round(3).tolist())
# --8<-- [end:gelu]

# --8<-- [start:params]
counts = {"attention": 0, "feed-forward": 0, "norms": 0}
for name, w in model.weights.items():  # the arrays of model.safetensors
    if name.startswith("encoder.layer.0."):  # the first block
        part = (
            "norms"
            if "LayerNorm" in name
            else "attention"
            if ".attention." in name
            else "feed-forward"
        )  # intermediate.dense, output.dense
        counts[part] += w.size
total = sum(counts.values())
for part, n in counts.items():
    print(f"{part:<13} {n:>9,}  {n / total:.3f}")
print(f"{'one block':<13} {total:>9,}")
# --8<-- [end:params]

# --8<-- [start:cost]
MODELS = {"all-MiniLM-L6-v2": 384, "GPT-2 small": 768}
for name, d in MODELS.items():
    n = 1  # grow the sequence until the n^2 part catches up
    while 2 * n * n * d < 4 * n * d * d + 8 * n * d * d:
        n += 1
    # 2 n^2 d: Q K^T and weights @ V.  4 n d^2: W_Q, W_K, W_V, W_O.
    # 8 n d^2: W_1 (d x 4d) and W_2 (4d x d).
    print(f"{name:<17} crossover at n = {n:,} = {n // d} x d_model")
# --8<-- [end:cost]
