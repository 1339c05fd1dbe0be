def wordpiece(word, vocab):
    """Greedy longest-match-first WordPiece; an unsplittable word is [UNK]."""
    ids = []
    start = 0
    while start < len(word):
        end = len(word)
        while end > start:  # try the longest piece first, then shorter ones
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
            end -= 1
        if end == start:  # nothing matched here: the whole word is unknown
            return [vocab["[UNK]"]]
        ids.append(vocab[piece])
        start = end
    return ids
