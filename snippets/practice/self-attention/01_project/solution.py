def project(x, w):
    """Q = X W: row i of the answer is x[i] times w (rows are vectors)."""
    d_in, d_out = len(w), len(w[0])
    return [[sum(row[k] * w[k][j] for k in range(d_in)) for j in range(d_out)] for row in x]
