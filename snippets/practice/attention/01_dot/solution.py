def dot(a, b):
    """Return the dot product of two lists of numbers of the same length."""
    total = 0.0
    for x, y in zip(a, b):
        total += x * y
    return total
