import math

# Nothing is given in this step: write it with plain Python.


def kv_head(i, n_heads, n_kv_heads):
    """Which key/value head query head i reads, in grouped-query attention.

    A layer has n_heads query heads but only n_kv_heads heads of keys and values. The
    query heads are split into n_kv_heads groups of n_heads // n_kv_heads CONSECUTIVE
    heads, and every head of a group reads the same keys and values: with 8 query heads
    and 2 key/value heads, heads 0-3 read head 0 and heads 4-7 read head 1 (as PyTorch's
    enable_gqa does). Return that head's number, an int from 0 to n_kv_heads - 1.

    When n_heads is not a multiple of n_kv_heads the groups cannot be equal: raise a
    ValueError whose message gives both numbers.

    kv_head(5, 8, 2) is 1.
    """
    raise NotImplementedError("write kv_head(i, n_heads, n_kv_heads)")
