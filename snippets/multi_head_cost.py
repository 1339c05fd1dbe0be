"""What one multi-head attention layer holds and costs, at the sizes of real models.

all-MiniLM-L6-v2 (the model behind the lesson's heatmaps) and GPT-2 small, each with
12 heads, at each model's context (512 and 1024 tokens) and at a hypothetical 4096;
and the lengths at which the n^2 terms overtake the others. Biases are left out,
as in ``attention_ref``. Run the file on its own from the repository's root with
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
CONTEXT = {"all-MiniLM-L6-v2": 512, "GPT-2 small": 1024}  # longest input
GIGA, MIB = 10**9, 2**20
head = ("model", "n", "projections", "scores", "per head", "per layer")
print("{:<17}{:>6}  {:>11} {:>8}  {:>8} {:>10}".format(*head))
for name, (d_model, h) in MODELS.items():
    for n in (CONTEXT[name], 4096):
        x = np.zeros((n, d_model), dtype=np.float32)  # (n, d_model)
        _, _, d_head = split_heads(x, h).shape  # (h, n, d_head)
        projections = 4 * n * d_model * d_model  # x @ W_Q, W_K, W_V, W_O
        score_ops = h * n * n * d_head  # Q_i @ K_i.T in every head i
        per_head = n * n * x.itemsize  # one (n, n) float32 weight matrix
        mark = "*" if n > CONTEXT[name] else " "  # longer than it reads
        print(
            f"{name:<17}{n:>5}{mark}  {projections / GIGA:>9.2f} G",
            f"{score_ops / GIGA:>6.2f} G  {per_head / MIB:>4.0f} MiB",
            f"{h * per_head / MIB:>6.0f} MiB",
        )
print("* hypothetical: longer than the model's context")
# --8<-- [end:cost]


# --8<-- [start:crossover]
def first_n(quadratic: int, linear: int, d_model: int) -> int:
    """The first n with quadratic * n^2 d >= linear * n d^2, d = d_model."""
    n = 1
    while quadratic * n * n * d_model < linear * n * d_model**2:
        n += 1
    return n


# (n^2 d_model terms, n d_model^2 terms): the two sides of each comparison
SIDES = {
    "scores vs projections": (1, 4),
    "scores + weighted sum vs projections": (2, 4),
    "the same, MLP on the projections' side": (2, 4 + 8),
}
print("first n where the n^2 terms reach the others (MiniLM, GPT-2)")
for what, (quadratic, linear) in SIDES.items():
    at = [first_n(quadratic, linear, d) for d, _ in MODELS.values()]
    (k,) = {n // d for n, (d, _) in zip(at, MODELS.values(), strict=True)}
    print(f"{what:<39} {at[0]:>5} {at[1]:>5} = {k} d_model")
# --8<-- [end:crossover]

# --8<-- [start:check]
d_model, h = MODELS["all-MiniLM-L6-v2"]
rng = np.random.default_rng(seed=0)
x = rng.standard_normal((512, d_model), dtype=np.float32)  # n = 512
w = rng.standard_normal((4, d_model, d_model), dtype=np.float32) / 20
_, weights = multi_head_attention(x, *w, num_heads=h, return_weights=True)
print(weights.shape, weights.dtype, weights.nbytes // MIB, "MiB")
# --8<-- [end:check]
