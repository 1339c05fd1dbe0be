"""MkDocs hook: slim each notebook page once it is rendered (``site_build/notebook_page.py``).

Thin wiring only: mkdocs-jupyter's pages carry JupyterLab's whole stylesheet and scripts
the site does not use, and their output images inline; :func:`site_build.notebook_page.slim`
keeps what the page uses and :func:`~site_build.notebook_page.extract_images` moves the
images into files beside the page (written straight into the site); the result is kept in
``.cache/notebook-page/`` (:func:`~site_build.notebook_page.slim_page`).
"""

from __future__ import annotations

import functools
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from site_build.notebook_page import JUPYTER_CSS_MARK, slim_page

CACHE_DIR = Path(__file__).resolve().parent.parent / ".cache" / "notebook-page"


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    if JUPYTER_CSS_MARK not in output:
        return output
    html, images = _slim(output)
    # The images go beside the page (the page is written to <url>/index.html).
    folder = Path(config.site_dir) / page.url
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in images.items():
        (folder / name).write_bytes(data)
    return html


# Under `mkdocs serve` a prose edit elsewhere rebuilds the notebook page unchanged: the
# same page slims to the same result, kept here in memory and across builds in .cache/.
@functools.lru_cache(maxsize=4)
def _slim(output: str) -> tuple[str, dict[str, bytes]]:
    return slim_page(output, CACHE_DIR)
