"""Accepts a bare (whole-word) piece in the middle of a word when no ## piece matches.

EXPECTED_HINT: wp-bare-mid
"""


def wordpiece(word, vocab):
    ids = []
    start = 0
    while start < len(word):
        end = len(word)
        piece = None
        while end > start:
            rest = word[start:end]
            if start == 0 and rest in vocab:
                piece = rest
            elif start > 0 and "##" + rest in vocab:
                piece = "##" + rest
            elif start > 0 and rest in vocab:
                piece = rest
            if piece is not None:
                break
            end -= 1
        if piece is None:
            return [vocab["[UNK]"]]
        ids.append(vocab[piece])
        start = end
    return ids
