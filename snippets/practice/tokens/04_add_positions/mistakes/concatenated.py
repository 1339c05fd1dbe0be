"""Appends the position vector to the token vector (width 2d) instead of adding it.

EXPECTED_HINT: add-concatenated
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
    return [row + sinusoidal(t, d) for t, row in enumerate(rows)]
