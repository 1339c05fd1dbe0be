"""Layer normalisation, token by token, and where the norm sits in a block.

Run the file on its own from the repository's root with ``python snippets/layer_norm.py``.
"""

# --8<-- [start:normalise]
import numpy as np

from attention_ref.block import layer_norm

x = np.array([[1.0, 2.0, 3.0, 6.0], [10.0, 20.0, 30.0, 60.0]])  # (n, d)
d = x.shape[1]
y = layer_norm(x, np.ones(d), np.zeros(d))  # gain 1, bias 0
print(y.round(3).tolist())
print("means", np.abs(y.mean(axis=1)).round(6).tolist())
print("variances", y.var(axis=1).round(6).tolist())

gain, bias = np.array([2.0, 1.0, 1.0, 0.5]), np.array([0.0, 1.0, 0.0, 0.0])
print(layer_norm(x[:1], gain, bias).round(3).tolist())
# --8<-- [end:normalise]
