# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Try the √d_k experiment yourself
#
# The lesson makes a claim about random vectors: when the entries of a query $q$ and
# a key $k$ are independent, with mean 0 and variance 1, the score $q \cdot k$ has
# variance $d_k$. Scores that spread that widely push softmax into a corner, and
# dividing by $\sqrt{d_k}$ pulls them back. Here you check the claim by sampling,
# with the same `attention_ref` functions the lesson page uses.
#
# Download the notebook with the button at the top of the page, run it from the top,
# then change the numbers and see what moves.
#
# **What you need:** Python 3.11 or newer with numpy 2 and matplotlib, and a kernel to
# run it (Jupyter, VS Code, Colab...). Nothing from this site's repository. The first
# cell installs `attention_ref`, the lesson's reference module, with pip, from the wheel
# this site publishes: that needs network access to this site, once. If `attention_ref`
# is already importable (you installed it yourself, or you run the notebook from the
# repository), the cell installs nothing.

# %%
import importlib.util
import subprocess
import sys

# The wheel of attention_ref published with this site (numpy is its only dependency).
WHEEL = "@ATTENTION_REF_WHEEL@"
if importlib.util.find_spec("attention_ref") is None:
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, WHEEL], check=True)
    importlib.invalidate_caches()

# %%
# %config InlineBackend.figure_formats = ["svg"]
import matplotlib.pyplot as plt
import numpy as np

import attention_ref as ar

print("attention_ref", ar.__version__)

plt.rcParams["svg.hashsalt"] = "sqrt-dk"  # same SVG ids in every run
rng = np.random.default_rng(seed=2017)  # change the seed: the conclusions should not change

# %% [markdown]
# ## 1. One score
#
# Draw one query and one key of width 512. Each product $q_i k_i$ is small, but there
# are 512 of them, and their sum is typically of the size $\sqrt{512} \approx 22.6$.

# %%
d_k = 512
q = rng.standard_normal(d_k)  # (d_k,)
k = rng.standard_normal((1, d_k))  # (n_k=1, d_k)
score = float(ar.scores(q, k)[0])
print(f"q·k = {score:.2f}   sqrt(d_k) = {np.sqrt(d_k):.2f}")
print(f"scaled by 1/sqrt(d_k): {float(ar.scale_scores(score, d_k)):.2f}")

# %% [markdown]
# ## 2. How the spread of q·k grows with d_k
#
# The products $q_i k_i$ are independent, each with mean 0 and variance
# $\mathbb{E}[q_i^2]\,\mathbb{E}[k_i^2] = 1$, and variances of independent terms add:
#
# $$\operatorname{Var}(q \cdot k) = \sum_{i=1}^{d_k} \operatorname{Var}(q_i k_i) = d_k,
# \qquad \operatorname{Var}\!\left(\frac{q \cdot k}{\sqrt{d_k}}\right) = 1.$$
#
# Below, 4096 independent pairs per width. The ratio column should hover around 1.
#
# This is the very experiment behind the lesson's first figure, with its sample size and
# its seed (a generator of its own, seed 0), so the table holds the figure's points. The
# snippet on the lesson page takes a smaller sample (one 500 × 500 score matrix at three
# widths), so its digits differ while its conclusion does not: change `seed` here and
# watch the digits move and the conclusion stay.

# %%
widths = [2**i for i in range(11)]  # 1, 2, 4, ..., 1024
n_pairs, seed = 4096, 0  # the figure's sample size and seed
spread_rng = np.random.default_rng(seed)
var_plain, var_scaled = [], []
table = [f"{'d_k':>5} {'Var(q·k)':>10} {'ratio to d_k':>13} {'Var scaled':>11}"]
for d in widths:
    q = spread_rng.standard_normal((n_pairs, 1, d))  # (n_pairs, n_q=1, d_k)
    k = spread_rng.standard_normal((n_pairs, 1, d))  # (n_pairs, n_k=1, d_k)
    s = ar.scores(q, k)[:, 0, 0]  # (n_pairs,)
    var_plain.append(float(np.var(s)))
    var_scaled.append(float(np.var(ar.scale_scores(s, d))))
    ratio = var_plain[-1] / d
    table.append(f"{d:>5} {var_plain[-1]:>10.2f} {ratio:>13.3f} {var_scaled[-1]:>11.3f}")
print("\n".join(table))

