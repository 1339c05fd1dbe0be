import math


def padded_attention(q, k, v, keep):
    """Attention over a batch of sequences padded to one length, with a padding mask.

    q, k and v hold one entry per sequence of the batch: q[s] is that sequence's
    queries (rows of width d_k), k[s] and v[s] its keys and values (n_k rows each,
    the last ones padding when the sequence is short). keep[s][j] is True when key j
    of sequence s is a real token, which may be attended to, and False for padding.
    The queries of sequence s attend only to the real keys of sequence s: scores
    divided by sqrt(d_k), softmax, blend of the values. A sequence with no real key
    gives a row of zeros for each of its queries. Return one list of rows per sequence.
    """
    raise NotImplementedError("write padded_attention(q, k, v, keep)")
