"""Hidden checks for lesson 0, step 1: WordPiece, greedy and longest match first.

Run them on any file: ``python checks.py ANSWER.py`` where the harness lies beside
them (as in the page's downloads), or ``python ../../_harness.py checks.py ANSWER.py``
from this folder in the repository. Either prints every check and exits with status
0 only when all of them pass. Expected values are worked out by hand
(fixed cases) or by the plain algorithm below (seeded random words).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator

import _harness as h

TITLE = "Lesson 0, step 1, WordPiece"
FUNCTION = "wordpiece"
PARAMS = ("word", "vocab")
FALLBACK_HINT = "wp-wrong"

#: The hints this step gives for its own mistakes (the harness adds its common ones).
HINTS: dict[str, str] = {
    "wp-shortest": "You took the SHORTEST piece that matches. WordPiece is greedy the other "
    "way: at each place, try the whole rest of the word first, then one character less, "
    "and so on, and keep the first (longest) piece that is in vocab.",
    "wp-no-hashes": "A piece that continues a word is written with ## in front in the "
    'vocabulary: after "un", look up "##able", not "able". Only the first piece of a word '
    "is looked up as it is.",
    "wp-hashes-first": 'The first piece of a word has no ##: look up "un", not "##un". Put '
    "## in front only of the pieces that continue the word.",
    "wp-partial-unk": "When no piece matches somewhere in the word, the WHOLE word becomes "
    'one [UNK]: return [vocab["[UNK]"]] alone, without the pieces found before it.',
    "wp-no-unk": "A piece was looked up that is not in vocab (KeyError). Test `piece in vocab` "
    "before using vocab[piece]; if not even one character matches at some place, the "
    'answer is [vocab["[UNK]"]].',
    "wp-from-right": "You matched from the END of the word. WordPiece goes from the start: "
    "take the longest piece that begins the word, then the longest ## piece that begins "
    "what is left, and so on. From the right, 'playable' would give pla, ##yable.",
    "wp-bare-mid": "Inside a word, only a ## piece may continue it: after 'un', the whole-"
    "word piece 'ables' does not count, even though it is in vocab. Look up '##' + the "
    "rest there, and a bare piece only at the start of the word.",
    "wp-wrong": "From the start of the word, repeatedly take the longest piece that is in "
    "vocab (with ## in front if it does not start the word) and move past it; if nothing "
    'matches at some place, return [vocab["[UNK]"]].',
}

Vocab = dict[str, int]

#: A small vocabulary: whole-word pieces and ## continuations.
VOCAB: Vocab = {
    "[UNK]": 0,
    "un": 1,
    "u": 2,
    "##aff": 3,
    "##able": 4,
    "##a": 5,
    "##ff": 6,
    "##ble": 7,
    "able": 8,
    "aff": 9,
    "##n": 10,
    "play": 11,
    "##ing": 12,
    "##s": 13,
    "p": 14,
    "##lay": 15,
    "##i": 16,
    "##ng": 17,
    "##un": 18,
    # Pieces that tell two more wrong splits apart (see the cases that use them).
    "ables": 19,
    "pla": 20,
    "##yable": 21,
}


def expected(word: str, vocab: Vocab) -> list[int]:
    """Greedy longest-match-first, written independently of any answer."""
    ids: list[int] = []
    i = 0
    while i < len(word):
        prefix = "##" if i else ""
        match = next(
            (j for j in range(len(word), i, -1) if prefix + word[i:j] in vocab),
            None,
        )
        if match is None:
            return [vocab["[UNK]"]]
        ids.append(vocab[prefix + word[i:match]])
        i = match
    return ids


def cases() -> list[h.Case]:
    fixed = [
        # un + ##aff + ##able (not u + ##n + ##a + ##ff + ##a + ##ble, nor un + aff + able).
        h.Case("'unaffable' is un, ##aff, ##able", ("unaffable", VOCAB), [1, 3, 4]),
        # play + ##ing: the longest first piece is "play", not "p".
        h.Case("'playing' is play, ##ing", ("playing", VOCAB), [11, 12]),
        h.Case("'plays' is play, ##s", ("plays", VOCAB), [11, 13]),
        # A whole word in the vocabulary is one piece, without ##.
        h.Case("'able' is the single piece able", ("able", VOCAB), [8]),
        # un matches, then nothing starts with x: the whole word is unknown.
        h.Case("'unx' cannot be split: [UNK]", ("unx", VOCAB), [0]),
        h.Case("'xplay' cannot even start: [UNK]", ("xplay", VOCAB), [0]),
        # For wp-from-right: from the start, play + ##able; from the end, the longest
        # suffix is ##yable and then pla, so [20, 21] instead of [11, 4].
        h.Case("'playable' is play, ##able (matched from the start)", ("playable", VOCAB), [11, 4]),
        # For wp-bare-mid: after un, the bare piece 'ables' is longer than any ## piece,
        # but mid-word only ## pieces count: un, ##able, ##s, not un, ables.
        h.Case(
            "'unables' is un, ##able, ##s (no bare piece mid-word)", ("unables", VOCAB), [1, 4, 13]
        ),
    ]
    rng = random.Random(2001)
    starts = [p for p in VOCAB if not p.startswith(("#", "["))]
    continuations = [p[2:] for p in VOCAB if p.startswith("##")]
    seeded = []
    for i in range(1, 4):
        word = rng.choice(starts) + "".join(rng.choice(continuations) for _ in range(3))
        seeded.append(h.Case(f"random case {i} ('{word}')", (word, VOCAB), expected(word, VOCAB)))
    return fixed + seeded


def _shortest(word: str, vocab: Vocab) -> list[int]:
    ids: list[int] = []
    i = 0
    while i < len(word):
        prefix = "##" if i else ""
        match = next((j for j in range(i + 1, len(word) + 1) if prefix + word[i:j] in vocab), None)
        if match is None:
            return [vocab["[UNK]"]]
        ids.append(vocab[prefix + word[i:match]])
        i = match
    return ids


def _with_prefix(first: str, rest: str) -> object:
    """Greedy longest match where the first piece gets ``first`` and the others ``rest``."""

    def split(word: str, vocab: Vocab) -> list[int]:
        ids: list[int] = []
        i = 0
        while i < len(word):
            prefix = rest if i else first
            match = next((j for j in range(len(word), i, -1) if prefix + word[i:j] in vocab), None)
            if match is None:
                return [vocab["[UNK]"]]
            ids.append(vocab[prefix + word[i:match]])
            i = match
        return ids

    return split


def _partial_unknown(word: str, vocab: Vocab) -> list[int]:
    ids: list[int] = []
    i = 0
    while i < len(word):
        prefix = "##" if i else ""
        match = next((j for j in range(len(word), i, -1) if prefix + word[i:j] in vocab), None)
        if match is None:
            return [*ids, vocab["[UNK]"]]
        ids.append(vocab[prefix + word[i:match]])
        i = match
    return ids


def _from_right(word: str, vocab: Vocab) -> list[int]:
    """Greedy longest match, but from the end of the word towards its start."""
    ids: list[int] = []
    end = len(word)
    while end > 0:
        start = next(
            (j for j in range(end) if ("##" if j else "") + word[j:end] in vocab),
            None,
        )
        if start is None:
            return [vocab["[UNK]"]]
        ids.insert(0, vocab[("##" if start else "") + word[start:end]])
        end = start
    return ids


def _bare_mid(word: str, vocab: Vocab) -> list[int]:
    """Mid-word, a bare piece is accepted where no ## piece of that length is."""
    ids: list[int] = []
    i = 0
    while i < len(word):
        found = None
        for j in range(len(word), i, -1):
            forms = ["##" + word[i:j], word[i:j]] if i else [word[i:j]]
            found = next((f for f in forms if f in vocab), None)
            if found is not None:
                ids.append(vocab[found])
                i = j
                break
        if found is None:
            return [vocab["[UNK]"]]
    return ids


