import math

# Nothing is given in this step: write it with plain Python.


def sliding_window_mask(n, window):
    """The causal sliding-window mask of n tokens: each query sees its last `window` keys.

    Return n lists of n booleans: mask[i][j] is True when query i may attend to key j
    (True = attend, as in the lessons and in PyTorch). Query i sees key j when j is not
    in the future (j <= i) and is among the `window` most recent keys, itself included:
    i - window < j <= i. A window of 1 sees only itself; a window of n or more is the
    plain causal mask.

    sliding_window_mask(3, 2) is [[True, False, False], [True, True, False],
    [False, True, True]].
    """
    raise NotImplementedError("write sliding_window_mask(n, window)")
