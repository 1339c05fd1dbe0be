""" "Try your own sentence" in lesson 1's heatmap, in Chromium.

The reader's sentence runs in the page's worker; what the widget shows (pickers, data
table, row panel, live region) is compared with ``attention_ref.minilm`` run here in
Python on the same text: every shown weight within 3e-3 of the reference plus half a
unit of the third decimal. The head it opens on is checked against the rule computed in
Python with ``attention_ref.head_roles.role_shares`` (the least ``special`` share).
Failures are made with Playwright routes (404, a file cut short, a flipped byte, the
network dropped) and must give a message and a retry while the fixed sentences work.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_ref.head_roles import role_shares
from attention_ref.minilm import load_minilm
from tests.browser.axe import axe_violations, describe
from tests.browser.test_heatmap import check_focused_row, open_heatmap, pickers

WIDGET = "[data-hm-widget]"
FORM = f"{WIDGET} [data-own='form']"
BOUND = 3e-3 + 0.5e-3  # the browser's bound, plus the table's rounding to 3 decimals
PHONE = {"width": 360, "height": 740}
SENTENCE = "The trophy would not fit in the brown suitcase because it was too big."


def manifest(site_dir: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((site_dir / "assets/minilm/manifest.json").read_text())
    return record


def model_requests(page: Any) -> list[str]:
    urls: list[str] = []
    page.context.on("request", lambda r: urls.append(r.url) if "/assets/minilm/" in r.url else None)
    return urls


def submit(page: Any, text: str) -> None:
    field = page.get_by_label("Try your own sentence")
    field.fill(text)
    field.press("Enter")


def consent_and_wait(page: Any) -> None:
    page.locator(f"{FORM} [data-own='consent']").click()
    page.wait_for_selector(f"{FORM}[data-own-state=done]", timeout=120_000)


def shown_query(page: Any) -> str:
    """The token of the row panel's title, "Query “X”: its weight on each key"."""
    title = page.locator(f"{WIDGET} .heatmap__row-title").text_content() or ""
    found = re.fullmatch(r"Query “(.+)”: its weight on each key", title)
    assert found, title
    return found.group(1)


def expected_pick(text: str) -> tuple[int, int, np.ndarray, list[str]]:
    run = load_minilm().run(text)
    special = np.array(
        [[role_shares(m, run.tokens)["special"] for m in layer] for layer in run.attentions]
    )
    layer, head = np.unravel_index(int(np.argmin(special)), special.shape)
    return int(layer), int(head), run.attentions, run.tokens


def check_table(page: Any, weights: np.ndarray, tokens: list[str]) -> None:
    """The data table (opened) holds `weights` (n, n) within BOUND, tokens as headers."""
    box = page.locator(WIDGET)
    details = box.locator("details.widget__table")
    details.evaluate("d => { d.open = true; }")
    heads = box.locator("[data-hm='table'] thead th span").all_text_contents()
    assert heads == tokens
    cells = box.locator("[data-hm='table'] tbody td").all_text_contents()
    assert len(cells) == weights.size
    for k, (shown, want) in enumerate(zip(cells, weights.ravel(), strict=True)):
        assert re.fullmatch(r"\d\.\d{3}", shown), shown
        assert abs(float(shown) - want) <= BOUND, (
            f"cell {divmod(k, len(tokens))}: {shown} vs {want:.5f}"
        )
    details.evaluate("d => { d.open = false; }")


