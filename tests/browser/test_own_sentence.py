""" "Try your own sentence" in lesson 1's heatmap and lesson 2's heads widget, in Chromium.

Both widgets use the same field (``lib/own-sentence.js``) and the same model in its
worker; every test here runs on each of them (the ``widget`` parameter). The reader's
sentence runs in the page's worker; what the widget shows (its pickers, its data table,
and for the heatmap the row panel and live region, for the heads widget the twelve roles)
is compared with ``attention_ref.minilm`` run here in Python on the same text: every shown
weight within 3e-3 of the reference plus half a unit of the third decimal. Where each
widget opens is checked against its rule computed in Python: the heatmap's head with the
least ``special`` share (``attention_ref.head_roles.role_shares``), the heads widget's
layer with the most different roles (``attention_ref.head_roles.head_role``). Failures are
made with Playwright routes (404, a file cut short, a flipped byte, the network dropped)
and must give a message and a retry while the fixed sentences work.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_ref.head_roles import PATTERNS, ROLES, THRESHOLD, head_role, role_shares
from attention_ref.minilm import load_minilm
from tests.browser.axe import PALETTE_TOGGLE, axe_violations, describe
from tests.browser.settled import open_widget
from tests.browser.test_heatmap import check_focused_row, pickers

BOUND = 3e-3 + 0.5e-3  # the browser's bound, plus the table's rounding to 3 decimals
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
SENTENCE = "The trophy would not fit in the brown suitcase because it was too big."


@dataclass(frozen=True)
class Run:
    """attention_ref.minilm on one text: the oracle of every test here."""

    tokens: list[str]
    attentions: np.ndarray  # (layers, heads, n, n)


@cache
def reference(text: str) -> Run:
    run = load_minilm().run(text)
    return Run(list(run.tokens), np.asarray(run.attentions, dtype=np.float64))


def least_special_head(run: Run) -> tuple[int, int]:
    special = np.array(
        [[role_shares(m, run.tokens)["special"] for m in layer] for layer in run.attentions]
    )
    layer, head = np.unravel_index(int(np.argmin(special)), special.shape)  # the first smallest
    return int(layer), int(head)


def python_roles(run: Run) -> list[list[dict[str, Any]]]:
    return [[head_role(m, run.tokens) for m in layer] for layer in run.attentions]


def most_roles_layer(run: Run) -> int:
    kinds = [len({e["role"] for e in layer}) for layer in python_roles(run)]
    return kinds.index(max(kinds))


def check_numbers(what: str, cells: list[str], weights: np.ndarray) -> None:
    assert len(cells) == weights.size, f"{what}: {len(cells)} numbers, expected {weights.size}"
    n = weights.shape[-1]
    for k, (shown, want) in enumerate(zip(cells, weights.ravel(), strict=True)):
        assert re.fullmatch(r"\d\.\d{3}", shown), f"{what}: {shown!r}"
        assert abs(float(shown) - want) <= BOUND, (
            f"{what}, cell {divmod(k, n)}: {shown} vs {want:.5f}"
        )


# ------------------------------------------------------------------------- the widgets


class Heatmap:
    """Lesson 1's heatmap: opens on the head whose rows look least at [CLS] and [SEP]."""

    name = "heatmap"
    path = "attention/"
    box = "[data-widget=heatmap]"

    def open(self, page: Any, site_url: str) -> None:
        open_widget(page, site_url + self.path, self.box)

    def tokens(self, page: Any) -> list[str]:
        shown: list[str] = page.locator(f"{self.box} .heatmap__sentence code").all_text_contents()
        return shown

    def own_radio(self, page: Any) -> Any:
        return page.locator(f"{self.box} [data-hm='own']")

    def opened_on(self, page: Any, run: Run) -> tuple[int, ...]:
        """The (layer, head) shown, and the one the rule picks (checked equal)."""
        return pickers(page)

    def expected_opening(self, run: Run) -> tuple[int, ...]:
        return least_special_head(run)

    def show(self, page: Any, layer: int, head: int) -> None:
        page.locator(f"{self.box} select[data-hm='layer']").select_option(index=layer)
        page.locator(f"{self.box} select[data-hm='head']").select_option(index=head)

    def table(self, page: Any) -> tuple[list[str], list[str]]:
        """The data table's column tokens and numbers (opened, then closed again)."""
        details = page.locator(f"{self.box} details.widget__table")
        details.evaluate("d => { d.open = true; }")
        heads = page.locator(f"{self.box} [data-hm='table'] thead th span").all_text_contents()
        cells = page.locator(f"{self.box} [data-hm='table'] tbody td").all_text_contents()
        details.evaluate("d => { d.open = false; }")
        return heads, cells

    def check_opened(self, page: Any, run: Run) -> None:
        """The row panel shows the first word's row, in step with the grid and the keys."""
        layer, head = least_special_head(run)
        bars = page.locator(f"{self.box} .heatmap__bars .heatmap__num").all_text_contents()
        check_numbers("row panel", bars, run.attentions[layer, head, 1])
        live = page.locator(f"{self.box} [data-hm='live']")
        assert live.get_attribute("aria-live") == "polite"
        assert (live.text_content() or "").startswith(f"{run.tokens[1]} → ")
        page.locator(f"{self.box} .heatmap__grid tbody tr").nth(1).locator("th").click()
        page.keyboard.press("ArrowDown")
        title = page.locator(f"{self.box} .heatmap__row-title").text_content()
        assert title == f"Query “{run.tokens[2]}”: its weight on each key"

    def check_fixed_sentence(self, page: Any) -> None:
        page.locator(self.box).get_by_role("radio", name="…too wide").check()
        title = page.locator(f"{self.box} .heatmap__row-title").text_content()
        assert title == "Query “it”: its weight on each key"

    def check_back_on_fixed(self, page: Any) -> None:
        page.locator(self.box).get_by_role("radio", name="…too tired").check()
        title = page.locator(f"{self.box} .heatmap__row-title").text_content() or ""
        found = re.fullmatch(r"Query “(.+)”: its weight on each key", title)
        assert found, title
        check_focused_row(page, found.group(1), 0, 0, 3)

    def check_in_step(self, page: Any, run: Run, layer: int, head: int) -> None:
        caption = page.locator(f"{self.box} .heatmap__grid caption").text_content()
        assert caption == (
            f"Attention weights, query → key: layer {layer + 1}, head {head + 1}, your sentence"
        )
        title = page.locator(f"{self.box} .heatmap__row-title").text_content() or ""
        found = re.fullmatch(r"Query “(.+)”: its weight on each key", title)
        assert found, title
        row = run.attentions[layer, head, run.tokens.index(found.group(1))]
        grid = page.locator(
            f"{self.box} .heatmap__grid tbody tr.heatmap__query--selected td"
        ).all_text_contents()
        bars = page.locator(f"{self.box} .heatmap__bars .heatmap__num").all_text_contents()
        check_numbers("grid row", grid, row)
        check_numbers("row panel", bars, row)


