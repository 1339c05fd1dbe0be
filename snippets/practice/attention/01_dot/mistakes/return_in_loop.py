"""The `return` is indented inside the loop: only the first pair counts.

EXPECTED_HINT: return-in-loop
"""


def dot(a, b):
    total = 0
    for x, y in zip(a, b):
        total += x * y
        return total
