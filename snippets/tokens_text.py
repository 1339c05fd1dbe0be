"""Text to tokens: all-MiniLM-L6-v2's own WordPiece tokenizer on the course's sentence.

Run the file on its own from the repository's root with ``python snippets/tokens_text.py``.
"""

# --8<-- [start:tokenize]
from attention_ref.minilm import load_minilm

model = load_minilm()  # all-MiniLM-L6-v2: its tokenizer and its weights
sentence = "The animal didn't cross the street because it was too tired."
tokens, ids = model.tokenize(sentence)  # tokens: list[str], ids: (n,)
print(len(tokens), "tokens")
print(tokens[:8], tokens[8:], sep="\n")  # in two lines of 8
print(ids[:8].tolist(), ids[8:].tolist(), sep="\n")
# --8<-- [end:tokenize]

# --8<-- [start:pieces]
vocab_size = model.word_embeddings.shape[0]  # one row per piece
print(f"{vocab_size:,} pieces in the vocabulary")
for text in ("embeddings", "pizza 🍕", "pizza🍕", "Café naïve"):
    print(repr(text), "->", model.tokenize(text)[0])
# --8<-- [end:pieces]
