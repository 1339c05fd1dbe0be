"""Divides with /, which gives a float (1.25), not a head's number.

EXPECTED_HINT: gqa-true-division
"""


def kv_head(i, n_heads, n_kv_heads):
    if n_heads % n_kv_heads != 0:
        raise ValueError(f"n_heads ({n_heads}) must be a multiple of n_kv_heads ({n_kv_heads})")
    return i / (n_heads / n_kv_heads)
