# ruff: noqa: E402 (each section imports what it shows, where it shows it)
"""Three mask pitfalls: a fully masked row, -inf in float16, the opposite conventions.

Run the file on its own with ``python snippets/pitfalls.py``.
"""

# --8<-- [start:fully_masked]
import numpy as np

from attention_ref import attention_weights, softmax

row = np.array([-np.inf, -np.inf, -np.inf])  # (n_k,): every key masked
with np.errstate(invalid="ignore"):
    naive = np.exp(row) / np.exp(row).sum()  # 0 / 0
    shifted = row - row.max()  # -inf - (-inf)
print(naive.tolist(), shifted.tolist())
print(softmax(row).tolist())  # attention_ref: a row of zeros
# --8<-- [end:fully_masked]

# --8<-- [start:float16]
print(float(np.finfo(np.float16).max))  # the largest float16
with np.errstate(over="ignore"):
    big = np.array(-1e9).astype(np.float16)  # "minus a billion" as a mask
print(float(big))
# --8<-- [end:float16]

# --8<-- [start:conventions]
from worked_example import K, q  # the worked example's query and keys

keep = np.array([True, False, True])  # True = may attend: hide k_2
print(attention_weights(q, K, mask=keep).round(3).tolist())
print(attention_weights(q, K, mask=~keep).round(3).tolist())  # inverted
# --8<-- [end:conventions]
