def dot(a, b):
    """Return the dot product of two lists of numbers of the same length.

    dot([1, 2, 3], [4, 5, 6]) is 1*4 + 2*5 + 3*6 = 32.
    """
    # Multiply the entries that sit at the same position, then add the products up.
    raise NotImplementedError("write dot(a, b)")
