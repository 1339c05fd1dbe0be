def split_heads(x, num_heads):
    """Cut every row of x (n rows of width d) into num_heads consecutive blocks.

    Each head gets ALL n rows, cut down to its own block of d_head = d / num_heads
    columns: heads[0] gets columns 0 to d_head - 1, heads[1] the next d_head, and so on.
    Return a list of num_heads heads, each a list of n rows of width d_head. If
    num_heads does not divide d, raise ValueError.

    split_heads([[1, 2, 3, 4], [5, 6, 7, 8]], 2) is [[[1, 2], [5, 6]], [[3, 4], [7, 8]]].
    """
    raise NotImplementedError("write split_heads(x, num_heads)")
