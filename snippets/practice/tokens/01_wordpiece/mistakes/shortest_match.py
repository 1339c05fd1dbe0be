"""Takes the SHORTEST piece that matches at each place instead of the longest.

EXPECTED_HINT: wp-shortest
"""


def wordpiece(word, vocab):
    ids = []
    start = 0
    while start < len(word):
        end = start + 1
        while end <= len(word):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
            end += 1
        if end > len(word):
            return [vocab["[UNK]"]]
        ids.append(vocab[piece])
        start = end
    return ids
