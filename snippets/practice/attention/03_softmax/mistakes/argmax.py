"""Gives all the weight to the largest score (a hard maximum, not a soft one).

EXPECTED_HINT: argmax
"""


def softmax(scores):
    best = scores.index(max(scores))
    return [1.0 if i == best else 0.0 for i in range(len(scores))]
