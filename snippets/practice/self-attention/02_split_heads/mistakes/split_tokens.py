"""Splits the sequence (the rows) into groups of tokens instead of the columns.

EXPECTED_HINT: heads-tokens
"""


def split_heads(x, num_heads):
    if len(x[0]) % num_heads != 0:
        raise ValueError("num_heads must divide the width of x")
    size = len(x) // num_heads
    return [x[i * size : (i + 1) * size] for i in range(num_heads)]
