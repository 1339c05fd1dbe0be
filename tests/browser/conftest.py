"""Fixtures for the browser tests: the built site on 127.0.0.1 and Debian's Chromium
(its headless shell, ``testbed.chromium.HEADLESS_SHELL``).

Every page a test opens is guarded: a request to any host other than 127.0.0.1 is
aborted and recorded, console errors and uncaught page errors are recorded, and the
test fails at teardown if either list is not empty.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from testbed.chromium import CHROMIUM_ARGS, HEADLESS_SHELL
from testbed.serve import local_sitemap, serve
from testbed.site import build_site

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("SITE_DIR", ROOT / "site"))
LOOPBACK = {"127.0.0.1"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in item.nodeid:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """The built site; built strictly here if `make build` has not made it."""
    if not (SITE / "index.html").exists():
        build_site(SITE, quiet=False)
    return SITE


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    """Base URL (ending in '/') of the built site served on 127.0.0.1 on a free port."""
    with serve(site_dir) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium headless shell driven by Playwright (no browser download)."""
    if not Path(HEADLESS_SHELL).exists():
        pytest.fail(f"No Chromium headless shell at {HEADLESS_SHELL}: run `make install-browser`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=HEADLESS_SHELL, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class PageGuard:
    """What a guarded page recorded: third-party requests and console errors."""

    def __init__(self) -> None:
        self.external_requests: list[str] = []
        self.console_errors: list[str] = []

    def problems(self) -> list[str]:
        return [f"request to a host other than 127.0.0.1: {u}" for u in self.external_requests] + [
            f"console error: {m}" for m in self.console_errors
        ]


@pytest.fixture
def color_scheme(request: pytest.FixtureRequest) -> str:
    """The palette to emulate; parametrize a test with `color_scheme` to change it."""
    return getattr(request, "param", "light")


@pytest.fixture
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    """The window size; parametrize a test with `viewport` (indirect) for phone widths."""
    size: dict[str, int] = getattr(request, "param", {"width": 1280, "height": 900})
    return size


@pytest.fixture
def has_touch(request: pytest.FixtureRequest) -> bool:
    """Whether the page has a touch screen; parametrize a test with `has_touch` (indirect)."""
    return bool(getattr(request, "param", False))


@pytest.fixture
def guard() -> PageGuard:
    return PageGuard()


@contextmanager
def guarded_page(
    browser: object,
    guard: PageGuard,
    site_dir: Path,
    site_url: str,
    *,
    color_scheme: str = "light",
    viewport: dict[str, int] | None = None,
    has_touch: bool = False,
) -> Iterator[object]:
    """A page in a context of its own, whose third-party requests and console errors go
    to ``guard``. Instant navigation works as on the deployed site (see `local_sitemap`)."""
    from playwright.sync_api import Browser, Route

    assert isinstance(browser, Browser)
    context = browser.new_context(
        color_scheme=color_scheme,  # type: ignore[arg-type]
        viewport=viewport or {"width": 1280, "height": 900},  # type: ignore[arg-type]
        has_touch=has_touch,
        service_workers="block",
    )

    def route(r: Route) -> None:
        url = r.request.url
        host = urlsplit(url).hostname
        if url.startswith(("data:", "blob:")) or host in LOOPBACK:
            r.continue_()
        else:
            guard.external_requests.append(url)
            r.abort()

    context.route("**/*", route)
    sitemap = local_sitemap(site_dir, site_url)
    context.route(
        site_url + "sitemap.xml",
        lambda r: r.fulfill(status=200, content_type="application/xml", body=sitemap),
    )
    pg = context.new_page()
    pg.on(
        "console",
        lambda msg: (
            guard.console_errors.append(f"{msg.text} ({msg.location.get('url', '')})")
            if msg.type == "error"
            else None
        ),
    )
    pg.on("pageerror", lambda exc: guard.console_errors.append(f"uncaught: {exc}"))
    # Workers (Pyodide) make their own requests; the context route sees those too.
    try:
        yield pg
    finally:
        context.close()


@pytest.fixture
def page(
    browser: object,
    color_scheme: str,
    viewport: dict[str, int],
    has_touch: bool,
    guard: PageGuard,
    site_dir: Path,
    site_url: str,
) -> Iterator[object]:
    """A fresh page whose third-party requests and console errors fail the test."""
    with guarded_page(
        browser,
        guard,
        site_dir,
        site_url,
        color_scheme=color_scheme,
        viewport=viewport,
        has_touch=has_touch,
    ) as pg:
        yield pg
    problems = guard.problems()
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="session")
def shared_page(
    browser: object, site_dir: Path, site_url: str
) -> Iterator[tuple[object, PageGuard]]:
    """One guarded page (light, desktop) shared by a worker's tests, with its guard.

    Only for what the product promises starts clean each time, such as a new run of the
    practice harness: a test that needs a new page takes ``page``. Use it through a
    function fixture that calls :func:`checked_guard` around each test. (Per worker, not
    per module: each boot of Pyodide costs about 12 CPU-seconds.)
    """
    guard = PageGuard()
    with guarded_page(browser, guard, site_dir, site_url) as pg:
        yield pg, guard


@contextmanager
def checked_guard(guard: PageGuard) -> Iterator[PageGuard]:
    """Fail the test if ``guard`` recorded a problem during it (it starts empty)."""
    guard.external_requests.clear()
    guard.console_errors.clear()
    yield guard
    problems = guard.problems()
    guard.external_requests.clear()
    guard.console_errors.clear()
    assert not problems, "\n".join(problems)


#: The practice step the shared practice page opens (lesson 1's first).
PRACTICE_STEP = "01_dot"


@pytest.fixture(scope="session")
def warm_practice(shared_page: tuple[Any, PageGuard], site_url: str) -> tuple[Any, PageGuard]:
    """Lesson 1's practice, opened once for a worker: every test that takes ``practice``
    runs on the Python worker the earlier ones left, whatever their module, as a reader's
    runs follow one another (the product promises each run starts clean)."""
    from tests.browser.test_practice import open_practice

    page, guard = shared_page
    with checked_guard(guard):
        open_practice(page, site_url + "attention/", PRACTICE_STEP)
    return page, guard


@pytest.fixture
def practice_guard(warm_practice: tuple[Any, PageGuard]) -> Iterator[PageGuard]:
    """The shared practice page's guard, emptied before the test and checked after it."""
    with checked_guard(warm_practice[1]) as checked:
        yield checked


@pytest.fixture
def practice(warm_practice: tuple[Any, PageGuard], practice_guard: PageGuard) -> Any:
    """The module's shared practice page, ready; a problem during the test fails it."""
    return warm_practice[0]


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Folder for review screenshots (not compared, only saved)."""
    out = ROOT / "test-results" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    return out
