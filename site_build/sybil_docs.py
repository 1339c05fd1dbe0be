"""Moved to :mod:`testbed.sybil_docs` (test glue does not belong in the build code).

A re-export kept only until ``tests/test_snippets.py`` imports from ``testbed.sybil_docs``
(one import line, in a file another change owns); delete this module then.
"""

from testbed.sybil_docs import RenderedMarkdownDocument, page_parsers

__all__ = ["RenderedMarkdownDocument", "page_parsers"]
