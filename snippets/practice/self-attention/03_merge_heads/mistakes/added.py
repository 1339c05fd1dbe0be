"""Adds the heads entry by entry instead of joining them: rows stay d_head wide.

EXPECTED_HINT: merge-added
"""


def merge_heads(heads):
    n, d_head = len(heads[0]), len(heads[0][0])
    return [[sum(head[t][c] for head in heads) for c in range(d_head)] for t in range(n)]
