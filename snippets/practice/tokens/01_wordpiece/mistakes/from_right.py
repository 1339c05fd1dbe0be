"""Greedy longest match from the end of the word, instead of from its start.

EXPECTED_HINT: wp-from-right
"""


def wordpiece(word, vocab):
    ids = []
    end = len(word)
    while end > 0:
        start = 0
        while start < end:  # the longest suffix first
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
            start += 1
        if start == end:
            return [vocab["[UNK]"]]
        ids.insert(0, vocab[piece])
        end = start
    return ids
