"""Keeps the pieces found so far and adds [UNK] for the rest, instead of [UNK] alone.

EXPECTED_HINT: wp-partial-unk
"""


def wordpiece(word, vocab):
    ids = []
    start = 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
            end -= 1
        if end == start:
            ids.append(vocab["[UNK]"])
            return ids
        ids.append(vocab[piece])
        start = end
    return ids
