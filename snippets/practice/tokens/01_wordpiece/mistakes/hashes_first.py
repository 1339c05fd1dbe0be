"""Puts "##" in front of every piece, the first one too.

EXPECTED_HINT: wp-hashes-first
"""


def wordpiece(word, vocab):
    ids = []
    start = 0
    while start < len(word):
        end = len(word)
        while end > start and "##" + word[start:end] not in vocab:
            end -= 1
        if end == start:
            return [vocab["[UNK]"]]
        ids.append(vocab["##" + word[start:end]])
        start = end
    return ids
