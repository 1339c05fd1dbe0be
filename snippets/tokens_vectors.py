"""Tokens to vectors: the model's embedding table, looked up and compared.

Run the file on its own from the repository's root with ``python snippets/tokens_vectors.py``.
"""

# --8<-- [start:lookup]
import numpy as np

from attention_ref.minilm import load_minilm

model = load_minilm()
E = model.word_embeddings  # (vocab_size, d): one learned row per id
print(E.shape)
sentence = "The animal didn't cross the street because it was too tired."
tokens, ids = model.tokenize(sentence)
rows = E[ids]  # (n, d): looking up is indexing
one_hot = np.zeros((len(ids), E.shape[0]))  # (n, vocab_size)
one_hot[np.arange(len(ids)), ids] = 1.0  # a single 1 per row
product = one_hot @ E  # (n, vocab_size) @ (vocab_size, d)
print(rows.shape, product.shape, bool(np.array_equal(product, rows)))
# --8<-- [end:lookup]


# --8<-- [start:similar]
def vector(word: str) -> np.ndarray:
    """The table's row of a word that is a single piece."""
    pieces, word_ids = model.tokenize(word)  # [CLS], word, [SEP]
    assert len(pieces) == 3, pieces
    return np.asarray(E[word_ids[1]], dtype=np.float64)  # (d,)


def cosine(a: str, b: str) -> float:
    u, v = vector(a), vector(b)
    return round(float(u @ v / np.linalg.norm(u) / np.linalg.norm(v)), 3)


# (word, a related word, an unrelated word)
TRIPLES = [("dog", "puppy", "car"), ("king", "queen", "banana"),
           ("tired", "exhausted", "street")]  # fmt: skip
for word, near, far in TRIPLES:
    print(f"{word:<6} {near:<10} {cosine(word, near):<6} "
          f"{far:<7} {cosine(word, far)}")  # fmt: skip
# --8<-- [end:similar]
