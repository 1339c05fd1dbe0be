"""The query explorer in Chromium: every number it shows equals attention_ref's.

The oracle is computed here, in Python: attention_ref on the query the page shows (and
the lesson's keys and values), and for the d_k experiment attention_ref on the random
q and keys recreated from the shown seed by an independent implementation of the
generator (``tests/seeded_normals.py``). A shown number passes when it has the widget's
declared number of decimals and is within half a unit of its last place.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import attention_ref
from site_build.widget_data import PRECISION, explorer_data
from site_build.worked_example import read
from tests.browser.axe import axe_violations, describe, violations_in_both_palettes
from tests.seeded_normals import draw_sample

# The worked example's inputs, from their one source (snippets/worked_example.py).
WORKED = read()
WORKED_KEYS, WORKED_VALUES = WORKED.keys, WORKED.values

DATA = explorer_data()
N_KEYS = DATA["dk_slider"]["n_keys"]
PHONE = {"width": 360, "height": 740}


# --- reading and checking the page ------------------------------------------------------


def number(text: str) -> float:
    return float(text.strip().replace("\u2212", "-"))


def vector(text: str) -> list[float]:
    return [number(x) for x in text.strip().strip("[]").split(",")]


def check_number(what: str, shown: str, expected: float, dp: int) -> None:
    text = shown.strip().replace("\u2212", "-")
    decimals = len(text.split(".")[1]) if "." in text else 0
    assert decimals == dp, f"{what}: shown {shown!r} with {decimals} decimals, expected {dp}"
    assert abs(float(text) - expected) <= 0.5 * 10**-dp + 1e-9, (
        f"{what}: shown {shown!r}, attention_ref gives {expected!r}"
    )


def texts(page: Any, selector: str) -> list[str]:
    return [t or "" for t in page.locator(selector).all_text_contents()]


def open_explorer(page: Any, site_url: str) -> None:
    page.goto(site_url + "attention/", wait_until="load")
    # The explorer is built only when it comes near the screen.
    assert page.locator(".ex").get_attribute("data-widget-state") == "waiting"
    page.locator(".ex").scroll_into_view_if_needed()
    page.wait_for_selector(".ex[data-widget-state='ready']")


def shown_query(page: Any) -> list[float]:
    q = vector(texts(page, "[data-ex='q']")[0])
    sliders = [
        float(v)
        for v in page.eval_on_selector_all(".ex__sliders input", "es => es.map(e => e.value)")
    ]
    outputs = [number(t) for t in texts(page, ".ex__sliders output")]
    assert q == sliders == outputs, f"q shown {q}, sliders {sliders}, slider outputs {outputs}"
    return q


def check_query_part(page: Any) -> list[float]:
    """Every number of part 1 against attention_ref for the query the page shows."""
    q = shown_query(page)
    s = attention_ref.scores(q, WORKED_KEYS)  # (3,)
    scaled = attention_ref.scaled_scores(q, WORKED_KEYS)
    weights = attention_ref.attention_weights(q, WORKED_KEYS)
    out = attention_ref.scaled_dot_product_attention(q, WORKED_KEYS, WORKED_VALUES)  # (2,)
    for kind, ref in (("score", s), ("scaled", scaled), ("weight", weights)):
        shown = texts(page, f"[data-ex='{kind}']")
        assert len(shown) == len(WORKED_KEYS)
        dp = PRECISION[{"score": "scores", "scaled": "scaled", "weight": "weights"}[kind]]
        for j, (t, r) in enumerate(zip(shown, ref, strict=True)):
            check_number(f"q={q} {kind}[{j + 1}]", t, float(r), dp)
    shown_out = texts(page, "[data-ex='output']")[0].strip("[] ").split(",")
    for c, (t, r) in enumerate(zip(shown_out, out, strict=True)):
        check_number(f"q={q} output[{c + 1}]", t, float(r), PRECISION["output"])
    check_challenges(page, q)
    # The bars are as long as the weights.
    widths = page.eval_on_selector_all(
        "[data-ex='weight']", "es => es.map(e => e.previousElementSibling.firstChild.style.width)"
    )
    assert [float(w.rstrip("%")) for w in widths] == pytest.approx(100 * weights, abs=0.051)
    return q


CHALLENGES = DATA["challenges"]
TIE = 1e-9  # as the widget's maths: closer than this counts as equal


def challenge_oracle(q: list[float]) -> dict[str, bool]:
    """Each challenge's condition for the query q, decided here from attention_ref."""
    weights = attention_ref.attention_weights(q, WORKED_KEYS)  # (3,)
    out = attention_ref.scaled_dot_product_attention(q, WORKED_KEYS, WORKED_VALUES)  # (2,)
    win = CHALLENGES["win"]
    others = np.delete(weights, win)
    base = np.asarray(CHALLENGES["double"]["base"])
    base_w = attention_ref.attention_weights(base, WORKED_KEYS)
    doubled = bool(np.all(np.abs(np.asarray(q) - CHALLENGES["double"]["factor"] * base) <= TIE))
    near = np.asarray(WORKED_VALUES[CHALLENGES["near"]["value"]], dtype=np.float64)
    return {
        "win": bool(weights[win] - others.max() > TIE),
        "equal": bool(np.ptp(weights) <= TIE),
        "near": bool(np.linalg.norm(out - near) <= CHALLENGES["near"]["within"]),
        "double": doubled
        and bool(weights.max() > base_w.max())
        and bool(attention_ref.entropy(weights) < attention_ref.entropy(base_w)),
    }


