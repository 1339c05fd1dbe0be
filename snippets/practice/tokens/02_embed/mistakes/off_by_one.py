"""Counts the rows from 1: takes row id - 1 (ids start at 0, like Python's lists).

EXPECTED_HINT: embed-off-by-one
"""


def embed(ids, table):
    return [list(table[token_id - 1]) for token_id in ids]
