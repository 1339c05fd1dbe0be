import math

# Nothing is given in this step: write it with plain Python and math.


def tile_update(m, total, acc, scores, values):
    """One tile of FlashAttention, for one query: fold a block of keys into its state.

    The state after the blocks read so far is m, the largest score seen (-inf before
    the first block), total, the sum of exp(score - m) over those keys (0 at first),
    and acc, the sum of exp(score - m) * value over them (a list of d_v numbers, zeros at
    first). scores is the new block's scores for this query (B numbers, -inf for a
    masked key) and values the block's B value rows. Return the new (m, total, acc):
        m_new = max(m, largest of scores)
        c = exp(m - m_new)                 (moves the old sums onto the new maximum)
        p[j] = exp(scores[j] - m_new)
        total_new = c * total + p[0] + p[1] + ...
        acc_new[i] = c * acc[i] + p[0] * values[0][i] + p[1] * values[1][i] + ...
    Do not divide here: once every block has been folded in, the query's output is
    acc / total, and that division happens once, at the end.

    tile_update(-math.inf, 0.0, [0.0], [0.0], [[5.0]]) is (0.0, 1.0, [5.0]).
    """
    raise NotImplementedError("write tile_update(m, total, acc, scores, values)")
