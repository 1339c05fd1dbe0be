def sliding_window_mask(n, window):
    """Key j is visible from query i when it is one of the window keys ending at i."""
    return [[i - window < j <= i for j in range(n)] for i in range(n)]