#: The solution, which each mistake below edits (the build writes its text in here).
SOLUTION = h.solution_of(__file__)
#: Typical wrong answers, each an edit of the solution, and the hint it must earn first.
MISTAKES = h.mistakes(
    SOLUTION,
    FUNCTION,
    {
        # Accepts a bare (whole-word) piece in the middle of a word when no ## piece matches.
        "bare_mid_word": h.Mistake(
            "wp-bare-mid",
            (
                (
                    "while end > start:  # try the longest piece first, then shorter ones\n"
                    '            piece = word[start:end] if start == 0 else "##" + word[start:end]\n'
                    "            if piece in vocab"
                ),
                (
                    "piece = None\n"
                    "        while end > start:\n"
                    "            rest = word[start:end]\n"
                    "            if start == 0 and rest in vocab:\n"
                    "                piece = rest\n"
                    '            elif start > 0 and "##" + rest in vocab:\n'
                    '                piece = "##" + rest\n'
                    "            elif start > 0 and rest in vocab:\n"
                    "                piece = rest\n"
                    "            if piece is not None"
                ),
            ),
        ),
        # Greedy longest match from the end of the word, instead of from its start.
        "from_right": h.Mistake(
            "wp-from-right",
            (
                (
                    "start = 0\n"
                    "    while start < len(word):\n"
                    "        end = len(word)\n"
                    "        while end > start:  # try the longest piece first, then shorter ones"
                ),
                (
                    "end = len(word)\n"
                    "    while end > 0:\n"
                    "        start = 0\n"
                    "        while start < end:  # the longest suffix first"
                ),
            ),
            (
                (
                    "end -= 1\n"
                    "        if end == start:  # nothing matched here: the whole word is unknown"
                ),
                ("start += 1\n        if start == end:"),
            ),
            (
                ("append(vocab[piece])\n        start = end"),
                ("insert(0, vocab[piece])\n        end = start"),
            ),
        ),
        # Puts "##" in front of every piece, the first one too.
        "hashes_first": h.Mistake(
            "wp-hashes-first",
            (
                (
                    "start:  # try the longest piece first, then shorter ones\n"
                    '            piece = word[start:end] if start == 0 else "##" + word[start:end]\n'
                    "            if piece in vocab:\n"
                    "                break"
                ),
                'start and "##" + word[start:end] not in vocab:',
            ),
            ("vocab[piece", 'vocab["##" + word[start:end]'),
        ),
        # Looks every piece up as it is, without "##" in front of the continuing pieces.
        "no_hashes": h.Mistake(
            "wp-no-hashes",
            (
                (
                    "start:  # try the longest piece first, then shorter ones\n"
                    '            piece = word[start:end] if start == 0 else "##" + word[start:end]\n'
                    "            if piece in vocab:\n"
                    "                break"
                ),
                "start and word[start:end] not in vocab:",
            ),
            ("vocab[piece", "vocab[word[start:end]"),
        ),
        # Never falls back to [UNK]: looking up a piece that is not there raises KeyError.
        "no_unknown": h.Mistake(
            "wp-no-unk",
            (
                (
                    "if end == start:  # nothing matched here: the whole word is unknown\n"
                    '            return [vocab["[UNK]"]'
                ),
                'piece = word[start:end] if start == 0 else "##" + word[start:end',
            ),
            model=False,
        ),
        # Keeps the pieces found so far and adds [UNK] for the rest, instead of [UNK] alone.
        "partial_unknown": h.Mistake(
            "wp-partial-unk",
            (
                (
                    "  # nothing matched here: the whole word is unknown\n"
                    '            return [vocab["[UNK]"]]'
                ),
                ('\n            ids.append(vocab["[UNK]"])\n            return ids'),
            ),
        ),
        # Takes the SHORTEST piece that matches at each place instead of the longest.
        "shortest_match": h.Mistake(
            "wp-shortest",
            (
                (
                    "len(word)\n"
                    "        while end > start:  # try the longest piece first, then shorter ones"
                ),
                ("start + 1\n        while end <= len(word):"),
            ),
            (
                (
                    "-= 1\n"
                    "        if end == start:  # nothing matched here: the whole word is unknown"
                ),
                ("+= 1\n        if end > len(word):"),
            ),
        ),
    },
)


def explain_exception(exc: Exception, args: tuple[str, Vocab]) -> str | None:
    """A KeyError means a piece that is not in the vocabulary was looked up: no [UNK]."""
    if isinstance(exc, KeyError):
        return "wp-no-unk"
    return None


def properties(run: h.Runner) -> Iterator[h.Result]:
    """The pieces, with their ## taken off, spell the word again."""
    word = "unaffables"
    args = (word, VOCAB)
    name = "the pieces of a word that can be split spell the word again"
    answer, failure = run.call(name, args)
    if failure is not None:
        yield failure
        return
    pieces = {i: p for p, i in VOCAB.items()}
    ids = h.as_list(answer) or []
    spelled = "".join(pieces.get(i, "?").removeprefix("##") for i in ids)
    yield run.check(
        name,
        args,
        ok=spelled == word and "[UNK]" not in spelled,
        actual=answer,
        expected=f"ids whose pieces spell {word!r}",
        hint="wp-wrong",
        detail=f"the pieces spell {spelled!r}",
    )


if __name__ == "__main__":
    sys.exit(h.main(sys.modules[__name__], sys.argv))
