"""MkDocs hook: the notebook pages' ``.ipynb`` download, and a notebook cache that is never stale.

Thin wiring only; the logic lives in ``site_build/notebook.py`` (tested in
``tests/test_notebook.py``).

* ``on_config``: mkdocs-jupyter caches an executed notebook under a hash of the
  notebook's own bytes, so after an edit to ``attention_ref`` it would serve old
  outputs (and a broken ``attention_ref`` would still "pass"). Its ``cache_dir`` is
  moved into a sub-folder named after ``attention_ref``'s sources and the library
  versions, an entry of the build's content-hash cache (``site_build/cache.py``): the
  new entry replaces the older ones.
* ``on_files``: each notebook source ``notebooks/<name>.py`` gets a generated
  ``notebooks/<name>/<name>.ipynb`` (no outputs) next to its page, which the theme
  override ``docs/overrides/main.html`` links as a download button.
* ``on_post_page``: jupytext gives the cells of a ``.py`` notebook random ids on
  every read; they are renumbered so two builds give the same page, and code cells
  that scroll become keyboard-focusable.
"""

from __future__ import annotations

import platform
import re
from importlib.metadata import version
from pathlib import Path, PurePosixPath

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from site_build.cache import ContentCache
from site_build.fast_rebuild import reuse_while_unchanged
from site_build.mkdocs_files import put_generated
from site_build.notebook import environment_key, polish_page, to_ipynb

ROOT = Path(__file__).resolve().parent.parent

NOTEBOOK_DIR = "notebooks"
#: The name of the cache entry this hook points mkdocs-jupyter's cache at.
NOTEBOOK_ENTRY = re.compile(r"notebook-[0-9a-f]+")


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None or not plugin.config["cache"]:
        return config
    base = Path(plugin.config["cache_dir"])
    if NOTEBOOK_ENTRY.fullmatch(base.name):  # set by a call before: the folders never nest
        base = base.parent
    # Versions read from the installed metadata: importing matplotlib costs 0.2 s.
    versions = {
        "python": platform.python_version(),
        "numpy": version("numpy"),
        "matplotlib": version("matplotlib"),
    }
    key = environment_key(sorted((ROOT / "attention_ref").glob("*.py")), versions)
    # The build's one cache policy: the new entry replaces the older notebook entries.
    plugin.config["cache_dir"] = str(ContentCache(base).folder_for("notebook", key))
    return config


# Before mkdocs-htmlproofer-plugin's on_files, so the download link is not reported broken.
@event_priority(100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    for file in list(files):
        src = PurePosixPath(file.src_uri)
        if src.parent.as_posix() == NOTEBOOK_DIR and src.suffix == ".py" and file.abs_src_path:
            source = Path(file.abs_src_path)
            dest = f"{NOTEBOOK_DIR}/{src.stem}/{src.stem}.ipynb"
            ipynb = reuse_while_unchanged(
                f"ipynb:{source}",
                [source],
                lambda path=source: to_ipynb(path.read_text(encoding="utf-8")),
            )
            put_generated(files, config, dest, content=ipynb)
    return files


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    src = PurePosixPath(page.file.src_uri)
    if src.parent.as_posix() == NOTEBOOK_DIR and src.suffix == ".py":
        return polish_page(output)
    return output
