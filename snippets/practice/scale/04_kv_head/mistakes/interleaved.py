"""Deals the query heads out in turn (interleaved), i % n_kv_heads, instead of in groups.

EXPECTED_HINT: gqa-interleaved
"""


def kv_head(i, n_heads, n_kv_heads):
    if n_heads % n_kv_heads != 0:
        raise ValueError(f"n_heads ({n_heads}) must be a multiple of n_kv_heads ({n_kv_heads})")
    return i % n_kv_heads
