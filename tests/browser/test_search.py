"""Search works from every way in: Material's keys, the search icon on a phone, and a page
opened from a search result (``?h=``).

Material's script fetches search/search_index.json as a page starts (no script of this
site holds it back or wraps the request: docs/overrides/partials/search-fails-well.html
only listens for its failure). These tests watch the real requests of the built site in
Chromium: exactly one for the index per page view, then search finds pages from the
keyboard and from the search icon, and a page opened from a result highlights the
searched word.
"""

from __future__ import annotations

from typing import Any

import pytest

INDEX = "search/search_index.json"
PHONE = {"width": 390, "height": 844}


def index_requests(page: Any) -> list[str]:
    """Record, from now on, every request the page makes for the search index."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if r.url.endswith(INDEX) else None)
    return seen


def settled(page: Any) -> None:
    """Wait until the page has loaded and its start-up work has run (settle.js done)."""
    page.wait_for_load_state("load")
    page.wait_for_function("document.documentElement.hasAttribute('data-settled')", timeout=30_000)


def search_for(page: Any, word: str) -> None:
    page.locator(".md-search__input").press_sequentially(word, delay=40)
    page.wait_for_selector(".md-search-result__item", timeout=30_000)


def test_the_keys_open_search_and_the_index_is_fetched_once(page: Any, site_url: str) -> None:
    seen = index_requests(page)
    page.goto(site_url + "attention/")
    settled(page)
    page.keyboard.press("s")  # Material's key for search focuses the search box
    search_for(page, "softmax")
    assert seen == [site_url + INDEX]
    titles = page.locator(".md-search-result__item").all_inner_texts()
    assert any("softmax" in t.lower() for t in titles), titles


@pytest.mark.parametrize("viewport", [PHONE], indirect=True)
def test_the_search_icon_on_a_phone_finds_pages(page: Any, site_url: str) -> None:
    seen = index_requests(page)
    page.goto(site_url)
    settled(page)
    page.locator("label.md-header__button[for='__search']").click()
    search_for(page, "attention")
    assert seen == [site_url + INDEX]


def test_a_page_opened_from_a_result_highlights(page: Any, site_url: str) -> None:
    seen = index_requests(page)
    page.goto(site_url + "attention/?h=softmax")
    page.wait_for_selector("mark[data-md-highlight]", timeout=30_000)
    assert seen == [site_url + INDEX]
    marks = page.locator("mark[data-md-highlight]").all_text_contents()
    assert marks and all(m.lower() == "softmax" for m in marks), marks[:5]
