"""Looks every piece up as it is, without "##" in front of the continuing pieces.

EXPECTED_HINT: wp-no-hashes
"""


def wordpiece(word, vocab):
    ids = []
    start = 0
    while start < len(word):
        end = len(word)
        while end > start and word[start:end] not in vocab:
            end -= 1
        if end == start:
            return [vocab["[UNK]"]]
        ids.append(vocab[word[start:end]])
        start = end
    return ids
