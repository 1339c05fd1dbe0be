"""Positions without learning: the sinusoidal encoding and rotary embeddings (RoPE).

Run the file on its own from the repository's root with ``python snippets/positions.py``.
"""

# --8<-- [start:frequencies]
import numpy as np

from attention_ref import (
    apply_rope,
    position_frequencies,
    sinusoidal_positions,
    sinusoidal_shift,
)

w = position_frequencies(384)  # (d / 2,) = (192,): one per pair
for i in (0, 1, 2, 95, 191):
    turn = 2 * np.pi / w[i]  # positions for one full turn
    rate = f"{w[i]:.3g} rad a position"
    print(f"pair {i}: {rate}, one turn in {turn:,.1f} positions")
# --8<-- [end:frequencies]

# --8<-- [start:sinusoidal]
PE = sinusoidal_positions(512, 384)  # (n_positions, d): a row per position
print(PE.shape)
for p in (0, 1, 2):  # the first six entries: pairs 0, 1 and 2
    print(p, PE[p, :6].round(3).tolist())
# --8<-- [end:sinusoidal]

# --8<-- [start:shift]
M = sinusoidal_shift(3, 384)  # (d, d): the same matrix for every p
for p in (0, 10, 200):
    moved = PE[p] @ M  # (d,): row p times M
    print(p, "->", p + 3, bool(np.allclose(moved, PE[p + 3])))
print("rotation:", bool(np.allclose(M @ M.T, np.eye(384))))
print("2 x 2 blocks:", bool(np.count_nonzero(M) == 4 * 192))
# --8<-- [end:shift]

# --8<-- [start:rope]
rng = np.random.default_rng(seed=0)
q, k = rng.standard_normal((2, 64))  # one query and one key, d = 64


def score(i: int, j: int) -> float:
    """The query at position i against the key at position j."""
    q_i = apply_rope(q[np.newaxis], [i])[0]  # (d,): q turned by i
    k_j = apply_rope(k[np.newaxis], [j])[0]  # (d,): k turned by j
    return round(float(q_i @ k_j), 4)


for i, j in ((3, 0), (7, 4), (103, 100), (7, 2)):
    print(f"i = {i:>3}, j = {j:>3}, i - j = {i - j}: {score(i, j)}")
# --8<-- [end:rope]

# --8<-- [start:added]
PE_64 = sinusoidal_positions(200, 64)  # (n_positions, d) for d = 64
Z_q, Z_k = q + PE_64, k + PE_64  # added to the vectors: (200, 64) each
for i, j in ((3, 0), (7, 4), (103, 100)):
    print(f"i = {i:>3}, j = {j:>3}: {round(float(Z_q[i] @ Z_k[j]), 4)}")
# --8<-- [end:added]
