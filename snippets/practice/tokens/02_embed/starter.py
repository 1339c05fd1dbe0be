def embed(ids, table):
    """Look up the vector of each token: row ids[t] of the embedding table, for every t.

    table has one row per id of the vocabulary (row 0 is the vector of id 0), each row
    d numbers long. Return one row per token, in the order of ids: a list of len(ids)
    rows of width d. (Multiplying a one-hot row, all zeros but a 1 at place id, by the
    table gives the same row: lookup is that product without the zeros.)

    embed([2, 0], [[1, 1], [0, 5], [7, 3]]) is [[7, 3], [1, 1]].
    """
    raise NotImplementedError("write embed(ids, table)")
