"""MkDocs hook: slim each notebook page once it is rendered (``site_build/notebook_page.py``).

Thin wiring only: mkdocs-jupyter's pages carry JupyterLab's whole stylesheet and scripts
the site does not use; :func:`site_build.notebook_page.slim` keeps what the page uses.
"""

from __future__ import annotations

import functools

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from site_build.notebook_page import JUPYTER_CSS_MARK, slim


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    if JUPYTER_CSS_MARK not in output:
        return output
    return _slim(output)


# Under `mkdocs serve` a prose edit elsewhere rebuilds the notebook page unchanged:
# the same page slims to the same result, so it is done once.
_slim = functools.lru_cache(maxsize=4)(slim)
