"""Start-up ends in a message, never a spinner: each broken download names what failed.

The site's own files are served as usual, except the one a test breaks with a route:
Pyodide's wasm missing, cut short or stalled, the standard library or the lock file
missing, the lesson's manifest empty. Each must end, within the start-up deadline, in
"Python could not start: ..." naming the file in a learner's words, with a Retry that
really retries (the file is requested again and, once it is back, Python starts and
the checks run). The deadline is the manifest's ``limits.start_stall_ms``; the stall
test shortens it by serving a manifest with a smaller value, as a slow link would
otherwise make the test wait 60 s. The ``page`` fixture fails a test on any console
error it did not expect (the browser logs each refused download once: those lines are
checked and removed here) and on any request to another host.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.browser.conftest import PageGuard
from tests.browser.test_practice import WAIT_MS, run_code, runner, source

STEP = "01_dot"
PYODIDE = "vendor/pyodide/"


def open_practice(page: Any, site_url: str) -> None:
    page.goto(site_url + "attention/", wait_until="load")
    page.locator("#practice-dot").scroll_into_view_if_needed()


def loader(page: Any) -> Any:
    return page.locator(".practice__loader")


def wait_state(page: Any, state: str, timeout: int = WAIT_MS) -> str:
    page.wait_for_selector(f".practice__loader[data-state='{state}']", timeout=timeout)
    return str(loader(page).locator(".practice__loader-text").inner_text())


#: Console errors that are not the site's: the browser's line for a refused download,
#: Pyodide's own line when its standard library fails, the lazy loader's report of a
#: section that could not load. Only these are removed; anything else still fails.
EXPECTED_CONSOLE = (
    "status of 404",
    "Error occurred while installing the standard library",
    "Error: Python could not start: the list of exercises",
)


def forget_expected_console_errors(guard: PageGuard) -> None:
    guard.console_errors[:] = [
        m for m in guard.console_errors if not any(e in m for e in EXPECTED_CONSOLE)
    ]


def retry_and_run(page: Any) -> None:
    loader(page).locator("[data-action='retry']").click()
    wait_state(page, "ready")
    page.wait_for_selector(f".practice__runner[data-step='{STEP}'] .cm-editor", timeout=WAIT_MS)
    assert run_code(page, STEP, source(STEP, "solution.py")) == "pass"


#: Each file of Python's start, broken one after another on one page: the retry after
#: each fault meets the next one, and the last retry, with every file back, starts Python.
MISSING = [
    ("pyodide.asm.wasm", "Python itself (pyodide.asm.wasm) could not be downloaded"),
    ("python_stdlib.zip", "Python's standard library (python_stdlib.zip) could not be downloaded"),
    ("pyodide-lock.json", "Python's package list (pyodide-lock.json) could not be downloaded"),
]


def test_each_missing_or_broken_file_is_named_and_retry_really_retries(
    page: Any, site_url: str, site_dir: Path, guard: PageGuard
) -> None:
    asked: dict[str, int] = {file: 0 for file, _ in MISSING}

    def count(url: str) -> None:
        for file in asked:
            if url.endswith(file):
                asked[file] += 1

    page.on("request", lambda r: count(r.url))
    retry = loader(page).locator("[data-action='retry']")
    for n, (file, words) in enumerate(MISSING):
        missing = site_url + PYODIDE + file
        page.route(missing, lambda r: r.fulfill(status=404, body="not here"))
        if n == 0:
            open_practice(page, site_url)
        else:
            retry.click()
        text = wait_state(page, "error")
        assert text == f"Python could not start: {words} (the server answered HTTP 404). " + (
            "Check the connection, then press Retry."
        ), file
        assert "exit(1)" not in text and "JSON" not in text
        assert retry.is_visible()
        # While Python cannot start, a run says so instead of "Running the checks…" forever.
        runner(page, STEP).locator("[data-action='run']").click()
        page.wait_for_function(
            "s => document.querySelector(`.practice__runner[data-step='${s}']`).dataset.state"
            " === 'fail'",
            arg=STEP,
            timeout=WAIT_MS,
        )
        said = runner(page, STEP).locator(".practice__status").inner_text()
        assert said.startswith(f"Python could not start: {words}"), said
        page.unroute(missing)
    # The wasm cut short.
    whole = (site_dir / PYODIDE / "pyodide.asm.wasm").read_bytes()
    url = site_url + PYODIDE + "pyodide.asm.wasm"
    page.route(
        url,
        lambda r: r.fulfill(
            status=200, body=whole[:3_600_000], headers={"content-type": "application/wasm"}
        ),
    )
    retry.click()
    text = wait_state(page, "error")
    assert text.startswith(
        "Python could not start: Python itself (pyodide.asm.wasm) arrived incomplete (3.6 MB of "
        f"{len(whole) / 1e6:.1f} MB)."
    ), text
    page.unroute(url)
    before = dict(asked)
    retry_and_run(page)
    # Every retry asked again: the last one fetched each file once more, and started.
    assert all(asked[f] > before[f] for f in asked), (before, asked)
    forget_expected_console_errors(guard)


def test_a_stalled_download_ends_at_the_deadline(page: Any, site_url: str, site_dir: Path) -> None:
    manifest_url = site_url + "practice/attention/manifest.json"
    manifest = json.loads((site_dir / "practice/attention/manifest.json").read_text("utf-8"))
    assert manifest["limits"]["start_stall_ms"] == 60000  # as built: 20x a 3 s cold start
    manifest["limits"]["start_stall_ms"] = 2000
    page.route(manifest_url, lambda r: r.fulfill(status=200, json=manifest))
    held: list[Any] = []
    wasm = site_url + PYODIDE + "pyodide.asm.wasm"
    page.route(wasm, lambda r: held.append(r))  # never answered: the download stalls
    open_practice(page, site_url)
    page.wait_for_selector(f".practice__runner[data-step='{STEP}'] .cm-editor", timeout=WAIT_MS)
    # While Python is starting, a run says so ("Starting Python…"), not "Running".
    runner(page, STEP).locator("[data-action='run']").click()
    status = runner(page, STEP).locator(".practice__status")
    assert status.inner_text() == "Starting Python…"
    text = wait_state(page, "error", timeout=20_000)
    assert text.startswith("Python could not start: the download stopped: no data for 2 s, at ")
    assert text.endswith(" MB. Check the connection, then press Retry.")
    page.wait_for_function(
        "s => document.querySelector(`.practice__runner[data-step='${s}']`).dataset.state"
        " === 'fail'",
        arg=STEP,
        timeout=WAIT_MS,
    )
    assert status.inner_text().startswith("Python could not start: the download stopped")
    # Retry asks for the file again (the page keeps the manifest's short deadline, so
    # this test stops there: the missing-file tests carry a retry through to a pass).
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url == wasm else None)
    loader(page).locator("[data-action='retry']").click()
    page.wait_for_function("() => true")
    for _ in range(100):
        if asked:
            break
        page.wait_for_timeout(100)
    assert asked == [wasm], "Retry did not ask for the stalled file again"
    page.unroute(wasm)
    for route in held:
        route.abort()


def test_an_empty_manifest_is_named_and_retry_loads_it_again(
    page: Any, site_url: str, guard: PageGuard
) -> None:
    manifest_url = site_url + "practice/attention/manifest.json"
    page.route(manifest_url, lambda r: r.fulfill(status=200, body="{}"))
    open_practice(page, site_url)
    text = wait_state(page, "error")
    assert text == (
        "Python could not start: the list of exercises (practice/attention/manifest.json) is "
        "empty. Press Retry to load it again."
    )
    assert "undefined" not in text
    page.unroute(manifest_url)
    retry_and_run(page)
    assert page.locator(".practice").get_attribute("data-widget-state") == "ready"
    forget_expected_console_errors(guard)
