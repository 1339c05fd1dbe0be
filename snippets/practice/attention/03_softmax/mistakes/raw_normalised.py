"""Normalises the raw scores instead of their exponentials.

EXPECTED_HINT: raw-normalised
"""


def softmax(scores):
    total = sum(scores)
    return [s / total for s in scores]
