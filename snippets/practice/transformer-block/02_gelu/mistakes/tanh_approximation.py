"""The tanh approximation (GPT-2's gelu_new), where the exact, erf-based GELU is asked.

EXPECTED_HINT: gelu-tanh
"""

import math


def gelu(x):
    return 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
