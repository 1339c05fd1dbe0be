"""Lesson 5's generation widget in Chromium: lesson 4's model, run in the browser with a
cache of keys and values, against :func:`attention_ref.induction.forward` in numpy.

The letters are random, drawn here at test time from a seed printed in every failure
(``GENERATE_SEED=<seed>`` replays one), so they are not in the repository. At every step
of a run, with the same prefix in numpy (a recompute of the whole context, no cache):

- the logits, which the widget keeps in its box's ``data-logits`` attribute (JSON of the
  float64 values, written in the shortest form that reads back as the same double), are
  within ``LOGIT_TOL`` of numpy's, and the letter written is numpy's argmax;
- the attention row shown, for the layer and head picked, is numpy's row of weights of
  the newest token for that layer and head, within half a unit of its last shown decimal;
- each layer's cache holds one key row and one value row per token read, and its bytes
  are those of numpy's keys and values of that layer (``nbytes``, float64);
- the multiply-adds are ``attention_ref.induction.decode_multiply_adds``'s, whose count
  tests/test_generate.py checks against a loop over a forward pass's operations. The
  first step reads the whole prompt into the cache, one token at a time, which costs
  exactly what recomputing it does, so it saves nothing; each later step saves
  (recompute - cached), and the total adds these up.

LOGIT_TOL = 1e-9, absolute. The JavaScript computes in float64 as numpy does, from the
same parsed weights (tests/test_generate_data.py): the only difference is the order of the
sums (numpy's BLAS blocks and vectorises them, the widget adds left to right). A sum of
32 products of size ~1 differs by a few ulps between orders, ~1e-15; the logits, of size
~10, differed by at most 2.1e-14 over 382 steps of 40 random prompts (December 2026, with
OpenBLAS's default, Sandybridge and Prescott kernels). 1e-9 is generous, and still far
below any real error: scores scaled by 1.0001 instead of 1 moved the logits by 2e-4.

What the box says when the weights cannot be had is tested for every widget of the site
model in test_widget_loader.py.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from typing import Any

import numpy as np
import pytest

from attention_ref.induction import LETTERS, START, Config, decode_multiply_adds, forward
from site_build.widget_data import DEFAULT_PROMPT, WEIGHTS_JSON
from tests.browser.axe import violations_in_both_palettes
from tests.browser.settled import open_widget

RECORD: dict[str, Any] = json.loads(WEIGHTS_JSON.read_text(encoding="utf-8"))
CONFIG = Config(**RECORD["config"])
PARAMS = {name: np.asarray(w, dtype=np.float64) for name, w in RECORD["params"].items()}
PAGE = "scale/"
WIDGET = "[data-widget='generate']"
PHONE = {"width": 360, "height": 740}
LOGIT_TOL = 1e-9  # see the module's docstring
HALF_UNIT = 0.0005 + 1e-9  # three decimals shown


@pytest.fixture
def seed() -> int:
    """A new seed each run, unless GENERATE_SEED replays one."""
    return int(os.environ.get("GENERATE_SEED") or secrets.randbits(32))


def symbol(token: int) -> str:
    return "^" if token == START else LETTERS[token]


def numpy_step(context: list[int]) -> dict[str, Any]:
    """What numpy says for one step on ``context`` (recomputing all of it)."""
    logits, cache = forward(PARAMS, np.array([context]), CONFIG)  # (1, n, 27)
    return {
        "logits": logits[0, -1],  # (27,): the next token's
        "weights": [w[0, :, -1, :] for w in cache["weights"]],  # per layer (heads, n)
        "bytes": [c["k"].nbytes + c["v"].nbytes for c in cache["layers"]],
    }


def multiply_adds(n: int) -> tuple[int, int]:
    """(recompute, cached) multiply-adds for the next-token logits with n tokens in context,
    as attention_ref counts them (tests/test_generate.py checks its count against a loop
    over the model's operations)."""
    return (
        decode_multiply_adds(CONFIG, n, use_cache=False),
        decode_multiply_adds(CONFIG, n, use_cache=True),
    )


def step_cost(n: int, first: bool) -> tuple[int, int]:
    """(recompute, cached) for one step: the first step reads all n prompt tokens into the
    cache, one at a time, each at its own context length; a later step reads one."""
    recompute, cached = multiply_adds(n)
    if first:
        cached = sum(multiply_adds(p)[1] for p in range(1, n + 1))
    return recompute, cached


SHOWN = """(box) => {
  const q = (s) => box.querySelector(s);
  return {
    logits: box.dataset.logits ? JSON.parse(box.dataset.logits) : null,
    read: q('[data-gen=read]') ? q('[data-gen=read]').textContent : '',
    written: q('[data-gen=written]') ? q('[data-gen=written]').textContent : '',
    status: q('[data-gen=status]').textContent,
    title: q('[data-gen=row-title]').textContent,
    row: [...box.querySelectorAll('[data-gen=row] li')].map((li) => [
      li.querySelector('.generate__letter').textContent,
      li.querySelector('[data-gen=weight]').textContent]),
    cache: [...box.querySelectorAll('[data-gen=cache]')].map((e) => e.textContent),
    cost: q('[data-gen=cost]').textContent,
    saved: q('[data-gen=saved]').textContent,
    layer: Number(q('[data-gen=layer]').value),
    head: Number(q('[data-gen=head]').value),
    canStep: !q('[data-gen=next]').disabled && !q('[data-gen=run]').disabled,
    wide: box.scrollWidth <= box.clientWidth + 1,
  };
}"""


def shown(box: Any) -> dict[str, Any]:
    result: dict[str, Any] = box.evaluate(SHOWN)
    return result


def number(text: str) -> int:
    return int(text.replace(",", ""))


class Run:
    """The run a test drives, checked against numpy after each step."""

    def __init__(self, box: Any, prompt: str, why: str) -> None:
        self.box, self.why = box, why
        self.context = [START] + [LETTERS.index(c) for c in prompt]
        self.prompt_tokens = len(self.context)
        self.saved = 0
        self.steps = 0

    def check_fresh(self) -> None:
        seen = shown(self.box)
        assert seen["logits"] is None and seen["written"] == "", (self.why, seen)
        assert seen["read"] == "".join(map(symbol, self.context)), (self.why, seen)
        assert seen["status"].startswith("Press Next letter"), (self.why, seen)
        assert seen["cache"] == [f"Layer {i}: 0 key rows and 0 value rows, 0 bytes" for i in (1, 2)]
        assert seen["saved"] == "Multiply-adds saved so far: 0.", (self.why, seen)
        assert seen["row"] == [] and seen["canStep"], (self.why, seen)
        # The formula shown before the first step counts what multiply_adds counts.
        m = re.fullmatch(
            r"Per step with n tokens in context: recomputing costs "
            r"(\d+)\((\d+)n \+ (\d+)n\(n\+1\)\) \+ (\d+)n, "
            r"the cache (\d+)\((\d+) \+ (\d+)n\) \+ (\d+)\.",
            seen["cost"],
        )
        assert m, (self.why, seen["cost"])
        a, b, c, d, e, f, g, k = map(int, m.groups())
        for n in range(1, CONFIG.max_len):
            shown_counts = (a * (b * n + c * n * (n + 1)) + d * n, e * (f + g * n) + k)
            assert shown_counts == multiply_adds(n), (n, seen["cost"])

    def check_step(self) -> None:
        """The widget took one step: compare all it shows with numpy on the same prefix."""
        want = numpy_step(self.context)
        n = len(self.context)
        self.context.append(int(np.argmax(want["logits"])))
        recompute, cached = step_cost(n, first=self.steps == 0)
        self.steps += 1
        self.saved += recompute - cached
        seen = shown(self.box)
        why = f"{self.why}, step {self.steps} (n = {n})"
        assert seen["logits"] is not None, why
        worst = float(np.abs(np.asarray(seen["logits"]) - want["logits"]).max())
        assert worst <= LOGIT_TOL, f"{why}: logits off by {worst:.3g}"
        assert seen["read"] + seen["written"] == "".join(map(symbol, self.context)), (why, seen)
        assert len(seen["written"]) == self.steps, (why, seen)
        layer, head = seen["layer"], seen["head"]
        row = want["weights"][layer][head]  # (n,)
        assert [letter for letter, _ in seen["row"]] == [symbol(t) for t in self.context[:n]], why
        assert len(seen["row"]) == n, why
        for j, (_, text) in enumerate(seen["row"]):
            assert re.fullmatch(r"[01]\.\d{3}", text), (why, text)
            assert abs(float(text) - row[j]) <= HALF_UNIT, (why, layer, head, j, text, row[j])
        newest = symbol(self.context[n - 1])
        assert seen["title"] == (
            f"Where the newest token, “{newest}”, looks in layer {layer + 1}, head {head + 1}, "
            f"over the {n} cached keys:"
        ), (why, seen["title"])
        for i, text in enumerate(seen["cache"]):
            assert text == (
                f"Layer {i + 1}: {n} key rows and {n} value rows, {want['bytes'][i]:,} bytes"
            ), (why, text)
        tail = (
            rf"with the cache, which reads all {n} once: the first step saves nothing\."
            if self.steps == 1
            else r"for the newest alone, the others cached\."
        )
        m = re.fullmatch(
            r"This step's logits, with (\d+) tokens in context: ([\d,]+) multiply-adds "
            rf"recomputing all (\d+), ([\d,]+) {tail}",
            seen["cost"],
        )
        assert m, (why, seen["cost"])
        shown_cost = (int(m[1]), number(m[2]), int(m[3]), number(m[4]))
        assert shown_cost == (n, recompute, n, cached), why
        assert seen["saved"] == f"Multiply-adds saved so far: {self.saved:,}.", (why, seen)
        done = len(self.context) == CONFIG.max_len
        assert seen["canStep"] is not done, why
        assert seen["status"].startswith(f"Step {self.steps}: the model read “{newest}”"), why

    def check_finished(self) -> None:
        """After Run to the end: the whole greedy continuation, and the last step's numbers."""
        while len(self.context) < CONFIG.max_len - 1:
            want = numpy_step(self.context)
            recompute, cached = step_cost(len(self.context), first=self.steps == 0)
            self.saved += recompute - cached
            self.context.append(int(np.argmax(want["logits"])))
            self.steps += 1
        self.check_step()
        assert not shown(self.box)["canStep"]


def random_letters(rng: np.random.Generator, n: int) -> str:
    return "".join(LETTERS[i] for i in rng.integers(0, 26, size=n))


def type_prompt(page: Any, box: Any, letters: str) -> None:
    """Replace the field's letters from the keyboard (each key restarts the run)."""
    box.locator("[data-gen=prompt]").focus()
    page.keyboard.press("Control+A")
    if letters:
        page.keyboard.type(letters)
    else:
        page.keyboard.press("Backspace")


def test_keyboard_runs_on_random_letters_match_numpy_at_every_step(
    page: Any, site_url: str, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    why = f"seed {seed} (GENERATE_SEED={seed} replays it)"
    box = open_widget(page, site_url + PAGE, WIDGET)
    # The default prompt, untouched: Enter in the field takes the first step.
    assert box.locator("[data-gen=prompt]").input_value() == DEFAULT_PROMPT
    run = Run(box, DEFAULT_PROMPT, f"default prompt, {why}")
    run.check_fresh()
    box.locator("[data-gen=prompt]").focus()
    page.keyboard.press("Enter")
    run.check_step()

    # 1. Random letters, stepped with Enter in the field, all the way to a full context.
    letters = random_letters(rng, int(rng.integers(1, 9)))
    type_prompt(page, box, letters)
    run = Run(box, letters, f"{letters!r}, {why}")
    run.check_fresh()
    while len(run.context) < CONFIG.max_len:
        page.keyboard.press("Enter")
        run.check_step()
    page.keyboard.press("Enter")  # a full context: nothing more happens
    assert shown(box)["written"] == "".join(map(symbol, run.context[run.prompt_tokens :]))

    # 2. A repeat not in the repository (a random run and its first letters), stepped with
    #    the Next letter button; the layer and head picked with the arrow keys on the way.
    half = int(rng.integers(5, 9))
    first = random_letters(rng, half)
    letters = first + first[: int(rng.integers(1, 4))]
    type_prompt(page, box, letters)
    run = Run(box, letters, f"{letters!r}, {why}")
    page.keyboard.press("Tab")  # from the field to Next letter
    assert box.evaluate("(b) => document.activeElement === b.querySelector('[data-gen=next]')")
    for _ in range(3):
        page.keyboard.press("Enter")
        run.check_step()
    box.locator("[data-gen=layer]").focus()
    page.keyboard.press("ArrowDown")  # layer 2
    box.locator("[data-gen=head]").focus()
    for _ in range(int(rng.integers(0, 4))):
        page.keyboard.press("ArrowDown")
    seen = shown(box)
    assert seen["layer"] == 1, seen
    # Layers and heads are counted from 1 where a reader sees them.
    options = box.evaluate(
        "(b) => ['layer', 'head'].map((k) => [...b.querySelectorAll(`[data-gen=${k}] option`)]"
        ".map((o) => o.textContent))"
    )
    assert options == [["1", "2"], ["1", "2", "3", "4"]]
    # The row follows the pick at once (the same step: compare with its numpy row).
    weights = numpy_step(run.context[:-1])["weights"][1][seen["head"]]
    assert [float(t) for _, t in seen["row"]] == pytest.approx(weights, abs=HALF_UNIT), why
    box.locator("[data-gen=next]").focus()
    for _ in range(2):
        page.keyboard.press(" ")
        run.check_step()
    assert violations_in_both_palettes(page, include=WIDGET) == {"default": "", "slate": ""}

    # 3. Run to the end from the keyboard: the whole greedy continuation at once.
    box.locator("[data-gen=next]").focus()  # the palette toggle had it
    page.keyboard.press("Tab")
    assert box.evaluate("(b) => document.activeElement === b.querySelector('[data-gen=run]')")
    page.keyboard.press("Enter")
    run.check_finished()
    focused = box.evaluate("(b) => document.activeElement === b.querySelector('[data-gen=reset]')")
    assert focused, "focus left the widget when Run to the end was disabled"

    # 4. Reset starts again from the same letters.
    page.keyboard.press("Enter")
    Run(box, letters, f"after Reset, {why}").check_fresh()

    # 5. Bad letters say what is wrong, nothing runs, and good letters work again.
    for text, message in [
        (letters[:2] + "3", "“3” is not a letter: type the letters a to z only."),
        ("", "Type at least one letter for the model to continue."),
        (
            random_letters(rng, 23),
            "23 letters is too many: the model reads at most 22, so that it has room to write.",
        ),
    ]:
        type_prompt(page, box, text)
        seen = shown(box)
        assert seen["status"] == message, (text, seen["status"])
        assert not seen["canStep"] and seen["logits"] is None and seen["row"] == [], seen
        page.keyboard.press("Enter")
        assert shown(box)["logits"] is None
    letters = random_letters(rng, 22)  # the longest prompt: one step fills the context
    type_prompt(page, box, letters)
    run = Run(box, letters, f"{letters!r}, {why}")
    page.keyboard.press("Enter")
    run.check_step()
    assert not shown(box)["canStep"]


@pytest.mark.parametrize(("viewport", "has_touch"), [(PHONE, True)], indirect=True)
def test_taps_step_and_reset_at_a_phone_width(page: Any, site_url: str) -> None:
    box = open_widget(page, site_url + PAGE, WIDGET)
    run = Run(box, DEFAULT_PROMPT, "taps at 360 px")
    for _ in range(2):
        box.locator("[data-gen=next]").tap()
        run.check_step()
    box.locator("[data-gen=run]").tap()
    run.check_finished()
    seen = shown(box)
    assert seen["wide"], "the widget is wider than its box at 360 px"
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at 360 px"
    # The model continued the repeat it was given (tests/test_generate_data.py checks numpy).
    assert seen["written"].startswith(DEFAULT_PROMPT[2:7]), seen["written"]
    box.locator("[data-gen=reset]").tap()
    Run(box, DEFAULT_PROMPT, "after a tap on Reset").check_fresh()
    small = box.evaluate(
        """(b) => [...b.querySelectorAll('button, input, select')]
            .map((e) => e.getBoundingClientRect())
            .filter((r) => r.width < 24 || r.height < 24).length"""
    )
    assert small == 0, f"{small} controls are smaller than 24 x 24 px"
