def project(x, w):
    """Multiply a sequence x by a weight matrix w, one token (one row of x) at a time.

    x is n rows of width d_in (one row per token); w is d_in rows of width d_out.
    Rows are vectors, as in the lesson (Q = X W): row i of the answer is x[i] times w,
    and its entry j is x[i][0]*w[0][j] + x[i][1]*w[1][j] + ... (row i of x against
    column j of w). Return n rows of width d_out.

    project([[1, 2]], [[1, 0, 2], [0, 1, 3]]) is [[1, 2, 8]].
    """
    raise NotImplementedError("write project(x, w)")
