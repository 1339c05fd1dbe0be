"""Right blocks, but 6 columns and 4 heads silently give 4 heads of width 1.

EXPECTED_HINT: heads-not-divisible
"""


def split_heads(x, num_heads):
    d_head = len(x[0]) // num_heads
    return [[row[i * d_head : (i + 1) * d_head] for row in x] for i in range(num_heads)]
