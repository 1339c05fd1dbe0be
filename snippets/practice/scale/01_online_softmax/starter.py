import math

# Nothing is given in this step: write it with plain Python and math.


def online_softmax(x, block):
    """Softmax of the list x, read once, block by block, as FlashAttention reads scores.

    x is a list of n scores (-inf marks a masked key); block is how many entries are
    read at a time (the last block may be shorter). Keep two numbers while reading: m,
    the largest score seen so far (start at -inf), and total, the sum of exp(score - m)
    over the scores seen so far (start at 0). For each block:
        m_new = max(m, largest score of the block)
        total = total * exp(m - m_new) + (sum of exp(v - m_new) over the block)
        m = m_new
    The factor exp(m - m_new) moves the old terms onto the new maximum. Then weight i
    is exp(x[i] - m) / total. A list of -inf only gets weight 0 everywhere.

    online_softmax([0.0, math.log(3)], 1) is [0.25, 0.75].
    """
    raise NotImplementedError("write online_softmax(x, block)")
