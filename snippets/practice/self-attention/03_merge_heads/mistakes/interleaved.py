"""Deals the columns back in turn: heads[0]'s first, heads[1]'s first, ... (zip of the rows).

EXPECTED_HINT: merge-interleaved
"""


def merge_heads(heads):
    merged = []
    for t in range(len(heads[0])):
        row = []
        for values in zip(*(head[t] for head in heads)):
            row.extend(values)
        merged.append(row)
    return merged