@pytest.mark.parametrize(
    ("color_scheme", "viewport"),
    [("light", {"width": 1280, "height": 900}), ("dark", PHONE)],
    indirect=True,
)
def test_own_sentence_runs_the_model_and_shows_it(
    page: Any, site_url: str, site_dir: Path, color_scheme: str
) -> None:
    urls = model_requests(page)
    open_heatmap(page, site_url + "attention/")
    assert urls == [], "nothing of the model loads before the reader asks"
    # The fixed sentences need no download.
    page.locator(WIDGET).get_by_role("radio", name="…too wide").check()
    assert urls == []
    submit(page, SENTENCE)
    consent = page.locator(f"{FORM} [data-own='consent']")
    consent.wait_for()
    m = manifest(site_dir)
    size = m["tokenizer"]["bytes"] + sum(g["bytes"] for g in m["groups"])
    assert consent.text_content() == f"Load the model: {size / 1e6:.1f} MB, once"
    assert [u for u in urls if not u.endswith("manifest.json")] == [], "asked before downloading"
    consent_and_wait(page)
    layer, head, att, tokens = expected_pick(SENTENCE)
    assert pickers(page) == (layer, head), "opens on the head that looks least at [CLS]/[SEP]"
    assert page.locator(f"{WIDGET} [data-hm='own']").is_checked()
    message = page.locator(f"{FORM} [data-own='message']").text_content() or ""
    assert f"gives {len(tokens)} tokens" in message and "within 0.003" in message
    check_table(page, att[layer, head], tokens)
    # The row panel shows the first word's row, in step with the grid.
    bars = page.locator(f"{WIDGET} .heatmap__bars .heatmap__num").all_text_contents()
    assert all(abs(float(b) - w) <= BOUND for b, w in zip(bars, att[layer, head, 1], strict=True))
    live = page.locator(f"{WIDGET} [data-hm='live']")
    assert live.get_attribute("aria-live") == "polite"
    assert (live.text_content() or "").startswith(f"{tokens[1]} → ")
    # Keyboard: down a row in the grid moves the panel to the next token.
    page.locator(f"{WIDGET} .heatmap__grid tbody tr").nth(1).locator("th").click()
    page.keyboard.press("ArrowDown")
    title = page.locator(f"{WIDGET} .heatmap__row-title").text_content()
    assert title == f"Query “{tokens[2]}”: its weight on each key"
    # Another head of the reader's sentence, then back to a fixed sentence: still right.
    page.locator(f"{WIDGET} select[data-hm='layer']").select_option(index=0)
    page.locator(f"{WIDGET} select[data-hm='head']").select_option(index=3)
    check_table(page, att[0, 3], tokens)
    page.locator(WIDGET).get_by_role("radio", name="…too tired").check()
    check_focused_row(page, shown_query(page), 0, 0, 3)
    violations = axe_violations(page, WIDGET)
    assert violations == [], describe(violations)
    assert any("/assets/minilm/words/" in u for u in urls)


def test_empty_field_loads_nothing(page: Any, site_url: str) -> None:
    urls = model_requests(page)
    open_heatmap(page, site_url + "attention/")
    submit(page, "   ")
    message = page.locator(f"{FORM} [data-own='message']")
    assert message.text_content() == "Type a sentence first: the field is empty."
    page.get_by_role("button", name="Run the model").click()
    assert urls == []


def test_too_long_names_the_count_and_limit(page: Any, site_url: str) -> None:
    urls = model_requests(page)
    open_heatmap(page, site_url + "attention/")
    text = " ".join(["word"] * 70)  # 72 tokens with [CLS] and [SEP]
    submit(page, text)
    consent_and_wait_or_error(page)
    message = page.locator(f"{FORM} [data-own='message']").text_content() or ""
    assert "gives 72 tokens" in message and "at most 64" in message
    assert not any("/layer-" in u for u in urls), (
        "the weights are not downloaded for a refused sentence"
    )
    assert page.locator(f"{FORM} [data-own='retry']").count() == 0


def consent_and_wait_or_error(page: Any) -> None:
    page.locator(f"{FORM} [data-own='consent']").click()
    page.wait_for_selector(
        f"{FORM}:is([data-own-state=done], [data-own-state=error])", timeout=120_000
    )


def test_html_typed_shows_as_text(page: Any, site_url: str) -> None:
    open_heatmap(page, site_url + "attention/")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    text = "<img src=x onerror=alert(1)> <b>bold</b>"
    submit(page, text)
    consent_and_wait(page)
    tokens = load_minilm().tokenize(text)[0]
    shown = page.locator(f"{WIDGET} .heatmap__sentence code").all_text_contents()
    assert shown == tokens
    assert page.locator(f"{WIDGET} img, {WIDGET} b").count() == 0
    assert dialogs == []


