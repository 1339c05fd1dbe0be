"""What all-MiniLM-L6-v2 is for: sentence embeddings, compared by cosine similarity.

Run the file on its own from the repository's root with
``python snippets/sentence_embeddings.py``.
"""

# --8<-- [start:pooling]
import numpy as np

from attention_ref.minilm import load_minilm

model = load_minilm()
text = "The animal didn't cross the street because it was too tired."
run = model.run(text)
last = run.hidden_states[-1]  # (n, 384): every token after the sixth block
mean = last.mean(axis=0)  # (384,): average over the tokens
print(
    np.allclose(mean / np.linalg.norm(mean), run.embedding),
    round(float(np.linalg.norm(run.embedding)), 6),
)
# --8<-- [end:pooling]

# --8<-- [start:search]
corpus = [
    "The animal didn't cross the street because it was too tired.",
    "A tired dog lay down by the side of the road.",
    "The stock market fell sharply on Monday.",
    "Shares dropped just before the close of trading.",
    "She baked bread for the whole family.",
]
vectors = np.stack([model.run(s).embedding for s in corpus])  # (5, 384)

questions = [
    "An exhausted pet would not walk any further.",
    "Investors lost money today.",
]
for query in questions:
    scores = vectors @ model.run(query).embedding  # cosines: unit vectors
    print(query)
    for i in scores.argsort()[::-1][:3]:
        print(f"  {scores[i]:.2f}  {corpus[i]}")
# --8<-- [end:search]