def solved(page: Any) -> dict[str, bool]:
    items = page.eval_on_selector_all(
        "[data-challenge]", "es => es.map(e => [e.dataset.challenge, e.dataset.solved])"
    )
    return {key: flag == "true" for key, flag in items}


def check_challenges(page: Any, q: list[float]) -> dict[str, bool]:
    """The ticks the page shows agree with attention_ref, and each tick has its sentence."""
    shown = solved(page)
    assert shown == challenge_oracle(q), f"q={q}: page {shown}, attention_ref {challenge_oracle(q)}"
    for key, done in shown.items():
        item = page.locator(f"[data-challenge='{key}']")
        assert item.locator(".ex-ch__mark").count() == (1 if done else 0), key
        status = texts(page, f"[data-ex='challenge-{key}']")[0]
        assert (status == "Not yet.") == (not done), f"{key}: {status!r}"
    return shown


def check_dk_part(page: Any) -> tuple[int, int]:
    """Every number of part 2 against attention_ref on the recreated random sample."""
    seed = int(texts(page, "[data-ex='seed']")[0])
    d_k = int(texts(page, "[data-ex='dk']")[0])
    assert page.get_attribute(".ex", "data-seed") == str(seed)
    q, keys = draw_sample(seed, d_k, N_KEYS)
    raw = attention_ref.softmax(attention_ref.scores(q, keys))  # (n_keys,)
    scaled = attention_ref.attention_weights(q, keys)  # scale 1/sqrt(d_k)
    for kind, ref in (("raw", raw), ("scaled", scaled)):
        shown = texts(page, f"td[data-ex='dk-{kind}'] .ex__num")
        assert len(shown) == N_KEYS
        for j, (t, r) in enumerate(zip(shown, ref, strict=True)):
            check_number(
                f"seed {seed} d_k {d_k} {kind}[{j + 1}]", t, float(r), PRECISION["weights"]
            )
        check_number(
            f"d_k {d_k} {kind} largest",
            texts(page, f"[data-ex='dk-{kind}-max']")[0],
            float(ref.max()),
            PRECISION["weights"],
        )
        check_number(
            f"d_k {d_k} {kind} entropy",
            texts(page, f"[data-ex='dk-{kind}-entropy']")[0],
            float(attention_ref.entropy(ref)),
            PRECISION["entropy"],
        )
    return seed, d_k


