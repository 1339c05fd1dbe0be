"""Nothing the reader typed is lost: quick reloads, hidden pages, two tabs, no storage.

The editors save 300 ms after typing stops; a reload or a hidden page inside that pause
must still keep the last edit. A second tab on the same step is told when the first
saves newer code, and can load it. When the browser refuses storage (blocked, or full)
practice still works and the section says so once; Material's own start-up survives a
blocked storage too (its palette toggle shows and search finds "softmax"). None of this
needs Python to have started: the editors are built before it is ready. The ``page``
fixture fails a test on any console error or request to another host.
"""

from __future__ import annotations

from typing import Any

from tests.browser.test_practice import WAIT_MS, get_code, runner, set_code, source

STEP = "05_attend"
KEY = f"attention-practice/v1/{STEP}/code"

#: Storage that refuses every use, as a browser set to block site data does.
BLOCKED = """
(() => {
  const refuse = () => { throw new DOMException("The operation is insecure.", "SecurityError"); };
  Object.defineProperty(window, "localStorage", { configurable: true, get: refuse });
  Object.defineProperty(window, "sessionStorage", { configurable: true, get: refuse });
})();
"""

#: Storage that reads but is full: every write throws QuotaExceededError.
FULL = """
(() => {
  Storage.prototype.setItem = function () {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  };
})();
"""


def open_step(page: Any, url: str) -> None:
    page.goto(url + "attention/", wait_until="load")
    page.locator("#practice-attend").scroll_into_view_if_needed()
    page.wait_for_selector(f".practice__runner[data-step='{STEP}'] .cm-editor", timeout=WAIT_MS)


def stored(page: Any) -> str | None:
    value = page.evaluate("k => localStorage.getItem(k)", KEY)
    return None if value is None else str(value)


def test_a_quick_reload_keeps_the_last_edit(page: Any, site_url: str) -> None:
    open_step(page, site_url)
    mine = "# typed just before the reload\n" + source(STEP, "starter.py")
    set_code(page, STEP, mine)
    page.reload(wait_until="load")  # at once: well inside the 300 ms pause
    page.locator("#practice-attend").scroll_into_view_if_needed()
    page.wait_for_selector(f".practice__runner[data-step='{STEP}'] .cm-editor", timeout=WAIT_MS)
    assert get_code(page, STEP) == mine


def test_a_hidden_page_saves_at_once(page: Any, site_url: str) -> None:
    open_step(page, site_url)
    mine = "# typed, then the phone switched apps\n" + source(STEP, "starter.py")
    set_code(page, STEP, mine)
    hidden_at_once = page.evaluate(
        """key => {
          const hidden = { configurable: true, get: () => "hidden" };
          Object.defineProperty(document, "visibilityState", hidden);
          document.dispatchEvent(new Event("visibilitychange"));
          return localStorage.getItem(key);
        }""",
        KEY,
    )
    assert hidden_at_once == mine


def test_another_tab_is_offered_the_newer_code(page: Any, site_url: str) -> None:
    open_step(page, site_url)
    other = page.context.new_page()
    other.on("pageerror", lambda exc: (_ for _ in ()).throw(AssertionError(str(exc))))
    open_step(other, site_url)
    newer = "# written in the other tab\n" + source(STEP, "starter.py")
    set_code(other, STEP, newer)
    other.wait_for_function("k => localStorage.getItem(k) !== null", arg=KEY, polling=100)
    # The reader comes back to the first tab (Chromium holds storage events for a tab in
    # the background until then).
    page.bring_to_front()
    notice = runner(page, STEP).locator("[data-other-tab]")
    notice.wait_for(state="visible", timeout=10_000)
    assert "changed in another tab" in notice.inner_text()
    assert get_code(page, STEP) != newer  # nothing is replaced without asking
    # Load, then a reset in the other tab at once (two windows side by side, so neither
    # page is hidden): it stays a reset. Loading must leave no save pending here that
    # would write the code back when the editor's 300 ms pause ends. (Both clicks go
    # through the DOM so that they fall well inside that pause.)
    click = "sel => document.querySelector(sel).click()"
    page.evaluate(click, f".practice__runner[data-step='{STEP}'] [data-action='load-other-tab']")
    other.evaluate(click, f".practice__runner[data-step='{STEP}'] [data-action='reset']")
    assert get_code(page, STEP) == newer
    assert stored(other) is None
    page.wait_for_timeout(600)  # past the pause
    assert stored(other) is None and stored(page) is None
    page.bring_to_front()
    notice.wait_for(state="visible", timeout=10_000)
    assert "reset to the starter in another tab" in notice.inner_text()
    notice.locator("[data-action='keep-mine']").click()
    assert get_code(page, STEP) == newer and stored(page) == newer
    other.close()


def test_blocked_storage_is_said_once_and_practice_and_material_still_work(
    page: Any, site_url: str
) -> None:
    page.add_init_script(BLOCKED)
    open_step(page, site_url)
    notes = page.locator("[data-storage-note]")
    assert notes.count() == 1 and notes.is_visible()
    assert notes.inner_text() == (
        "Your browser does not let this site keep data, so the code you type here will not be "
        "kept when you leave the page."
    )
    assert notes.get_attribute("role") is None  # quiet: not a live region
    set_code(page, STEP, "# not kept\n" + source(STEP, "starter.py"))
    page.wait_for_timeout(400)  # a save was tried (and refused): still one note
    assert notes.count() == 1
    # Material's start-up survived: the palette toggle is there and search finds results.
    toggle = page.locator("form[data-palette] label:not([hidden])")
    assert toggle.count() >= 1 and toggle.first.is_visible()
    page.locator(".md-search__input").click()
    page.locator(".md-search__input").press_sequentially("softmax", delay=50)
    page.wait_for_selector(".md-search-result__item", timeout=30_000)
    assert page.locator(".md-search-result__item").count() >= 1


def test_full_storage_is_said_once(page: Any, site_url: str) -> None:
    page.add_init_script(FULL)
    open_step(page, site_url)
    notes = page.locator("[data-storage-note]")
    assert notes.is_hidden()  # reading works: nothing to say yet
    set_code(page, STEP, "# too much\n" + source(STEP, "starter.py"))
    notes.wait_for(state="visible", timeout=5_000)
    assert notes.inner_text().startswith("Your browser's storage for this site is full")
    set_code(page, STEP, "# again\n" + source(STEP, "starter.py"))
    page.wait_for_timeout(400)
    assert notes.count() == 1
