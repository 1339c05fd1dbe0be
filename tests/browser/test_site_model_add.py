"""Adding a page and a widget is content: the steps of CONTRIBUTING, done in a copy.

The repository (the files git knows, tracked or new, as they are in the working tree) is
copied to a temporary folder, with ``node_modules`` linked and the build's caches
copied (so that the build is warm, as a contributor's is). There, as CONTRIBUTING's
"Add a lesson page" and "Add a widget" say:

- a widget: one module (``docs/javascripts/lib/throwaway-widget.js``, exporting
  ``mount(box, data)``, which writes a sentence and a button), one partial with its
  ``<div data-widget="throwaway">``, one line in ``WIDGETS`` of ``site_build/site.py``;
- a page: ``docs/throwaway.md`` with a snippet section and its Output block, showing
  the widget, and one line in ``PAGES``.

Then one strict build, and the copy is checked for what nothing else was told: the page
is built with the snippet's code, its Output block and that block's source line, it is
in the navigation and in the search index, and the loader's map names the widget; in
Chromium (one page view) the widget's ``mount`` ran and the page is found by the search;
and the copy's own tests, collected there by pytest, include the page and the widget
among their parameters (the model-driven ones: every page's browser checks and Sybil's
examples, every widget's loader checks), and Sybil runs the page's code and checks it
prints its Output block.

Its cost: one copy, one warm build (about 20 s here), one page view, two pytest runs in
the copy (collection only, and the page's example).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bench.build import copy_project
from testbed.serve import serve
from testbed.site import build_site
from tests.browser.conftest import PageGuard, guarded_page

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.build

NAME = "throwaway"
TITLE = "A page added by a test"
#: A word of the page that no other page has, to search for.
WORD = "quokkaword"

MODULE = """\
// A widget added by tests/browser/test_site_model_add.py.
import { h } from "./dom.js";

export function mount(box, data) {
  const state = { presses: 0, keys: Object.keys(data).length };
  const said = h("p", { "data-throwaway": "said" }, "The throwaway widget is mounted.");
  const button = h("button", { type: "button" }, "Press");
  button.addEventListener("click", () => {
    state.presses += 1;
    said.textContent = `Pressed ${state.presses} times.`;
  });
  box.replaceChildren(said, button);
  return state;
}
"""

PARTIAL = """\
<div class="widget throwaway" data-widget="throwaway" data-search-exclude="widget" markdown="0">
<p class="widget__loading">The throwaway widget loads here (it needs JavaScript).</p>
</div>
"""

SNIPPET = """\
# --8<-- [start:sum]
print(sum(range(4)))
# --8<-- [end:sum]
"""

PAGE = f"""\
# {TITLE}

A page that a test writes, with a {WORD} for the search to find.

```python
--8<-- "snippets/throwaway.py:sum"
```

```text title="Output"
6
```

--8<-- "docs/partials/throwaway_widget.md"
"""

PAGE_LINE = f'    Page("throwaway.md", "{TITLE}"),\n'
WIDGET_LINE = f"""\
        Widget("{NAME}", "javascripts/lib/throwaway-widget.js", label="Throwaway widget",
               failure="The throwaway widget could not be loaded.", pages=("throwaway.md",),
               first_control="button"),
"""


def copy_repository(dest: Path) -> None:
    """The files git knows (tracked, or new and not ignored) as they are now, a link to
    ``node_modules`` (``bench.build.copy_project``), and the build's caches."""
    copy_project(dest)
    if (ROOT / ".cache").is_dir():
        shutil.copytree(ROOT / ".cache", dest / ".cache", symlinks=True)


