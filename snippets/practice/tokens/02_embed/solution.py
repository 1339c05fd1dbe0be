def embed(ids, table):
    """Row ids[t] of the table for every token t (copied, so the table is left alone)."""
    return [list(table[token_id]) for token_id in ids]
