"""Why softmax: positive and monotone, blind to a shift, argmax in the cold limit.

And its Jacobian, diag(p) - p pᵀ, checked against finite differences. Uses the
worked example's scaled scores. Run the file on its own with
``python snippets/softmax_why.py``.
"""

# --8<-- [start:properties]
import numpy as np

from attention_ref import scaled_scores, softmax, softmax_jacobian

from worked_example import K, q

z = scaled_scores(q, K)  # (n_k,): the worked example's scaled scores
print(softmax(z + 100).round(3).tolist(), "z + 100")
for t in (1, 0.1, 0.01):  # temperature: softmax(z / t)
    print(softmax(z / t).round(3).tolist(), f"z / {t}")
# --8<-- [end:properties]

# --8<-- [start:jacobian]
p = softmax(z)  # (n,)
J = softmax_jacobian(p)  # (n, n): J[i, j] = d p_i / d z_j
print(J.round(3).tolist())

h = 1e-6  # nudge each score in turn and watch every weight move
nudged = [(softmax(z + h * np.eye(3)[j]) - p) / h for j in range(3)]
print(np.allclose(np.array(nudged).T, J, atol=1e-5))
print(np.allclose(J.sum(axis=0), 0))  # the weights still add up to 1

reach = np.abs(J).sum(axis=0)  # (n,): how much z_j moves all the weights
print(reach.round(3).tolist(), np.allclose(reach, 2 * p * (1 - p)))
# --8<-- [end:jacobian]
