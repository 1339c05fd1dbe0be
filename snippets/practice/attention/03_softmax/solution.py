import math


def softmax(scores):
    """Weights exp(s - m) / sum(exp(s - m)), with m the largest score (no overflow)."""
    m = max(scores)
    exps = [math.exp(s - m) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]
