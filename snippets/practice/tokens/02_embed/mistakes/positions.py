"""Takes row t for the token at place t: the token's place instead of its id.

EXPECTED_HINT: embed-place
"""


def embed(ids, table):
    return [list(table[t]) for t in range(len(ids))]