class Heads:
    """Lesson 2's twelve heads of a layer: opens on the layer with the most different roles."""

    name = "heads"
    path = "self-attention/"
    box = "[data-widget=heads]"

    def open(self, page: Any, site_url: str) -> None:
        open_widget(page, site_url + self.path, self.box)

    def layer(self, page: Any) -> int:
        return int(page.locator(f"{self.box} select[data-hd='layer']").input_value()) - 1

    def open_head(self, page: Any, head: int) -> None:
        button = page.locator(f"{self.box} .heads__head[data-head='{head}']")
        if button.get_attribute("aria-expanded") != "true":
            button.click()
        page.wait_for_selector(f"{self.box} [data-hd='full']:not([hidden])")

    def tokens(self, page: Any) -> list[str]:
        self.open_head(page, 0)
        shown: list[str] = page.locator(
            f"{self.box} [data-hd='cols'] .heads__token"
        ).all_text_contents()
        return shown

    def own_radio(self, page: Any) -> Any:
        return page.locator(f"{self.box} [data-hd='own']")

    def opened_on(self, page: Any, run: Run) -> tuple[int, ...]:
        return (self.layer(page),)

    def expected_opening(self, run: Run) -> tuple[int, ...]:
        return (most_roles_layer(run),)

    def show(self, page: Any, layer: int, head: int) -> None:
        page.locator(f"{self.box} select[data-hd='layer']").select_option(index=layer)
        self.open_head(page, head)

    def table(self, page: Any) -> tuple[list[str], list[str]]:
        details = page.locator(f"{self.box} [data-hd='details']")
        details.evaluate("d => { d.open = true; }")
        heads = page.locator(f"{self.box} [data-hd='table'] thead th").all_text_contents()[1:]
        cells = page.locator(f"{self.box} [data-hd='table'] tbody td").all_text_contents()
        details.evaluate("d => { d.open = false; }")
        return heads, cells

    def check_roles(self, page: Any, run: Run, layer: int) -> None:
        """The twelve captions: the role and share attention_ref.head_roles gives each head.

        The browser's weights may differ from the reference by up to 3e-3, so a head whose
        largest share is that close to the threshold, or to its runner-up, may be named
        either way; every other head must carry Python's role and share.
        """
        expected = python_roles(run)[layer]
        buttons = page.locator(f"{self.box} .heads__head")
        assert buttons.count() == len(expected)
        for head, want in enumerate(expected):
            b = buttons.nth(head)
            shown_role = b.get_attribute("data-role")
            shown_share = b.locator(".heads__share").text_content() or ""
            shares = role_shares(run.attentions[layer, head], run.tokens)
            ranked = sorted((shares[k] for k in PATTERNS), reverse=True)
            close = abs(ranked[0] - THRESHOLD) <= BOUND or ranked[0] - ranked[1] <= 2 * BOUND
            if not close:
                assert shown_role == want["role"], f"layer {layer + 1} head {head + 1}"
                label = b.locator(".heads__role").text_content()
                assert label == ROLES[want["role"]], f"layer {layer + 1} head {head + 1}"
            found = re.fullmatch(r"(share|largest) (\d\.\d{3})", shown_share)
            assert found, shown_share
            assert abs(float(found.group(2)) - ranked[0]) <= BOUND, (
                f"layer {layer + 1} head {head + 1}: share {shown_share}, Python {ranked[0]:.4f}"
            )

    def check_opened(self, page: Any, run: Run) -> None:
        self.check_roles(page, run, self.layer(page))
        status = page.locator(f"{self.box} [data-hd='status']").text_content() or ""
        assert status.startswith(
            f"Heads of layer {self.layer(page) + 1} of 6, with your sentence: "
        )
        # Keyboard: Enter on a small head opens it; its title names its layer and head.
        page.locator(f"{self.box} .heads__head[data-head='0']").focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        title = page.locator(f"{self.box} [data-hd='title']").text_content() or ""
        assert title.startswith(f"Layer {self.layer(page) + 1}, head 2: "), title

    def check_fixed_sentence(self, page: Any) -> None:
        page.locator(self.box).get_by_role("radio", name="…too wide").check()
        status = page.locator(f"{self.box} [data-hd='status']").text_content() or ""
        assert "with “…too wide.”: " in status, status

    def check_back_on_fixed(self, page: Any) -> None:
        self.check_fixed_sentence(page)

    def check_in_step(self, page: Any, run: Run, layer: int, head: int) -> None:
        title = page.locator(f"{self.box} [data-hd='title']").text_content() or ""
        assert title.startswith(f"Layer {layer + 1}, head {head + 1}: "), title
        status = page.locator(f"{self.box} [data-hd='status']").text_content() or ""
        assert status.startswith(f"Heads of layer {layer + 1} of 6, with your sentence: ")
        self.check_roles(page, run, layer)


