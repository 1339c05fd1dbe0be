"""Right blocks, wrong nesting: one list per token holding its pieces (n x h x d_head).

EXPECTED_HINT: heads-outer
"""


def split_heads(x, num_heads):
    d = len(x[0])
    if d % num_heads != 0:
        raise ValueError("num_heads must divide the width of x")
    d_head = d // num_heads
    return [[row[i * d_head : (i + 1) * d_head] for i in range(num_heads)] for row in x]
