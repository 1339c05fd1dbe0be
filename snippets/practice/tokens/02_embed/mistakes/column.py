"""Takes column id of the table (entry id of every row) instead of row id.

EXPECTED_HINT: embed-column
"""


def embed(ids, table):
    return [[row[token_id] for row in table] for token_id in ids]
