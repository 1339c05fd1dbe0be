"""Counts the query heads from 1, (i + 1) // group: the last head of each group is one off.

EXPECTED_HINT: gqa-off-by-one
"""


def kv_head(i, n_heads, n_kv_heads):
    if n_heads % n_kv_heads != 0:
        raise ValueError(f"n_heads ({n_heads}) must be a multiple of n_kv_heads ({n_kv_heads})")
    return (i + 1) // (n_heads // n_kv_heads)
