"""Joins the heads last one first.

EXPECTED_HINT: merge-reversed
"""


def merge_heads(heads):
    n = len(heads[0])
    return [[value for head in heads[::-1] for value in head[t]] for t in range(n)]
