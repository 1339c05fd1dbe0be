"""Why the residual connection helps: the gradient through a stack of sublayers.

Twelve random linear sublayers, each shrinking a vector on average, stacked with and
without the residual connection. The gradient that reaches the input is the product of
the layers' Jacobians (transposed): ``W`` for a plain layer, ``I + W`` for a residual
one. Run the file on its own from the repository's root with
``python snippets/residual.py``.
"""

# --8<-- [start:gradient]
import numpy as np

d, layers = 64, 12
rng = np.random.default_rng(seed=0)
# Sublayers that shrink a vector: each scales it by about 1/4.
w = rng.standard_normal((layers, d, d)) / (4 * np.sqrt(d))

g_plain = g_residual = rng.standard_normal(d)  # the gradient at the top
top = np.linalg.norm(g_plain)
for w_i in w[::-1]:  # back through the layers, last one first
    g_plain = w_i @ g_plain  # x -> x W: Jacobian W
    g_residual = g_residual + w_i @ g_residual  # x -> x + x W: I + W
print("without residuals:", f"{np.linalg.norm(g_plain) / top:.1e}")
print("with residuals:   ", f"{np.linalg.norm(g_residual) / top:.2f}")
# --8<-- [end:gradient]
