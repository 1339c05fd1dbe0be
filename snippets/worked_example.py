"""The lesson's worked example, one step per named section.

One query, three keys, three values: every number the lesson page prints for the
example comes from running these sections. Run the file on its own with
``python snippets/worked_example.py``. Lines are kept short so that the page shows
them without a scroll bar.

The ``data`` section is the one place where the example's inputs are written. Every
other snippet, the explorer's data, the practice checks and the tests read them from
here (``from worked_example import q, K, V``): change an input here, then run
``make outputs`` (CONTRIBUTING.md, "Change the worked example").
"""

# --8<-- [start:data]
import numpy as np

from attention_ref import (
    scale_scores,
    scaled_dot_product_attention,
    scores,
    softmax,
)

q = np.array([1, 0, 1, 0])  # (d_k,) = (4,): the query

k_1 = [1, 0, 1, 0]  # the same pattern as q
k_2 = [0, 1, 0, 1]  # no overlap with q
k_3 = [1, 0, 0, 0]  # half of q's pattern
K = np.array([k_1, k_2, k_3])  # (n_k, d_k) = (3, 4)

v_1, v_2, v_3 = [10, 0], [0, 5], [2, 2]
V = np.array([v_1, v_2, v_3])  # (n_k, d_v) = (3, 2)
# --8<-- [end:data]

# Imported for its inputs (``from worked_example import q, K, V``), or run by a tool
# that wants them, the file prints nothing: its steps print when it runs as a script.
if __name__ != "__main__":

    def print(*args: object, **kwargs: object) -> None:
        """Print nothing: the importer came for the inputs."""


# --8<-- [start:scores]
s = scores(q, K)  # (n_k,): one dot product per key
print(s.tolist())
# --8<-- [end:scores]

# --8<-- [start:by_hand]
for j, k_j in enumerate(K, start=1):
    terms = [f"{a}·{b}" for a, b in zip(q, k_j, strict=True)]
    print(f"q·k_{j} = {' + '.join(terms)} = {s[j - 1]:g}")
# --8<-- [end:by_hand]

# --8<-- [start:scale]
d_k = K.shape[-1]
print("d_k =", d_k, " sqrt(d_k) =", float(np.sqrt(d_k)))

scaled = scale_scores(s, d_k)  # (n_k,): s / sqrt(d_k)
print(scaled.tolist())
# --8<-- [end:scale]

# --8<-- [start:exp]
e = np.exp(scaled)  # (n_k,): the softmax numerators
print(e.round(2).tolist(), "sum:", round(float(e.sum()), 2))
# --8<-- [end:exp]

# --8<-- [start:softmax]
weights = softmax(scaled)  # (n_k,): alpha_1, alpha_2, alpha_3
print(weights.round(3).tolist())
print("sum:", round(float(weights.sum()), 12))
# --8<-- [end:softmax]

# --8<-- [start:contributions]
# (n_k, d_v): row j is alpha_j * v_j
contributions = weights[:, np.newaxis] * V
print(contributions.round(3).tolist())
# --8<-- [end:contributions]

# --8<-- [start:aggregate]
output = contributions.sum(axis=0)  # (d_v,): add up the rows
print(output.round(3).tolist())
print(output.round(2).tolist())  # to two decimals, as from here on
# --8<-- [end:aggregate]

# --8<-- [start:contribution]
moved = np.linalg.norm(contributions, axis=1)  # (n_k,): |alpha_j v_j|
share = 100 * contributions / output  # (n_k, d_v): % of each coordinate
print("weight    ", weights.round(3).tolist())
print("moves by  ", moved.round(3).tolist())
print("% of out  ", share.round().astype(int).tolist())
# --8<-- [end:contribution]

# --8<-- [start:one_call]
same = scaled_dot_product_attention(q, K, V)  # (d_v,)
print(same.round(2).tolist())
# --8<-- [end:one_call]

# --8<-- [start:agrees]
print(np.allclose(same, output))  # the step-by-step answer?
# --8<-- [end:agrees]

# --8<-- [start:unscaled]
unscaled = softmax(s)  # the weights without the division
print(unscaled.round(3).tolist())
# --8<-- [end:unscaled]

# --8<-- [start:matrix]
Q = np.array([q, k_2])  # (n_q, d_k) = (2, 4): q, and a query like k_2

S = scores(Q, K)  # (n_q, n_k) = (2, 3)
A = softmax(scale_scores(S, d_k))  # (n_q, n_k): a row per query
out = A @ V  # (n_q, d_v) = (2, 2): an output row per query
print(S.shape, A.shape, out.shape)
print(A.round(3).tolist())
print(out.round(2).tolist())
print(np.allclose(out, scaled_dot_product_attention(Q, K, V)))
# --8<-- [end:matrix]
