"""Right answers, but written into the caller's list: the scores are gone after the call.

EXPECTED_HINT: mutated-input
"""

import math


def softmax(scores):
    m = max(scores)
    for i in range(len(scores)):
        scores[i] = math.exp(scores[i] - m)
    total = sum(scores)
    for i in range(len(scores)):
        scores[i] = scores[i] / total
    return scores
