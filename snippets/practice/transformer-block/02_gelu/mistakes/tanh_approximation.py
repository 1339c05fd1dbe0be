"""The tanh approximation (gelu_new in transformers; the gelu of the BERT and GPT-2 codes).

The exact, erf-based GELU is asked.

EXPECTED_HINT: gelu-tanh
"""

import math


def gelu(x):
    return 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
