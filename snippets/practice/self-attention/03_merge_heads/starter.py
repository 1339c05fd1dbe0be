def merge_heads(heads):
    """Undo split_heads: put the heads back side by side.

    heads is a list of num_heads heads, each n rows of width d_head. Row t of the
    answer is row t of heads[0], then row t of heads[1], and so on: n rows of width
    num_heads * d_head.

    merge_heads([[[1, 2], [5, 6]], [[3, 4], [7, 8]]]) is [[1, 2, 3, 4], [5, 6, 7, 8]].
    """
    raise NotImplementedError("write merge_heads(heads)")
