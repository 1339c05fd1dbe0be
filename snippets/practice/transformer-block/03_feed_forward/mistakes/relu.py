"""Uses ReLU in the hidden layer, as the original transformer did, where BERT uses GELU.

EXPECTED_HINT: ffn-relu
"""


def feed_forward(x, w_1, b_1, w_2, b_2):
    hidden = [
        max(0.0, sum(x[i] * w_1[i][j] for i in range(len(x))) + b_1[j]) for j in range(len(b_1))
    ]
    return [
        sum(hidden[j] * w_2[j][c] for j in range(len(hidden))) + b_2[c] for c in range(len(b_2))
    ]