Widget = Heatmap | Heads
HEATMAP, HEADS = Heatmap(), Heads()
WIDGETS: list[Widget] = [HEATMAP, HEADS]


@pytest.fixture(params=WIDGETS, ids=lambda w: w.name)
def widget(request: pytest.FixtureRequest) -> Widget:
    w: Widget = request.param
    return w


# ------------------------------------------------------------------------------ helpers


def form(widget: Widget) -> str:
    return f"{widget.box} [data-own='form']"


def manifest(site_dir: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((site_dir / "assets/minilm/manifest.json").read_text())
    return record


def model_requests(page: Any) -> list[str]:
    urls: list[str] = []
    page.context.on("request", lambda r: urls.append(r.url) if "/assets/minilm/" in r.url else None)
    return urls


def submit(page: Any, widget: Widget, text: str) -> None:
    field = page.locator(widget.box).get_by_label("Try your own sentence")
    field.fill(text)
    field.press("Enter")


def consent_and_wait(page: Any, widget: Widget) -> None:
    page.locator(f"{form(widget)} [data-own='consent']").click()
    page.wait_for_selector(f"{form(widget)}[data-own-state=done]", timeout=120_000)


def consent_and_wait_or_error(page: Any, widget: Widget) -> None:
    page.locator(f"{form(widget)} [data-own='consent']").click()
    page.wait_for_selector(
        f"{form(widget)}:is([data-own-state=done], [data-own-state=error])", timeout=120_000
    )


def message(page: Any, widget: Widget) -> str:
    return page.locator(f"{form(widget)} [data-own='message']").text_content() or ""


def check_table(page: Any, widget: Widget, weights: np.ndarray, tokens: list[str]) -> None:
    """The data table holds `weights` (n, n) within BOUND, tokens as column headers."""
    heads, cells = widget.table(page)
    assert heads == tokens
    check_numbers("data table", cells, weights)


def check_axe(page: Any, widget: Widget) -> None:
    violations = axe_violations(page, widget.box)
    assert violations == [], describe(violations)


# -------------------------------------------------------------------------------- tests


@pytest.mark.parametrize(
    ("color_scheme", "viewport"),
    [("light", DESKTOP), ("dark", PHONE)],
    indirect=True,
    ids=["light-desktop", "dark-phone"],
)
def test_own_sentence_runs_the_model_and_shows_it(
    page: Any, site_url: str, site_dir: Path, widget: Widget
) -> None:
    urls = model_requests(page)
    widget.open(page, site_url)
    assert urls == [], "nothing of the model loads before the reader asks"
    # The fixed sentences need no download.
    widget.check_fixed_sentence(page)
    assert urls == []
    submit(page, widget, SENTENCE)
    consent = page.locator(f"{form(widget)} [data-own='consent']")
    consent.wait_for()
    m = manifest(site_dir)
    size = m["tokenizer"]["bytes"] + sum(g["bytes"] for g in m["groups"])
    assert consent.text_content() == f"Load the model: {size / 1e6:.1f} MB, once"
    assert [u for u in urls if not u.endswith("manifest.json")] == [], "asked before downloading"
    check_axe(page, widget)
    consent_and_wait(page, widget)
    run = reference(SENTENCE)
    assert widget.opened_on(page, run) == widget.expected_opening(run), "opens where its rule says"
    assert widget.own_radio(page).is_checked()
    said = message(page, widget)
    assert f"gives {len(run.tokens)} tokens" in said and "within 0.003" in said, said
    assert widget.tokens(page) == run.tokens
    widget.check_opened(page, run)
    # Another head of the reader's sentence, then back to a fixed sentence: still right.
    widget.show(page, 0, 3)
    check_table(page, widget, run.attentions[0, 3], run.tokens)
    check_axe(page, widget)
    widget.check_back_on_fixed(page)
    assert any("/assets/minilm/words/" in u for u in urls)


@pytest.mark.parametrize(
    ("color_scheme", "viewport"), [("dark", DESKTOP)], indirect=True, ids=["dark-desktop"]
)
def test_empty_too_long_and_html_sentences(page: Any, site_url: str, widget: Widget) -> None:
    """Three sentences the widget must not take at face value, one after another on one
    page (each submit owns the form anew): an empty field, a sentence over the limit,
    and HTML, which shows as text."""
    urls = model_requests(page)
    widget.open(page, site_url)
    dialogs: list[str] = []

    def dismiss(d: Any) -> None:
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dismiss)

    # An empty field loads nothing, by Enter or by the button.
    submit(page, widget, "   ")
    assert message(page, widget) == "Type a sentence first: the field is empty."
    page.locator(widget.box).get_by_role("button", name="Run the model").click()
    assert message(page, widget) == "Type a sentence first: the field is empty."
    assert urls == []

    # Too long: the count and the limit, and no weights downloaded for it.
    text = " ".join(["word"] * 70)  # 72 tokens with [CLS] and [SEP]
    submit(page, widget, text)
    consent_and_wait_or_error(page, widget)
    said = message(page, widget)
    assert "gives 72 tokens" in said and "at most 64" in said, said
    assert not any("/layer-" in u for u in urls), (
        "the weights are not downloaded for a refused sentence"
    )
    assert page.locator(f"{form(widget)} [data-own='retry']").count() == 0
    check_axe(page, widget)

    # HTML typed in is shown as text: no element made from it, no script run.
    text = "<img src=x onerror=alert(1)> <b>bold</b>"
    submit(page, widget, text)  # consent was given above: it runs at once
    page.wait_for_selector(f"{form(widget)}[data-own-state=done]", timeout=120_000)
    assert widget.tokens(page) == reference(text).tokens
    assert page.locator(f"{widget.box} img, {widget.box} b").count() == 0
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


