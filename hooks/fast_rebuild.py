"""MkDocs hook: the contributor's loop, a rebuild under ``mkdocs serve`` made quicker.

Thin wiring only; the logic lives in ``site_build/fast_rebuild.py`` (tested in
``tests/test_fast_rebuild.py``).

* ``on_config``: the theme's list of files is made once per process while the theme's
  folders are unchanged (``list_theme_files_once``).
* ``on_env``: the theme's compiled templates are kept in ``.cache/jinja/`` between
  builds (MkDocs compiles them again for each build otherwise).
* ``on_serve`` (first of all ``on_serve`` handlers): the server's file watcher polls
  every 0.1 s instead of 0.5 s, and the rebuild waits 0.03 s instead of 0.1 s for
  more changes, so an edit's rebuild starts sooner.
* For ``mkdocs serve --dirty`` (``make serve``), which renders only the pages that
  changed: ``on_files`` (last) dates the built HTML of pages whose includes changed to
  the epoch, so they are rendered again too, and of every page when ``mkdocs.yml``, the
  theme's overrides or the build's code (``hooks/``, ``site_build/``) changed;
  ``on_pre_build`` keeps the previous search index and ``on_post_build`` (after the
  search plugin) merges the rebuilt pages into it. A full build renders every page, and
  then none of this changes anything.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from site_build.fast_rebuild import (
    cache_templates,
    list_theme_files_once,
    mark_stale,
    merge_search_index,
    poll_every,
    quiet_dirty_warning,
    settle_after,
    stale_pages,
)

ROOT = Path(__file__).resolve().parent.parent
POLL_SECONDS = 0.1
SETTLE_SECONDS = 0.03
log = logging.getLogger("mkdocs.hooks.fast_rebuild")

_previous_index: dict[str, Any] | None = None
_pages: list[str] = []  # every page's source, in the order of the files
_rebuilt: dict[str, str] = {}  # the source -> URL of each page this build renders

quiet_dirty_warning()


def _index_path(config: MkDocsConfig) -> Path:
    return Path(config.site_dir) / "search" / "search_index.json"


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    list_theme_files_once(config.theme)
    return config


def on_pre_build(config: MkDocsConfig) -> None:
    global _previous_index
    path = _index_path(config)
    _previous_index = json.loads(path.read_text("utf-8")) if path.is_file() else None
    _pages.clear()
    _rebuilt.clear()


def on_env(env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
    return cache_templates(env, ROOT / ".cache" / "jinja")


# First, while only what `mkdocs serve` itself watches (docs/, mkdocs.yml) is watched.
@event_priority(100)
def on_serve(server: LiveReloadServer, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
    poll_every(server, POLL_SECONDS, [config.docs_dir, config.config_file_path])
    settle_after(server, SETTLE_SECONDS)
    return server


@event_priority(-100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    pages = {
        f.src_uri: (Path(f.abs_src_path), Path(f.abs_dest_path))
        for f in files.documentation_pages()
        if f.abs_src_path
    }
    _pages[:] = list(pages)
    root = Path(config.config_file_path).parent  # where includes are found from
    theme = [*Path(config.theme.custom_dir).rglob("*")] if config.theme.custom_dir else []
    # The build's own code shapes every page too (its watched folders include site_build/).
    code = [*(root / "hooks").glob("*.py"), *(root / "site_build").glob("*.py")]
    every_page = [Path(config.config_file_path), *theme, *code]
    stale = [pages[src][1] for src in stale_pages(pages, root, every_page)]
    mark_stale(path for path in stale if path.is_file())
    return files


def on_pre_page(page: Page, config: MkDocsConfig, files: Files) -> Page:
    _rebuilt[page.file.src_uri] = page.url
    return page


@event_priority(-100)
def on_post_build(config: MkDocsConfig) -> None:
    if set(_rebuilt) >= set(_pages):
        return  # a full build: the search plugin's index is whole
    path = _index_path(config)
    current = json.loads(path.read_text("utf-8"))
    merged = merge_search_index(_previous_index, current, _rebuilt.values())
    path.write_text(json.dumps(merged, separators=(",", ":")), encoding="utf-8")
    log.info(
        "Rebuilt %d of %d pages (%s); the others are unchanged.",
        len(_rebuilt),
        len(_pages),
        ", ".join(_rebuilt) or "none",
    )
