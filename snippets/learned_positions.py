"""Learned positions: all-MiniLM-L6-v2's 512 position rows, and how alike they are.

Run the file on its own from the repository's root with
``python snippets/learned_positions.py``.
"""

# --8<-- [start:similarity]
import numpy as np

from attention_ref.minilm import load_minilm

model = load_minilm()
P = np.asarray(model.position_embeddings, dtype=np.float64)  # (512, d)
print(P.shape)
unit = P / np.linalg.norm(P, axis=1, keepdims=True)  # rows of length 1
C = unit @ unit.T  # (512, 512): the cosine of every pair of rows
by_distance = [  # by_distance[k]: the mean cosine of the pairs k apart
    float(np.diagonal(C, offset=k).mean()) for k in range(512)
]
for k in (1, 2, 3, 6, 10, 100):
    print(f"{k} apart: mean cosine {round(by_distance[k], 3)}")
far = np.abs(np.subtract.outer(range(512), range(512))) >= 100
print("100 or more apart:", round(float(C[far].mean()), 3))
lowest = int(np.argmin(by_distance))  # the most opposed distance
print(f"lowest: {lowest} apart, {round(by_distance[lowest], 3)}")
# --8<-- [end:similarity]
