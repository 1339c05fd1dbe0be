def merge_heads(heads):
    """Row t: row t of every head, joined in the order of the heads."""
    n = len(heads[0])
    return [[value for head in heads for value in head[t]] for t in range(n)]