# The failures one after another on one page, each in one palette and width, so that both
# palettes and both widths meet one: each retry starts again from the file that failed.
FAILURES = [
    ("missing", "has no", "light", DESKTOP),
    ("short", "cut short", "dark", PHONE),
    ("corrupt", "damaged", "dark", DESKTOP),
    ("network", "connection", "light", PHONE),
]


def test_a_broken_model_file_gives_a_message_and_a_retry(
    page: Any, site_url: str, widget: Widget
) -> None:
    widget.open(page, site_url)
    pattern = "**/assets/minilm/layer-3.*.bin"
    text = "My cat sleeps all day."
    palette = "light"
    for n, (kind, words, scheme, viewport) in enumerate(FAILURES):
        page.set_viewport_size(viewport)
        if scheme != palette:
            page.locator(PALETTE_TOGGLE).click()
            page.wait_for_function(
                "(s) => document.body.dataset.mdColorScheme === s",
                arg={"light": "default", "dark": "slate"}[scheme],
            )
            palette = scheme
        if kind == "network":
            page.context.route(pattern, lambda r: r.abort("internetdisconnected"))
        else:
            page.context.route(pattern, _break(kind))
        if n == 0:
            submit(page, widget, text)
            consent_and_wait_or_error(page, widget)
        else:
            page.locator(f"{form(widget)} [data-own='retry']").click()
            page.wait_for_selector(
                f"{form(widget)}:is([data-own-state=done], [data-own-state=error])",
                timeout=120_000,
            )
        state = page.locator(form(widget)).get_attribute("data-own-state")
        assert state == "error", f"{kind}: {state}"
        said = message(page, widget)
        assert "could not be loaded" in said and words in said and "layer-3." in said, (kind, said)
        if n < 2:  # the error state in the light palette, then in the dark one
            check_axe(page, widget)
        # The rest of the widget still works.
        widget.check_fixed_sentence(page)
        page.context.unroute(pattern)
    # The file is back: the retry runs the model.
    page.locator(f"{form(widget)} [data-own='retry']").click()
    page.wait_for_selector(f"{form(widget)}[data-own-state=done]", timeout=120_000)
    assert widget.tokens(page) == reference(text).tokens


