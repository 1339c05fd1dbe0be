"""MkDocs hook: ``make serve``'s dirty rebuilds render what changed, judged by content.

Thin wiring only; the logic lives in ``site_build/fast_rebuild.py`` (tested in
``tests/test_fast_rebuild.py``). For ``mkdocs serve --dirty``, which renders only the
pages whose built HTML is missing or older than their Markdown:

* ``on_files`` (last): each page, and each other file from ``docs/``, gets the digest of
  what it is made from (a page: its Markdown, the files it includes, and what every
  page depends on: ``mkdocs.yml``, the theme's overrides, the build's code; the
  notebook, read from the copy ``hooks/downloads.py`` makes, also ``attention_ref``).
  When that digest is not the one the built file was made from, the built file is
  removed, and MkDocs makes it again. File times are never looked at.
* ``on_env`` hands on an overlay of the theme's Jinja environment that keeps compiled
  templates in ``.cache/jinja/`` between builds (MkDocs compiles them again for each
  build otherwise).
* ``on_pre_build`` keeps the previous search index and ``on_post_build`` (after the
  search plugin) merges the rebuilt pages into it, and notes what each built file was
  made from, for the next build.

A full build renders every page, and then none of this changes anything. The hook is
loaded once per process (MkDocs keeps hook modules), so what it notes lasts from one
build of ``mkdocs serve`` to the next.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from site_build.fast_rebuild import (
    digest_files,
    merge_search_index,
    page_inputs,
    quiet_dirty_warning,
    stale,
    with_template_cache,
)

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("mkdocs.hooks.fast_rebuild")


@dataclass
class _Build:
    """What one build noted: the previous index, each source's digest, the pages rendered."""

    index: dict[str, Any] | None = None
    digests: dict[str, str] = field(default_factory=dict)  # src_uri -> inputs' digest
    outputs: dict[str, Path] = field(default_factory=dict)  # src_uri -> built file
    pages: list[str] = field(default_factory=list)  # every page's src_uri
    rendered: dict[str, str] = field(default_factory=dict)  # src_uri -> URL, rendered now


_build = _Build()
# For each site folder: each source's src_uri -> the digest its built file was made from.
_made_from: dict[str, dict[str, str]] = {}

quiet_dirty_warning()


def _index_path(config: MkDocsConfig) -> Path:
    return Path(config.site_dir) / "search" / "search_index.json"


def _shared(config: MkDocsConfig, root: Path, pages: list[str]) -> str:
    """A digest of what every page depends on, and of the list of pages (the navigation)."""
    theme = [Path(config.theme.custom_dir)] if config.theme.custom_dir else []
    # The build's own code shapes every page too; its __pycache__ does not.
    code = [p for folder in ("hooks", "site_build") for p in sorted((root / folder).glob("*.*"))]
    snippets = config.mdx_configs.get("pymdownx.snippets", {})
    appended = [root / name for name in snippets.get("auto_append", [])]
    files = [Path(config.config_file_path), *theme, *code, *appended]
    return digest_files(files, root) + "\n".join(pages)


def on_pre_build(config: MkDocsConfig) -> None:
    global _build
    path = _index_path(config)
    _build = _Build(index=json.loads(path.read_text("utf-8")) if path.is_file() else None)


@event_priority(-100)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    root = Path(config.config_file_path).parent  # where includes are found from
    docs = Path(config.docs_dir)
    sources: dict[str, list[Path]] = {}
    for f in files:
        if not f.abs_src_path or f.inclusion.is_excluded():
            continue  # made from content (always written), or not built (partials)
        source = Path(f.abs_src_path)
        if not f.is_documentation_page():
            if source.is_relative_to(docs):  # not the theme's files or the vendored ones
                _build.outputs[f.src_uri] = Path(f.abs_dest_path)
                sources[f.src_uri] = [source]
            continue
        # A page, from docs/ or from a copy the build made (the notebook's, in .cache/).
        _build.outputs[f.src_uri] = Path(f.abs_dest_path)
        _build.pages.append(f.src_uri)
        sources[f.src_uri] = page_inputs(source, root)
        if source.suffix != ".md":  # a notebook: executed with attention_ref at build time
            sources[f.src_uri] += sorted((root / "attention_ref").glob("*.py"))
    shared = _shared(config, root, _build.pages)
    made_from = _made_from.get(config.site_dir, {})
    _build.digests, todo = stale(sources, made_from, root, shared)
    for src in todo:
        _build.outputs[src].unlink(missing_ok=True)  # MkDocs makes a missing output again
    return files


def on_env(env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
    return with_template_cache(env, ROOT / ".cache" / "jinja")


def on_pre_page(page: Page, config: MkDocsConfig, files: Files) -> Page:
    _build.rendered[page.file.src_uri] = page.url
    return page


@event_priority(-100)
def on_post_build(config: MkDocsConfig) -> None:
    # Every built file that exists now was made from its sources as they were when they
    # were hashed, or later: a change after the hashing shows at the next build.
    _made_from[config.site_dir] = {
        src: digest for src, digest in _build.digests.items() if _build.outputs[src].is_file()
    }
    if set(_build.rendered) >= set(_build.pages):
        return  # a full build: the search plugin's index is whole
    path = _index_path(config)
    current = json.loads(path.read_text("utf-8"))
    merged = merge_search_index(_build.index, current, _build.rendered.values())
    path.write_text(json.dumps(merged, separators=(",", ":")), encoding="utf-8")
    log.info(
        "Rebuilt %d of %d pages (%s); the others are unchanged.",
        len(_build.rendered),
        len(_build.pages),
        ", ".join(_build.rendered) or "none",
    )
