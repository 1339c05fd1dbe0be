def split_heads(x, num_heads):
    """Head i: columns i*d_head to (i + 1)*d_head - 1 of every row of x."""
    d = len(x[0])
    if d % num_heads != 0:
        raise ValueError(f"num_heads = {num_heads} does not divide the width of x, {d}")
    d_head = d // num_heads
    return [[row[i * d_head : (i + 1) * d_head] for row in x] for i in range(num_heads)]