def insert_before(path: Path, anchor: str, line: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(anchor) == 1, f"{path.name}: the anchor {anchor!r} is not there once"
    path.write_text(text.replace(anchor, line + anchor), encoding="utf-8")


def add_page_and_widget(repo: Path) -> None:
    (repo / "docs/javascripts/lib/throwaway-widget.js").write_text(MODULE, encoding="utf-8")
    (repo / "docs/partials/throwaway_widget.md").write_text(PARTIAL, encoding="utf-8")
    (repo / "snippets/throwaway.py").write_text(SNIPPET, encoding="utf-8")
    (repo / "docs/throwaway.md").write_text(PAGE, encoding="utf-8")
    model = repo / "site_build/site.py"
    insert_before(model, '    Page("performance.md"', PAGE_LINE)
    insert_before(model, "    )\n}  # fmt: skip", WIDGET_LINE)


def pytest_in(repo: Path, *args: str) -> str:
    """Run pytest in the copy, on its own code (``PYTHONPATH``), and return its output."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:randomly", "-n", "0", "-q", *args],
        cwd=repo,
        env={**os.environ, "PYTHONPATH": str(repo), "SITE_DIR": str(repo / "site")},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def added(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The copy with the page and the widget added, built strictly into ``site/``."""
    repo = tmp_path_factory.mktemp("added") / "repo"
    repo.mkdir()
    start = time.perf_counter()
    copy_repository(repo)
    copied = time.perf_counter()
    add_page_and_widget(repo)
    # The copy's own site_build and attention_ref, not this checkout's (installed editable).
    env = {**os.environ, "PYTHONPATH": str(repo)}
    build_site(repo / "site", env=env, project=repo)
    built = time.perf_counter()
    print(f"copy {copied - start:.1f} s, build {built - copied:.1f} s")
    return repo


def test_the_added_page_and_widget_are_built(added: Path) -> None:
    site = added / "site"
    html = (site / "throwaway/index.html").read_text(encoding="utf-8")
    assert 'data-widget="throwaway"' in html
    assert '<span class="nb">print</span>' in html  # the snippet's code, highlighted
    # Its Output block, with the line that says where the printed number comes from.
    assert '<code>6\n</code></pre><p class="output-source">' in html
    assert 'snippets/throwaway.py#L2-L2">snippets/throwaway.py · sum</a>' in html
    # In the navigation of every page, under its title, after the notebook.
    nav = (site / "404.html").read_text(encoding="utf-8")
    assert nav.index(TITLE) > nav.index("sqrt_dk/")
    # In the search index, with its words.
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    found = [d for d in index["docs"] if d["location"] == "throwaway/"]
    assert found and found[0]["title"] == TITLE and WORD in found[0]["text"], found
    # The loader's map names the widget and its module.
    widget_map = (site / "javascripts/widget-map.js").read_text(encoding="utf-8")
    assert '"throwaway": {"label": "Throwaway widget"' in widget_map
    assert (site / "javascripts/lib/throwaway-widget.js").is_file()


def test_the_added_widget_mounts_and_the_page_is_found(browser: object, added: Path) -> None:
    guard = PageGuard()
    site = added / "site"
    with serve(site) as url, guarded_page(browser, guard, site, url) as pg:
        page: Any = pg
        page.goto(url + "throwaway/", wait_until="load")
        link = page.locator(".md-nav--primary a.md-nav__link", has_text=TITLE)
        assert link.count() >= 1, "the page is not in the navigation"
        box = page.locator('[data-widget="throwaway"]')
        box.scroll_into_view_if_needed()
        page.wait_for_selector('[data-widget="throwaway"][data-widget-state=ready]')
        assert box.locator("[data-throwaway=said]").inner_text() == (
            "The throwaway widget is mounted."
        )
        box.locator("button").click()  # the state mount returned is the widget's own
        assert box.locator("[data-throwaway=said]").inner_text() == "Pressed 1 times."
        page.keyboard.press("s")
        page.locator(".md-search__input").press_sequentially(WORD, delay=40)
        page.wait_for_selector(".md-search-result__item", timeout=30_000)
        results = page.locator(".md-search-result__item").all_inner_texts()
        assert any(TITLE in r for r in results), results
    assert not guard.problems(), guard.problems()


def test_the_copys_tests_take_the_added_page_and_widget(added: Path) -> None:
    ids = pytest_in(
        added,
        "--collect-only",
        "docs/throwaway.md",
        "tests/browser/test_pages.py",
        "tests/browser/test_widget_loader.py",
    )
    assert (
        "test_widget_loader.py::test_tabbing_onto_a_loading_widget_reaches_its_first_control[throwaway]"
        in ids
    )
    assert (
        "test_widget_loader.py::test_missing_data_gives_the_failure_sentence_and_the_page_keeps_working[throwaway/]"
        in ids
    )
    assert "test_pages.py::" in ids and "throwaway/" in ids.split("test_pages.py::", 1)[1]
    assert ids.count("docs/throwaway.md::") == 1, ids  # the fence, checked with its Output
    ran = pytest_in(added, "docs/throwaway.md")
    assert "1 passed" in ran, ran
