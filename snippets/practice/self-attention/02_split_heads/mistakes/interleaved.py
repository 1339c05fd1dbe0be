"""Deals the columns out like cards: head i gets columns i, i + h, i + 2h, ...

EXPECTED_HINT: heads-interleaved
"""


def split_heads(x, num_heads):
    if len(x[0]) % num_heads != 0:
        raise ValueError("num_heads must divide the width of x")
    return [[row[i::num_heads] for row in x] for i in range(num_heads)]
