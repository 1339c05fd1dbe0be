"""Sybil: run the code the reader sees.

- Pages (``docs/**/*.md``, and ``README.md``) are tested as rendered: ``--8<--``
  includes expanded by pymdownx.snippets configured from ``mkdocs.yml``; every
  Python-like fence runs and printed output is checked (see
  ``testbed/sybil_docs.py``). Partials are tested through the pages that include
  them.
- Docstring examples of ``attention_ref``, ``site_build`` and ``testbed`` are run as
  doctests (here, and nowhere else).

pytest's own doctest plugin is off (``-p no:doctest`` in pyproject.toml). At the end
of a run, the number of Sybil examples run per page is printed.

The files that take longest run first (:data:`LONGEST_FIRST`; ``make test`` runs
pytest-xdist with ``--dist loadfile --no-loadscope-reorder``, which hands whole files to
the workers in collection order).
"""

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sybil import Sybil
from sybil.parsers.rest import DocTestParser

from testbed.sybil_docs import (
    DOCTEST_FLAGS,
    PAGE_EXCLUDES,
    PAGE_PATTERNS,
    PageSybil,
    RenderedMarkdownDocument,
    page_parsers,
)

pages = PageSybil(
    parsers=page_parsers(),
    patterns=list(PAGE_PATTERNS),
    excludes=list(PAGE_EXCLUDES),
    document_types={".md": RenderedMarkdownDocument},
    name="page",
)

docstrings = Sybil(
    parsers=[DocTestParser(optionflags=DOCTEST_FLAGS)],
    patterns=["attention_ref/*.py", "site_build/*.py", "testbed/*.py"],
    name="docstring",
)

pytest_collect_file = (pages + docstrings).pytest()

_ROOT = Path(__file__).parent

#: The test files that take longest (``--durations``), collected first so that none of
#: them starts last and keeps one worker busy while the others sit idle (collected in
#: their usual place, the browser tests' ended 40 s apart on two workers). A schedule,
#: not a check: a file missing here only runs later.
LONGEST_FIRST = (
    # browser tests
    "test_own_sentence.py",
    "test_practice_lessons.py",
    "test_pages.py",
    "test_explorer.py",
    "test_fails_well.py",
    "test_practice_integrity.py",
    "test_heads_widget.py",
    "test_practice.py",
    "test_heatmap.py",
    "test_render_later.py",
    # the rest: builds, fresh environments, the practice steps' checks
    "test_standalone_downloads.py",
    "test_build.py",
    "test_outputs.py",
    "test_dist.py",
    "test_figures.py",
    "test_worked_example.py",
    "test_practice_guard.py",
)


def _run_order(item: pytest.Item) -> int:
    name = item.path.name
    return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_run_order)  # stable: a file's tests, and a page's examples, keep their order


_examples_per_page: Counter[str] = Counter()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # Counted from the reports, which reach the main process under pytest-xdist too.
    if report.when == "setup" and "::sybil:page," in report.nodeid:
        _examples_per_page[report.nodeid.split("::", 1)[0]] += 1


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _examples_per_page:
        counts = ", ".join(f"{page} {n}" for page, n in sorted(_examples_per_page.items()))
        terminalreporter.write_line(f"Sybil examples per page: {counts}")
