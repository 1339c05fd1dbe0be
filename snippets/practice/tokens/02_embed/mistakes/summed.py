"""Adds the rows up into one vector (a bag of words) instead of one row per token.

EXPECTED_HINT: embed-summed
"""


def embed(ids, table):
    d = len(table[0])
    return [sum(table[token_id][j] for token_id in ids) for j in range(d)]
