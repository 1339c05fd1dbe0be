import math

# Steps 2 and 3, written out for you (they pass their checks). Use them, or paste your
# own in their place.


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
    """Z: each token's vector plus the sinusoidal vector of its place in the sentence.

    The first token is at position 0, the next at position 1, and so on; d is the
    width of the table's rows. Row t of the answer is embed(ids, table)[t] plus
    sinusoidal(t, d), entry by entry. The same word at two places now gets two
    different rows, so "dog bites man" and "man bites dog" give different Z.

    add_positions([1], [[5, 5], [1, 2]]) is [[1 + sin(0), 2 + cos(0)]] = [[1.0, 3.0]].
    """
    raise NotImplementedError("write add_positions(ids, table)")
