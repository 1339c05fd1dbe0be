def kv_head(i, n_heads, n_kv_heads):
    """Consecutive query heads share a key/value head, n_heads // n_kv_heads of them."""
    if n_heads % n_kv_heads != 0:
        raise ValueError(f"n_heads ({n_heads}) must be a multiple of n_kv_heads ({n_kv_heads})")
    return i // (n_heads // n_kv_heads)
