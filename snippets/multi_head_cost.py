"""What one multi-head attention layer holds and costs, at the sizes of real models.

all-MiniLM-L6-v2 (the model behind the lesson's heatmaps) and GPT-2 small, each with
12 heads, at 512 and 4096 tokens. Biases are left out, as in ``attention_ref``. Run
the file on its own from the repository's root with
``python snippets/multi_head_cost.py``.
"""

# --8<-- [start:params]
import numpy as np

from attention_ref import multi_head_attention, split_heads

MODELS = {"all-MiniLM-L6-v2": (384, 12), "GPT-2 small": (768, 12)}

for name, (d_model, h) in MODELS.items():
    w = np.zeros((d_model, d_model), dtype=np.float32)  # one of the four
    x = np.ones((2, d_model), dtype=np.float32)  # (n, d_model): 2 tokens
    shapes = set()  # the same four matrices serve 1, 2 or h heads
    for k in (1, 2, h):
        shapes.add(multi_head_attention(x, w, w, w, w, num_heads=k).shape)
    count = f"4 * {d_model}^2 = {4 * w.size:>9,}"
    print(f"{name:<17} {count} weights, output {shapes}")
# --8<-- [end:params]

# --8<-- [start:cost]
GIGA, MIB = 10**9, 2**20
head = ("model", "n", "projections", "scores", "per head", "per layer")
print("{:<17}{:>5}  {:>11} {:>8}  {:>8} {:>10}".format(*head))
for name, (d_model, h) in MODELS.items():
    for n in (512, 4096):
        x = np.zeros((n, d_model), dtype=np.float32)  # (n, d_model)
        _, _, d_head = split_heads(x, h).shape  # (h, n, d_head)
        projections = 4 * n * d_model * d_model  # x @ W_Q, W_K, W_V, W_O
        score_ops = h * n * n * d_head  # Q_i @ K_i.T in every head i
        per_head = n * n * x.itemsize  # one (n, n) float32 weight matrix
        print(
            f"{name:<17}{n:>5}  {projections / GIGA:>9.2f} G",
            f"{score_ops / GIGA:>6.2f} G  {per_head / MIB:>4.0f} MiB",
            f"{h * per_head / MIB:>6.0f} MiB",
        )
# --8<-- [end:cost]

# --8<-- [start:check]
d_model, h = MODELS["all-MiniLM-L6-v2"]
rng = np.random.default_rng(seed=0)
x = rng.standard_normal((512, d_model), dtype=np.float32)  # n = 512
w = rng.standard_normal((4, d_model, d_model), dtype=np.float32) / 20
_, weights = multi_head_attention(x, *w, num_heads=h, return_weights=True)
print(weights.shape, weights.dtype, weights.nbytes // MIB, "MiB")
# --8<-- [end:check]
