"""testbed.claims: the page text it searches is the page as rendered, and a missing claim fails."""

from __future__ import annotations

import pytest

from testbed.claims import claim, page_text


def test_includes_are_expanded_and_markup_dropped() -> None:
    text = page_text("attention.md")
    # The worked example's weights are printed by an included snippet's Output block.
    assert "[0.506, 0.186, 0.307]" in text
    assert "--8<--" not in text and "<strong>" not in text
    assert not text.startswith("---")  # no front matter


def test_a_sentence_not_on_the_page_fails() -> None:
    with pytest.raises(AssertionError, match=r"no longer on attention\.md"):
        claim("attention.md", "v₂ contributes nothing at all to the output")


def test_an_unknown_page_is_named() -> None:
    with pytest.raises(FileNotFoundError, match=r"no-such-page\.md"):
        page_text("no-such-page.md")
