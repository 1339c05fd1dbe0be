"""Divides by the number of key/value heads, not by the size of a group.

EXPECTED_HINT: gqa-by-kv-heads
"""


def kv_head(i, n_heads, n_kv_heads):
    if n_heads % n_kv_heads != 0:
        raise ValueError(f"n_heads ({n_heads}) must be a multiple of n_kv_heads ({n_kv_heads})")
    return i // n_kv_heads
