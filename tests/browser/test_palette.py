"""The light/dark toggle, run by the site's own script instead of Material's component.

partials/palette.html and partials/javascripts/palette.html replace Material's palette
component (which restyled every element on screen three times at each page view). What
a reader sees must not change: the system's preference first, the reader's choice once
made and kept across pages and reloads, the toggle by mouse and by keyboard, and the
browser's theme colour and colour scheme in step with the palette shown.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.settled import wait_settled

SCHEME = {"light": "default", "dark": "slate"}


def body_scheme(page: Any) -> str:
    return str(page.evaluate("document.body.getAttribute('data-md-color-scheme')"))


def shown_toggles(page: Any) -> list[str]:
    """The title of every toggle the header shows (one, naming the other palette)."""
    return list(
        page.evaluate(
            "[...document.querySelectorAll('form[data-palette] label')]"
            ".filter(l => !l.hidden && l.offsetParent !== null).map(l => l.title)"
        )
    )


@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
def test_the_system_preference_decides_until_the_reader_chooses(
    page: Any, site_url: str, color_scheme: str
) -> None:
    page.goto(site_url + "attention/", wait_until="load")
    assert body_scheme(page) == SCHEME[color_scheme]
    other = {"light": "Switch to dark mode", "dark": "Switch to light mode"}[color_scheme]
    assert shown_toggles(page) == [other]
    # Nothing is saved before the reader chooses: a later change of the system's
    # preference still applies on the next page.
    saved = page.evaluate("Object.keys(localStorage).filter(k => k.endsWith('__palette'))")
    assert saved == []
    # The theme's own palette component is not mounted (it would restyle every element).
    assert page.locator("[data-md-component='palette']").count() == 0


def test_a_choice_holds_across_pages_and_reloads(page: Any, site_url: str) -> None:
    page.goto(site_url + "attention/", wait_until="load")
    wait_settled(page)
    assert body_scheme(page) == "default"
    page.locator("form[data-palette] label:not([hidden])").click()
    assert body_scheme(page) == "slate"
    assert shown_toggles(page) == ["Switch to light mode"]
    page.goto(site_url + "self-attention/", wait_until="load")
    assert body_scheme(page) == "slate"
    page.reload(wait_until="load")
    assert body_scheme(page) == "slate"
    assert shown_toggles(page) == ["Switch to light mode"]


def test_enter_on_the_focused_toggle_switches(page: Any, site_url: str) -> None:
    page.goto(site_url, wait_until="load")
    page.locator("form[data-palette] input:checked").focus()
    page.keyboard.press("Enter")
    assert body_scheme(page) == "slate"
    page.keyboard.press("Enter")
    assert body_scheme(page) == "default"


@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
def test_browser_colours_follow_the_palette_shown(
    page: Any, site_url: str, color_scheme: str
) -> None:
    """theme-color is the header's computed background; color-scheme the body's."""
    page.goto(site_url, wait_until="load")
    for _ in range(2):  # as loaded, then after switching to the other palette
        got = page.evaluate(
            """() => {
                const hex = (rgb) => '#' + rgb.match(/\\d+/g).slice(0, 3)
                    .map((c) => (+c).toString(16).padStart(2, '0')).join('');
                const header = getComputedStyle(document.querySelector('.md-header'));
                return {
                    theme: document.querySelector('meta[name=theme-color]').content,
                    header: hex(header.backgroundColor),
                    meta: document.querySelector('meta[name=color-scheme]').content,
                    body: getComputedStyle(document.body).colorScheme,
                };
            }"""
        )
        assert got["theme"] == got["header"], got
        assert got["meta"] == got["body"], got
        page.locator("form[data-palette] label:not([hidden])").click()
