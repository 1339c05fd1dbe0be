"""Returns the exponentials without dividing by their sum.

EXPECTED_HINT: not-normalised
"""

import math


def softmax(scores):
    m = max(scores)
    return [math.exp(s - m) for s in scores]