def test_a_later_submit_wins_and_fast_switching_stays_in_step(
    page: Any, site_url: str, widget: Widget
) -> None:
    widget.open(page, site_url)
    # A second sentence submitted while the first is still loading replaces it.
    submit(page, widget, "A first sentence that will be overtaken.")
    page.locator(f"{form(widget)} [data-own='consent']").click()
    submit(page, widget, "The second one wins.")
    page.wait_for_selector(f"{form(widget)}[data-own-state=done]", timeout=120_000)
    page.wait_for_timeout(500)  # a late result of the first must not replace it
    run = reference("The second one wins.")
    assert widget.tokens(page) == run.tokens
    assert widget.opened_on(page, run) == widget.expected_opening(run)
    widget.show(page, 2, 5)
    check_table(page, widget, run.attentions[2, 5], run.tokens)

    # A third sentence, then heads switched fast and a fixed sentence and back: the map,
    # the table and the labels all show the last choice.
    text = "Quick changes never mix two heads."
    submit(page, widget, text)
    page.wait_for_selector(f"{form(widget)}[data-own-state=done]", timeout=120_000)
    run = reference(text)
    assert widget.tokens(page) == run.tokens
    for layer, head in [(0, 0), (5, 11), (2, 7), (4, 1), (3, 3)]:
        widget.show(page, layer, head)
    page.locator(widget.box).get_by_role("radio", name="…too tired").check()
    widget.own_radio(page).check()
    widget.check_in_step(page, run, 3, 3)
    check_table(page, widget, run.attentions[3, 3], run.tokens)


