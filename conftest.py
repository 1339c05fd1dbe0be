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
_examples_per_page: Counter[str] = Counter()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # Counted from the reports, which reach the main process under pytest-xdist too.
    if report.when == "setup" and "::sybil:page," in report.nodeid:
        _examples_per_page[report.nodeid.split("::", 1)[0]] += 1


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _examples_per_page:
        counts = ", ".join(f"{page} {n}" for page, n in sorted(_examples_per_page.items()))
        terminalreporter.write_line(f"Sybil examples per page: {counts}")