def check_all(page: Any) -> tuple[list[float], int, int]:
    q = check_query_part(page)
    seed, d_k = check_dk_part(page)
    return q, seed, d_k


def follow_nav_link(page: Any, url: str) -> None:
    """Click the navigation link to ``url``, as a reader would (Material loads it instantly)."""
    page.evaluate(
        """(url) => [...document.querySelectorAll('.md-nav--primary a.md-nav__link')]
            .find((a) => a.href === url).click()""",
        url,
    )


def renders(page: Any) -> int:
    return int(page.get_attribute(".ex", "data-renders"))


# --- tests ------------------------------------------------------------------------------


def test_initial_state_is_the_worked_example(page: Any, site_url: str) -> None:
    open_explorer(page, site_url)
    q, seed, d_k = check_all(page)
    assert q == WORKED.q
    assert (seed, d_k) == (DATA["dk_slider"]["seed"], DATA["dk_slider"]["default_d_k"])
    # The lesson's hand-worked numbers, as the reader sees them.
    assert texts(page, "[data-ex='score']") == ["2.00", "0.00", "1.00"]
    assert texts(page, "[data-ex='scaled']") == ["1.000", "0.000", "0.500"]
    assert texts(page, "[data-ex='weight']") == ["0.506", "0.186", "0.307"]
    assert texts(page, "[data-ex='output']") == ["[5.68, 1.55]"]
    keys = [vector(t) for t in texts(page, ".ex__vec")]
    assert keys == [list(k) for k in WORKED_KEYS]
    even = float(attention_ref.entropy(np.full(N_KEYS, 1 / N_KEYS)))
    assert f"{even:.{PRECISION['entropy']}f} nats" in page.inner_text(".ex")
    page.wait_for_function(
        "() => document.querySelector(\"[data-ex='live']\").textContent.includes('[5.68, 1.55]')"
    )


def test_ten_states_match_attention_ref(page: Any, site_url: str) -> None:
    open_explorer(page, site_url)
    states: list[tuple[list[float], int, int]] = [check_all(page)]
    sliders = page.locator(".ex__sliders input")

    # Every component slider at both extremes, by keyboard.
    for i, key, value in ((0, "End", 3.0), (1, "Home", -3.0), (2, "Home", -3.0), (3, "End", 3.0)):
        sliders.nth(i).press(key)
        states.append(check_all(page))
        assert states[-1][0][i] == value
    for i, key, value in ((0, "Home", -3.0), (1, "End", 3.0)):
        sliders.nth(i).press(key)
        states.append(check_all(page))
        assert states[-1][0][i] == value

    # Back to the worked example.
    page.click("text=Back to the worked example")
    states.append(check_all(page))
    assert states[-1][0] == WORKED.q

    # Drag the handle with the mouse: 1.5 units left and 1 unit down on the q1-q3 plane.
    box = page.locator(".ex__handle").bounding_box()
    plane = page.locator(".ex__plane").bounding_box()
    unit = plane["width"] * (220 - 2 * 26) / 220 / 6  # px per unit (viewBox 220, margin 26, -3..3)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx - 1.5 * unit, cy + 1.0 * unit, steps=6)
    page.mouse.up()
    q = check_all(page)[0]
    assert q[0] == pytest.approx(-0.5, abs=0.11) and q[2] == pytest.approx(0.0, abs=0.11)
    assert q[1] == 0 and q[3] == 0
    states.append((q, *states[-1][1:]))

    # A drag far outside the plane clamps to the corner (an extreme of the plane).
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(plane["x"] + plane["width"] + 200, plane["y"] - 200, steps=4)
    page.mouse.up()
    states.append(check_all(page))
    assert states[-1][0][0] == 3.0 and states[-1][0][2] == 3.0

    # Keyboard moves of the handle, then of another pair of components.
    handle = page.locator(".ex__handle")
    handle.focus()
    for key in ("ArrowLeft", "ArrowLeft", "ArrowDown", "Shift+ArrowDown"):
        handle.press(key)
    states.append(check_all(page))
    assert states[-1][0][0] == 2.8 and states[-1][0][2] == 1.9
    page.select_option(".ex__planebox select", "1,3")
    handle.press("Shift+ArrowRight")
    handle.press("ArrowUp")
    states.append(check_all(page))
    assert states[-1][0][1] == 1.0 and states[-1][0][3] == 0.1

    # The d_k slider at both ends, and a reseed.
    dk = page.locator(".ex__controls input[type='range']")
    dk.press("Home")
    states.append(check_all(page))
    assert states[-1][2] == 1
    raw = texts(page, "td[data-ex='dk-raw'] .ex__num")
    assert raw == texts(page, "td[data-ex='dk-scaled'] .ex__num"), "at d_k = 1 the scale is 1"
    dk.press("End")
    states.append(check_all(page))
    assert states[-1][2] == 1024
    assert number(texts(page, "[data-ex='dk-raw-max']")[0]) > number(
        texts(page, "[data-ex='dk-scaled-max']")[0]
    )
    page.click("text=New sample")
    states.append(check_all(page))
    assert states[-1][1] == DATA["dk_slider"]["seed"] + 1
    dk.press("ArrowLeft")
    states.append(check_all(page))
    assert states[-1][2] == 512

    assert len(states) >= 10
    assert len({(tuple(q), s, d) for q, s, d in states}) >= 10, "the states must differ"


