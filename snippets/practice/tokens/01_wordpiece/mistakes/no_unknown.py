"""Never falls back to [UNK]: looking up a piece that is not there raises KeyError.

EXPECTED_HINT: wp-no-unk
"""


def wordpiece(word, vocab):
    ids = []
    start = 0
    while start < len(word):
        end = len(word)
        while end > start + 1:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
            end -= 1
        piece = word[start:end] if start == 0 else "##" + word[start:end]
        ids.append(vocab[piece])
        start = end
    return ids