def test_one_model_for_both_lessons(page: Any, site_url: str) -> None:
    """Consent and weights carry over from lesson 1 to lesson 2: the second lesson finds
    every file in Cache Storage, so it neither asks again nor downloads the weights."""
    heatmap, heads = HEATMAP, HEADS
    urls = model_requests(page)
    heatmap.open(page, site_url)
    submit(page, heatmap, SENTENCE)
    consent_and_wait(page, heatmap)
    loaded = len([u for u in urls if "/layer-" in u])
    assert loaded > 0
    page.locator("nav.md-nav--primary a.md-nav__link[href*='self-attention']").first.click()
    page.wait_for_url(site_url + heads.path)
    page.locator(heads.box).scroll_into_view_if_needed()
    page.wait_for_selector(f"{heads.box}[data-widget-state=ready]")
    submit(page, heads, "A different sentence for the heads.")
    # No second question: the reader agreed once; no second download of the weights.
    page.wait_for_selector(f"{form(heads)}[data-own-state=done]", timeout=120_000)
    assert page.locator(f"{form(heads)} [data-own='consent']").count() == 0
    assert len([u for u in urls if "/layer-" in u]) == loaded
    run = reference("A different sentence for the heads.")
    assert heads.tokens(page) == run.tokens
    heads.check_roles(page, run, heads.layer(page))


HEAD_ROLES_IN_JS = """async (base) => {
  const R = await import(base + "javascripts/lib/head-roles.js");
  const data = await (await fetch(base + "assets/data/it_attention.json")).json();
  const weights = (units) => units.map((row) => row.map((u) => u / data.scale));
  return data.sentences.map((s) =>
    s.attention.map((layer) => layer.map((units) => R.headRole(weights(units), s.tokens))));
}"""


def test_head_roles_js_equals_the_build_on_every_head(
    page: Any, site_url: str, site_dir: Path
) -> None:
    """head-roles.js, run in Chromium on the site's attention data (attention_ref.minilm's
    numbers for the lessons' sentences), gives every head the role and share that the
    build's Python (attention_ref.head_roles, through site_build.heads_figure) wrote into
    the site's head_roles.json, and that head_role gives here on the same numbers."""
    page.goto(site_url + "self-attention/", wait_until="load")
    got = page.evaluate(HEAD_ROLES_IN_JS, site_url)
    data = json.loads((site_dir / "assets/data/it_attention.json").read_text(encoding="utf-8"))
    built = json.loads((site_dir / "assets/data/head_roles.json").read_text(encoding="utf-8"))
    heads = 0
    for s, shown in zip(data["sentences"], got, strict=True):
        for layer, (mats, js) in enumerate(zip(s["attention"], shown, strict=True)):
            for head, (units, entry) in enumerate(zip(mats, js, strict=True)):
                where = f"{s['id']} layer {layer + 1} head {head + 1}"
                want = head_role(np.asarray(units, dtype=np.float64) / data["scale"], s["tokens"])
                assert entry == want, where
                assert entry == built["sentences"][s["id"]][layer][head], where
                heads += 1
    assert heads == len(data["sentences"]) * 6 * 12 == 144