# %%
fig, ax = plt.subplots(figsize=(6, 3.4), facecolor="white", layout="constrained")
ax.loglog(widths, widths, color="0.6", linewidth=6, alpha=0.5, label="expected: $d_k$")
ax.loglog(widths, var_plain, "o-", color="#c75300", label=r"measured $q\cdot k$")
ax.loglog(widths, var_scaled, "s--", color="#0066a8", label=r"measured $q\cdot k/\sqrt{d_k}$")
ax.set_xscale("log", base=2)
ax.set_xlabel("key width $d_k$")
ax.set_ylabel("variance of the score")
ax.legend(frameon=False)
plt.show()

# %% [markdown]
# ## 3. What softmax does with wide scores
#
# One query, eight keys, width 256. Without the scale, the scores are tens of units
# apart, and softmax turns that into an almost one-hot vector. With it, the weights
# still favour the best match without ignoring the rest.

# %%
q = rng.standard_normal((1, 256))  # (n_q=1, d_k)
k = rng.standard_normal((8, 256))  # (n_k=8, d_k)
print("scores:       ", np.round(ar.scores(q, k)[0], 1).tolist())
print("unscaled:     ", np.round(ar.attention_weights(q, k, scale=1.0)[0], 3).tolist())
print("scaled (1/16):", np.round(ar.attention_weights(q, k)[0], 3).tolist())

# %% [markdown]
# Now the same sweep as above, with 16 keys per query. Two ways to see saturation:
# the largest weight (1 means all attention on one key) and the entropy of the weights,
# $H(p) = -\sum_j p_j \ln p_j$, which is $\ln 16 \approx 2.77$ for uniform weights and
# 0 for one-hot ones.

# %%
n_keys, n_queries = 16, 400
top_plain, top_scaled, h_plain, h_scaled = [], [], [], []
table = [f"{'d_k':>5} {'max w':>7} {'max w scaled':>13} {'H':>6} {'H scaled':>9}"]
for d in widths:
    q = rng.standard_normal((n_queries, 1, d))  # (n_queries, n_q=1, d_k)
    k = rng.standard_normal((n_queries, n_keys, d))  # (n_queries, n_k, d_k)
    p_plain = ar.attention_weights(q, k, scale=1.0)[:, 0, :]  # (n_queries, n_k)
    p_scaled = ar.attention_weights(q, k)[:, 0, :]  # (n_queries, n_k)
    top_plain.append(float(p_plain.max(axis=-1).mean()))
    top_scaled.append(float(p_scaled.max(axis=-1).mean()))
    h_plain.append(float(ar.entropy(p_plain).mean()))
    h_scaled.append(float(ar.entropy(p_scaled).mean()))
    table.append(
        f"{d:>5} {top_plain[-1]:>7.3f} {top_scaled[-1]:>13.3f} "
        f"{h_plain[-1]:>6.2f} {h_scaled[-1]:>9.2f}"
    )
print("\n".join(table))  # one print per cell: the page shows one output block

# %%
fig, (left, right) = plt.subplots(1, 2, figsize=(7, 3.2), facecolor="white", layout="constrained")
for ax, plain, scaled, label in [
    (left, top_plain, top_scaled, "largest weight (mean)"),
    (right, h_plain, h_scaled, "entropy, nats (mean)"),
]:
    ax.plot(widths, plain, "o-", color="#c75300", label="unscaled")
    ax.plot(widths, scaled, "s--", color="#0066a8", label=r"scaled by $1/\sqrt{d_k}$")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("key width $d_k$")
    ax.set_ylabel(label)
right.axhline(np.log(n_keys), color="0.5", linestyle=":")
left.legend(frameon=False)
plt.show()

# %% [markdown]
# ## 4. Your turn
#
# * Change `n_keys` above: with more keys, does the scaled softmax get flatter or sharper?
# * Give the entries a different spread, as below. With standard deviation $\sigma$ each
#   product has variance $\sigma^4$, so $\operatorname{Var}(q \cdot k) = d_k \sigma^4$,
#   and dividing by $\sqrt{d_k}$ leaves $\sigma^4$: the scale assumes unit-variance
#   inputs, which is one reason transformers normalise their activations.

# %%
sigma, d = 2.0, 64
q = rng.normal(scale=sigma, size=(4000, 1, d))  # (n_pairs, n_q=1, d_k)
k = rng.normal(scale=sigma, size=(4000, 1, d))  # (n_pairs, n_k=1, d_k)
s = ar.scores(q, k)[:, 0, 0]  # (n_pairs,)
print(f"Var(q·k) = {np.var(s):.0f}   d_k * sigma**4 = {d * sigma**4:.0f}")
print(f"Var(q·k / sqrt(d_k)) = {np.var(ar.scale_scores(s, d)):.1f}   sigma**4 = {sigma**4:.0f}")