def tab_until(page: Any, selector: str, what: str, presses: int = 300) -> None:
    """Press Tab until the focused element matches ``selector``; fail naming ``what``."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    pytest.fail(f"Tab never reached {what} ({presses} presses)")


def test_keyboard_reaches_it_without_scrolling(page: Any, site_url: str) -> None:
    """Built lazily, the explorer is still ready by the time Tab gets there."""
    page.goto(site_url + "attention/", wait_until="load")
    assert page.locator(".ex").get_attribute("data-widget-state") == "waiting"
    tab_until(page, ".ex, .ex select", "the explorer")
    # Tab may land on the box while it is still being built: focus then moves on to
    # the plane selector, its first control, once it is ready.
    page.wait_for_function("() => document.activeElement.matches('.ex select')")
    assert page.locator(".ex").get_attribute("data-widget-state") == "ready"
    assert page.locator(".ex").get_attribute("tabindex") is None
    check_all(page)


def test_keyboard_only(page: Any, site_url: str) -> None:
    open_explorer(page, site_url)
    active = "() => document.activeElement.closest('.ex') ? (document.activeElement.id || "
    active += "document.activeElement.classList[0]) : null"
    # Tab from the top of the page until the plane selector has the focus.
    tab_until(page, ".ex select", "the explorer's plane selector")
    page.keyboard.press("Tab")
    assert page.evaluate(active) == "ex__handle"
    outline = page.evaluate("() => getComputedStyle(document.activeElement).strokeDasharray")
    assert outline not in ("", "none"), "the focused handle shows no focus ring"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    assert check_query_part(page) == [1.1, 0, 1.1, 0]
    page.keyboard.press("Tab")  # the q1 slider
    assert page.evaluate(active).endswith("-q0")
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert check_query_part(page) == [0.9, 0, 1.1, 0]
    for _ in range(4):  # q2, q3, q4, then the reset button
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert check_query_part(page) == WORKED.q
    page.keyboard.press("Tab")  # the d_k slider
    page.keyboard.press("ArrowRight")
    assert check_dk_part(page)[1] == 128
    page.keyboard.press("Tab")  # New sample
    page.keyboard.press("Space")
    assert check_dk_part(page) == (DATA["dk_slider"]["seed"] + 1, 128)


def serve_sitemap_for_local_base(page: Any, site_url: str, site_dir: Path) -> None:
    """Serve sitemap.xml with the local base URL in place of the deployed one.

    Material's instant navigation only intercepts links listed in sitemap.xml, and it
    matches them with the deployed site_url's path and port: on 127.0.0.1:PORT/ it
    would silently fall back to full page loads. Rewriting the sitemap makes the local
    site behave as the deployed one does.
    """
    xml = (site_dir / "sitemap.xml").read_text(encoding="utf-8")
    locs = re.findall(r"<loc>([^<]+)</loc>", xml)
    deployed = min(locs, key=len)
    local = xml.replace(deployed, site_url)
    page.route(
        site_url + "sitemap.xml",
        lambda route: route.fulfill(status=200, content_type="application/xml", body=local),
    )


def test_navigation_away_and_back(page: Any, site_url: str, site_dir: Path) -> None:
    serve_sitemap_for_local_base(page, site_url, site_dir)
    open_explorer(page, site_url)
    page.wait_for_load_state("networkidle")  # the sitemap is fetched after load
    follow_nav_link(page, site_url)
    page.wait_for_url(site_url)
    page.wait_for_function("() => document.querySelector('.ex') === null")
    follow_nav_link(page, site_url + "attention/")
    page.wait_for_url(site_url + "attention/")
    page.locator(".ex").scroll_into_view_if_needed()
    page.wait_for_selector(".ex[data-widget-state='ready']")
    assert page.locator(".ex").count() == 1
    check_all(page)
    # One key press: one recompute and one step, not two (no duplicated listeners).
    before = renders(page)
    page.locator(".ex__sliders input").first.press("ArrowRight")
    assert renders(page) == before + 1
    assert check_query_part(page)[0] == 1.1
    page.click("text=New sample")
    assert check_dk_part(page)[0] == DATA["dk_slider"]["seed"] + 1
    # Pressing the handle's arrow moves one step too.
    page.locator(".ex__handle").press("ArrowDown")
    assert renders(page) == before + 2
    assert check_query_part(page) == [1.1, 0, 0.9, 0]


@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
def test_no_axe_violations_and_screenshots(
    page: Any, site_url: str, color_scheme: str, screenshots: Path
) -> None:
    open_explorer(page, site_url)
    violations = axe_violations(page, include=".ex")
    assert violations == [], describe(violations)
    page.locator(".ex").screenshot(path=str(screenshots / f"explorer-{color_scheme}.png"))


@pytest.mark.parametrize("viewport", [PHONE])
@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
def test_phone_width(page: Any, site_url: str, color_scheme: str, screenshots: Path) -> None:
    open_explorer(page, site_url)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page overflows a {PHONE['width']} px screen: {width} px"
    box = page.locator(".ex").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.locator(".ex__sliders input").nth(2).press("End")
    page.locator(".ex__controls input[type='range']").press("End")
    check_all(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"at the extremes the page overflows: {width} px"
    hidden = page.eval_on_selector_all(
        ".ex__tablebox", "es => es.filter(e => e.scrollWidth > e.clientWidth + 1).length"
    )
    assert hidden == 0, "a table of the explorer needs a sideways scroll on a phone"
    page.locator(".ex").screenshot(path=str(screenshots / f"explorer-phone-{color_scheme}.png"))


# --- the challenges -------------------------------------------------------------------


def press(page: Any, slider: int, key: str, times: int = 1) -> None:
    for _ in range(times):
        page.locator(".ex__sliders input").nth(slider).press(key)


def only(page: Any, key: str | None) -> list[float]:
    """Check every number and tick, and that exactly ``key`` (or none) is solved."""
    q = check_query_part(page)
    assert [k for k, done in solved(page).items() if done] == ([key] if key else []), q
    return q


def status(page: Any, key: str) -> str:
    return texts(page, f"[data-ex='challenge-{key}']")[0]


def announced(page: Any, text: str) -> None:
    page.wait_for_function(
        "(t) => document.querySelector(\"[data-ex='challenge-live']\").textContent.includes(t)",
        arg=text,
    )


def test_challenges_in_and_out_by_keyboard(page: Any, site_url: str) -> None:
    open_explorer(page, site_url)
    assert only(page, None) == WORKED.q

    def axe_clean() -> None:
        """No violation in this state, in the light palette and in the dark one."""
        assert violations_in_both_palettes(page, include=".ex") == {"default": "", "slate": ""}

    # 1. k3 wins once q3 < 0: scores q1 + q3 = 0.9, q2 + q4 = 0, q1 = 1.
    press(page, 2, "ArrowLeft", 11)
    assert only(page, "win") == [1, 0, -0.1, 0]
    assert "largest score (1.00 against 0.90, 0.00)" in status(page, "win")
    announced(page, "Challenge 1 done. Solved:")
    axe_clean()
    press(page, 2, "ArrowRight")  # q3 = 0: k1 and k3 tie, nobody wins
    only(page, None)
    announced(page, "Challenge 1: no longer done.")

    # 2. Equal weights: q3 = 0 and q2 + q4 = q1.
    press(page, 3, "ArrowRight", 10)
    assert only(page, "equal") == [1, 0, 0, 1]
    weights = attention_ref.attention_weights([1, 0, 0, 1], WORKED_KEYS)
    assert weights == pytest.approx([1 / 3] * 3, abs=1e-15)
    assert texts(page, "[data-ex='weight']") == ["0.333"] * 3
    announced(page, "Challenge 2 done.")
    axe_clean()
    press(page, 3, "ArrowRight")
    only(page, None)

    # 3. Towards v2: the corner of the box gets as close as the sliders allow, never onto it.
    press(page, 0, "Home")
    press(page, 1, "End")
    press(page, 2, "Home")
    press(page, 3, "End")
    assert only(page, "near") == CHALLENGES["near"]["closest"]["q"]
    out = attention_ref.scaled_dot_product_attention(
        CHALLENGES["near"]["closest"]["q"], WORKED_KEYS, WORKED_VALUES
    )
    gap = float(np.linalg.norm(out - np.asarray(WORKED_VALUES[1])))
    assert 0 < gap <= CHALLENGES["near"]["within"]
    text = status(page, "near")
    assert "never exact" in text and f"{gap:.2f} from v2" in text
    w = attention_ref.attention_weights(CHALLENGES["near"]["closest"]["q"], WORKED_KEYS)
    assert f"α1 = {w[0]:.3f} and α3 = {w[2]:.3f}" in text
    assert texts(page, "[data-ex='output']")[0] != "[0.00, 5.00]"
    announced(page, "Challenge 3 done.")
    axe_clean()
    # Out again just past the edge: q2 = 0 leaves the output about 0.27 from v2.
    press(page, 1, "ArrowLeft", 30)
    q = only(page, None)
    out = attention_ref.scaled_dot_product_attention(q, WORKED_KEYS, WORKED_VALUES)
    gap = float(np.linalg.norm(out - np.asarray(WORKED_VALUES[1])))
    assert CHALLENGES["near"]["within"] < gap < 0.3, (q, gap)
    announced(page, "Challenge 3: no longer done.")

    # 4. Double the worked query with two Shift+arrow presses on the dot.
    page.click("text=Back to the worked example")
    handle = page.locator(".ex__handle")
    handle.press("Shift+ArrowRight")
    handle.press("Shift+ArrowUp")
    assert only(page, "double") == [2 * x for x in WORKED.q]
    assert "from 0.506 to 0.665" in status(page, "double")
    announced(page, "Challenge 4 done.")
    axe_clean()
    handle.press("ArrowRight")  # 2.1: no longer a doubling
    only(page, None)
    announced(page, "Challenge 4: no longer done.")
