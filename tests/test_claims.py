"""testbed.claims: the page text it searches is the page as rendered, and a missing claim fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testbed.claims import claim, page_text, run_snippet
from testbed.claims_list import listing


def test_includes_are_expanded_and_markup_dropped() -> None:
    text = page_text("attention.md")
    # The worked example's weights are printed by an included snippet's Output block.
    assert str(run_snippet("worked_example.py")["weights"].round(3).tolist()) in text
    assert "--8<--" not in text and "<strong>" not in text
    assert not text.startswith("---")  # no front matter


def test_a_sentence_not_on_the_page_fails() -> None:
    with pytest.raises(AssertionError, match=r"no longer on attention\.md") as failed:
        claim("attention.md", "v₂ contributes nothing at all to the output")
    assert "the page says" in str(failed.value)


def test_an_unknown_page_is_named() -> None:
    with pytest.raises(FileNotFoundError, match=r"no-such-page\.md"):
        page_text("no-such-page.md")


def test_make_claims_lists_what_a_claim_test_looked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``make claims`` reads what ``claim`` recorded: the page, the sentence as found, the test."""
    record = tmp_path / "claims.jsonl"
    monkeypatch.setenv("CLAIMS_RECORD", str(record))
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "tests/test_x.py::test_weights (call)")
    claim("attention.md", "Every weight is positive\n and together they make one.")  # collapsed
    records = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    assert records == [
        {
            "page": "attention.md",
            "sentence": "Every weight is positive and together they make one.",
            "test": "tests/test_x.py::test_weights",
        }
    ]
    assert listing(records, "attention.md") == [
        "tests/test_x.py::test_weights",
        "    Every weight is positive and together they make one.",
    ]
    assert listing(records, "tokens.md") == []
