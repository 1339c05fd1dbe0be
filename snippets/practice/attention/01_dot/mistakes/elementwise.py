"""Returns the list of products instead of their sum.

EXPECTED_HINT: dot-no-sum
"""


def dot(a, b):
    return [x * y for x, y in zip(a, b)]
