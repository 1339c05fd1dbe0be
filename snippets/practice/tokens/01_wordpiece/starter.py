def wordpiece(word, vocab):
    """Split one lower-case word into WordPiece ids: greedy, longest match first.

    vocab maps each piece of text to its id. Start at the beginning of the word and
    take the LONGEST piece of it that is in vocab; carry on from where that piece
    ended, and so on to the end of the word. A piece that does not start the word is
    looked up with "##" in front of it ("##able"). If at some point no piece matches,
    the whole word becomes one id, vocab["[UNK]"].

    With vocab = {"[UNK]": 0, "un": 1, "##able": 2, "able": 3}:
    wordpiece("unable", vocab) is [1, 2] and wordpiece("able", vocab) is [3].
    """
    raise NotImplementedError("write wordpiece(word, vocab)")
