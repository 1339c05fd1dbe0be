"""Uses the token's id as its position: sinusoidal(ids[t], d) instead of sinusoidal(t, d).

EXPECTED_HINT: add-by-id
"""

import math


def embed(ids, table):
    """Step 2: row ids[t] of the table for every token t."""
    return [list(table[token_id]) for token_id in ids]


def sinusoidal(p, d):
    """Step 3: the sinusoidal vector of position p, d numbers long."""
    out = []
    for i in range(d // 2):
        angle = p / 10000 ** (2 * i / d)
        out += [math.sin(angle), math.cos(angle)]
    return out


def add_positions(ids, table):
    d = len(table[0])
    rows = embed(ids, table)
    return [[e + s for e, s in zip(row, sinusoidal(i, d))] for i, row in zip(ids, rows)]
