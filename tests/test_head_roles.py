"""The role of each head, checked on matrices worked by hand.

``attention_ref/head_roles.py`` defines the roles; ``site_build/heads_figure.py`` ships them.

- Five hand-built heads whose four shares are worked out on paper: previous token,
  [CLS] sink, diagonal, next token, uniform (mixed).
- The tie and threshold edges: equal largest shares, a share exactly at the threshold,
  a share that only reaches it after rounding to 3 decimals.
- Bad input is refused with a ``ValueError`` naming the argument.
- The shipped file has the contract's shape, and its shares agree with a plain-loop
  reading of the committed data.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from attention_ref.head_roles import classify, head_role, role_shares
from site_build.heads_figure import head_roles_json, record_roles
from site_build.heatmap_data import DATA_FILE
from testbed.roles import role_counts

TOKENS = ["[CLS]", "a", "b", "c", "[SEP]"]  # n = 5


def one_hot(columns: list[int], n: int = 5) -> list[list[float]]:
    """Row i puts all its weight on key ``columns[i]``."""
    return [[1.0 if j == c else 0.0 for j in range(n)] for c in columns]


# Each case: the weights, then the four shares worked out by hand (special, previous,
# self, next), then the expected role and share.
#
# previous: row 0 has no previous token and looks at itself ([CLS]); rows 1..4 at i-1.
#   special: rows 0 and 1 land on [CLS] -> 2/5; previous 4/4; self: row 0 -> 1/5.
# sink: every row on [CLS]. special 5/5; previous: row 1 only -> 1/4; self: row 0 -> 1/5.
# diagonal: self 5/5; special: rows 0 ([CLS]) and 4 ([SEP]) -> 2/5.
# next: rows 0..3 on i+1, row 4 on itself ([SEP]). next 4/4; self 1/5;
#   special: rows 3 and 4 land on [SEP] -> 2/5.
# uniform: every weight 1/5. special 2/5 (two special keys); the rest 1/5 each -> mixed,
#   whose share is the largest of the four.
CASES = {
    "previous": (one_hot([0, 0, 1, 2, 3]), (0.4, 1.0, 0.2, 0.0), "previous", 1.0),
    "sink": (one_hot([0, 0, 0, 0, 0]), (1.0, 0.25, 0.2, 0.0), "special", 1.0),
    "diagonal": (one_hot([0, 1, 2, 3, 4]), (0.4, 0.0, 1.0, 0.0), "self", 1.0),
    "next": (one_hot([1, 2, 3, 4, 4]), (0.4, 0.0, 0.2, 1.0), "next", 1.0),
    "uniform": ([[0.2] * 5] * 5, (0.4, 0.2, 0.2, 0.2), "mixed", 0.4),
}


@pytest.mark.parametrize("name", list(CASES))
def test_hand_worked_heads(name: str) -> None:
    weights, shares, role, share = CASES[name]
    got = role_shares(weights, TOKENS)
    assert list(got) == ["special", "previous", "self", "next"]
    assert list(got.values()) == pytest.approx(shares, abs=1e-12)
    assert head_role(weights, TOKENS) == {"role": role, "share": share}


def test_special_tokens_are_found_by_name() -> None:
    # The same sink on key 0, but key 0 is an ordinary word: nothing is special.
    shares = role_shares(one_hot([0, 0, 0, 0, 0]), ["x", "a", "b", "c", "y"])
    assert shares["special"] == 0.0
    assert head_role(one_hot([0, 0, 0, 0, 0]), ["x", "a", "b", "c", "y"]) == {
        "role": "mixed",
        "share": 0.25,  # previous: row 1 only
    }


def test_a_tie_goes_to_the_first_role_listed() -> None:
    # Two tokens, every weight 1/2: previous (row 1), self (both rows) and next (row 0)
    # are all 1/2, and there is no special token.
    halves = [[0.5, 0.5], [0.5, 0.5]]
    assert role_shares(halves, ["a", "b"]) == {
        "special": 0.0,
        "previous": 0.5,
        "self": 0.5,
        "next": 0.5,
    }
    assert head_role(halves, ["a", "b"]) == {"role": "previous", "share": 0.5}
    # special is listed before previous: it wins a tie with it.
    assert classify({"special": 0.7, "previous": 0.7, "self": 0.0, "next": 0.0})["role"] == (
        "special"
    )


def test_a_share_exactly_at_the_threshold_counts() -> None:
    # Uniform over 4 tokens, two of them special: special is exactly 2/4.
    uniform = [[0.25] * 4] * 4
    tokens = ["[CLS]", "a", "b", "[SEP]"]
    assert head_role(uniform, tokens, threshold=0.5) == {"role": "special", "share": 0.5}
    assert head_role(uniform, tokens, threshold=0.501) == {"role": "mixed", "share": 0.5}
    assert head_role(uniform, tokens, threshold=0.499) == {"role": "special", "share": 0.5}


def test_the_threshold_is_compared_with_the_share_shown() -> None:
    # 0.4996 is shown as 0.5, so it is labelled as reaching 0.5; 0.4994 is shown as 0.499.
    assert classify({"special": 0.4996, "previous": 0, "self": 0, "next": 0}) == {
        "role": "special",
        "share": 0.5,
    }
    assert classify({"special": 0.4994, "previous": 0, "self": 0, "next": 0}) == {
        "role": "mixed",
        "share": 0.499,
    }


def test_record_scale_and_counts() -> None:
    # One sentence, two heads of 3 tokens, stored in units of 1/4.
    record = {
        "scale": 4,
        "sentences": [
            {
                "id": "s",
                "tokens": ["[CLS]", "a", "[SEP]"],
                "attention": [
                    [
                        [[4, 0, 0], [4, 0, 0], [0, 4, 0]],  # previous 2/2
                        [[2, 1, 1], [1, 2, 1], [1, 1, 2]],  # self 1/2, special 1/2 + 1/4
                    ]
                ],
            }
        ],
    }
    # Head 1: special = (3/4 + 2/4 + 3/4) / 3 = 2/3; self = 1/2: special, 0.667.
    result = record_roles(record)
    assert result["sentences"] == {
        "s": [[{"role": "previous", "share": 1.0}, {"role": "special", "share": 0.667}]]
    }
    assert role_counts(result["sentences"]["s"]) == {
        "special": 1,
        "previous": 1,
        "self": 0,
        "next": 0,
        "mixed": 0,
    }


@pytest.mark.parametrize(
    ("weights", "tokens", "message"),
    [
        ([[1.0, 0.0]], ["a", "b"], "weights: must be a square (n, n) matrix, got shape (1, 2)"),
        ([1.0, 0.0], ["a", "b"], "weights: must be a square (n, n) matrix, got shape (2,)"),
        ([[1.0, 0.0], [0.0, 1.0]], ["a", "b", "c"], "does not match 3 tokens"),
        ([[1.0]], ["a"], "weights: need at least 2 tokens, got 1"),
        ([[float("nan"), 1.0], [0.0, 1.0]], ["a", "b"], "weights: holds a value that is not f"),
        ([[1.5, -0.5], [0.0, 1.0]], ["a", "b"], "weights: holds a negative value"),
        ([[10000, 0], [0, 10000]], ["a", "b"], "weights: row 0 sums to 10000.0000, not 1"),
        ([[1.0, 0.0], [0.3, 0.3]], ["a", "b"], "weights: row 1 sums to 0.6000, not 1"),
        ([["x", "y"], ["z", "w"]], ["a", "b"], "weights: not a matrix of numbers"),
        ([[1.0, 0.0], [0.0, 1.0]], "ab", "tokens: must be a list of strings"),
        ([[1.0, 0.0], [0.0, 1.0]], ["a", 2], "tokens: must be a list of strings"),
    ],
)
def test_bad_weights_are_refused_by_name(weights: Any, tokens: Any, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        head_role(weights, tokens)


@pytest.mark.parametrize(
    ("shares", "threshold", "message"),
    [
        ({"special": 0.5, "previous": 0, "self": 0, "next": 0}, 0, "threshold: must be in (0, 1]"),
        ({"special": 0.5, "previous": 0, "self": 0, "next": 0}, 1.5, "threshold: must be in (0"),
        ({"special": 0.5, "previous": 0, "self": 0, "next": 0}, "0.5", "threshold: must be a nu"),
        ({"special": 0.5, "previous": 0, "self": 0}, 0.5, "shares: missing 'next'"),
        ({"special": -0.1, "previous": 0, "self": 0, "next": 0}, 0.5, "shares: 'special' must"),
    ],
)
def test_bad_shares_or_threshold_are_refused_by_name(
    shares: dict[str, float], threshold: Any, message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        classify(shares, threshold)


def test_bad_scale_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=re.escape("record: 'scale' must be a positive number")):
        record_roles({"scale": 0, "sentences": []})


def loop_shares(units: list[list[int]], tokens: list[str], scale: int) -> dict[str, float]:
    """The four shares by plain loops over one stored head (an oracle independent of numpy)."""
    n = len(tokens)
    w = [[u / scale for u in row] for row in units]
    special = sum(w[i][j] for i in range(n) for j in range(n) if tokens[j] in ("[CLS]", "[SEP]"))
    return {
        "special": special / n,
        "previous": sum(w[i][i - 1] for i in range(1, n)) / (n - 1),
        "self": sum(w[i][i] for i in range(n)) / n,
        "next": sum(w[i][i + 1] for i in range(n - 1)) / (n - 1),
    }


def test_shipped_file_follows_the_contract_and_the_loops() -> None:
    record = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    shipped = json.loads(head_roles_json())
    assert list(shipped) == ["about", "threshold", "roles", "sentences"]
    assert shipped["threshold"] == 0.5
    assert list(shipped["roles"]) == ["special", "previous", "self", "next", "mixed"]
    assert shipped["roles"] == {  # the words the reader sees, written out
        "special": "mostly [CLS]/[SEP]",
        "previous": "mostly the previous token",
        "self": "mostly itself",
        "next": "mostly the next token",
        "mixed": "no single pattern",
    }
    assert list(shipped["sentences"]) == ["tired", "wide"]
    for s in record["sentences"]:
        layers = shipped["sentences"][s["id"]]
        assert len(layers) == 6 and all(len(heads) == 12 for heads in layers)
        for li, heads in enumerate(layers):
            for hi, head in enumerate(heads):
                assert set(head) == {"role", "share"}
                shares = loop_shares(s["attention"][li][hi], s["tokens"], record["scale"])
                best = max(shares.values())
                assert head["share"] == round(best, 3), (s["id"], li, hi)
                if head["role"] == "mixed":
                    assert round(best, 3) < 0.5, (s["id"], li, hi)
                else:
                    assert round(shares[head["role"]], 3) == round(best, 3) >= 0.5
