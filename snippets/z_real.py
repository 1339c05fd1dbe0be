"""Z for the real model: token + position + segment embedding, then LayerNorm.

Checked against the first hidden state of attention_ref.minilm (the course's numpy copy
of the model, in float64), what its first attention layer receives. Run the file on
its own from the repository's root with ``python snippets/z_real.py``.
"""

# --8<-- [start:z]
import numpy as np

from attention_ref import layer_norm
from attention_ref.minilm import load_minilm

model = load_minilm()
sentence = "The animal didn't cross the street because it was too tired."
tokens, ids = model.tokenize(sentence)
n = len(ids)
summed = (
    model.word_embeddings[ids]  # (n, d): the token's row
    + model.position_embeddings[:n]  # (n, d): rows 0 .. n - 1
    + model.token_type_embeddings[0]  # (d,): segment A, every token
)
gain, bias = model.embeddings_norm  # (d,) each
Z = layer_norm(summed, gain, bias)  # (n, d)
print(Z.shape)

run = model.run(sentence)  # the whole model, layer by layer
first = run.hidden_states[0]  # (n, d): what layer 1 receives
diff = float(np.abs(Z - first).max())  # the largest difference
print(run.tokens == tokens, "largest difference below 1e-6:", diff < 1e-6)
# --8<-- [end:z]