def _break(kind: str) -> Any:
    def handler(route: Any) -> None:
        if kind == "missing":
            route.fulfill(status=404, body="not found")
            return
        response = route.fetch()
        body = response.body()
        if kind == "short":
            body = body[: len(body) // 2]
        elif kind == "corrupt":
            body = bytes([body[0] ^ 1]) + body[1:]
        route.fulfill(status=200, body=body, headers={"content-type": "application/octet-stream"})

    return handler


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("missing", "has no"),
        ("short", "cut short"),
        ("corrupt", "damaged"),
        ("network", "connection"),
    ],
)
def test_a_broken_model_file_gives_a_message_and_a_retry(
    page: Any, site_url: str, kind: str, words: str
) -> None:
    open_heatmap(page, site_url + "attention/")
    pattern = "**/assets/minilm/layer-3.*.bin"
    if kind == "network":
        page.context.route(pattern, lambda r: r.abort("internetdisconnected"))
    else:
        page.context.route(pattern, _break(kind))
    submit(page, "My cat sleeps all day.")
    consent_and_wait_or_error(page)
    form = page.locator(FORM)
    assert form.get_attribute("data-own-state") == "error"
    message = page.locator(f"{FORM} [data-own='message']").text_content() or ""
    assert "could not be loaded" in message and words in message and "layer-3." in message, message
    # The rest of the widget still works.
    page.locator(WIDGET).get_by_role("radio", name="…too wide").check()
    assert (
        page.locator(f"{WIDGET} .heatmap__row-title").text_content()
        == "Query “it”: its weight on each key"
    )
    # The file is back: the retry runs the model.
    page.context.unroute(pattern)
    page.locator(f"{FORM} [data-own='retry']").click()
    page.wait_for_selector(f"{FORM}[data-own-state=done]", timeout=120_000)
    assert (
        page.locator(f"{WIDGET} .heatmap__sentence code").all_text_contents()
        == load_minilm().tokenize("My cat sleeps all day.")[0]
    )


def test_second_submit_replaces_the_first(page: Any, site_url: str) -> None:
    open_heatmap(page, site_url + "attention/")
    submit(page, "A first sentence that will be overtaken.")
    page.locator(f"{FORM} [data-own='consent']").click()
    submit(page, "The second one wins.")
    page.wait_for_selector(f"{FORM}[data-own-state=done]", timeout=120_000)
    page.wait_for_timeout(500)  # a late result of the first must not replace it
    layer, head, att, tokens = expected_pick("The second one wins.")
    assert page.locator(f"{WIDGET} .heatmap__sentence code").all_text_contents() == tokens
    assert pickers(page) == (layer, head)
    check_table(page, att[layer, head], tokens)


def test_fast_switching_keeps_grid_panel_and_table_in_step(page: Any, site_url: str) -> None:
    open_heatmap(page, site_url + "attention/")
    submit(page, "Quick changes never mix two heads.")
    consent_and_wait(page)
    _, _, att, tokens = expected_pick("Quick changes never mix two heads.")
    page.locator(f"{WIDGET} details.widget__table").evaluate("d => { d.open = true; }")
    layer_sel = page.locator(f"{WIDGET} select[data-hm='layer']")
    head_sel = page.locator(f"{WIDGET} select[data-hm='head']")
    for layer, head in [(0, 0), (5, 11), (2, 7), (4, 1), (3, 3)]:
        layer_sel.select_option(index=layer)
        head_sel.select_option(index=head)
    page.locator(WIDGET).get_by_role("radio", name="…too tired").check()
    page.locator(f"{WIDGET} [data-hm='own']").check()
    caption = page.locator(f"{WIDGET} .heatmap__grid caption").text_content()
    assert caption == "Attention weights, query → key: layer 4, head 4, your sentence"
    check_table(page, att[3, 3], tokens)
    row = att[3, 3, tokens.index(shown_query(page))]
    grid = page.locator(
        f"{WIDGET} .heatmap__grid tbody tr.heatmap__query--selected td"
    ).all_text_contents()
    bars = page.locator(f"{WIDGET} .heatmap__bars .heatmap__num").all_text_contents()
    assert all(abs(float(x) - w) <= BOUND for x, w in zip(grid, row, strict=True))
    assert all(abs(float(x) - w) <= BOUND for x, w in zip(bars, row, strict=True))
