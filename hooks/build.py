"""The site's build: MkDocs' events, in the order MkDocs runs them, and the steps of each.

The steps are the tested code of ``site_build/``. What lasts between events (and between
the builds of ``mkdocs serve``) is held by ONE :class:`Build`, made at ``on_startup``. A
step that must run before or after another plugin's has a priority of its own
(:class:`~mkdocs.plugins.CombinedEvent`). Nothing is written into ``docs/``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from site_build import notebook
from site_build.bundles import BUNDLE, SOURCES, bundle, editor_bundle, sources
from site_build.cache import ContentCache
from site_build.fast_rebuild import LIVE_PACKAGES, DirtyRebuild, fresh_import, with_template_cache
from site_build.heads_figure import HEAD_ROLES_JSON_PATH, head_roles_json
from site_build.heatmap_data import HEATMAP_JSON_PATH, heatmap_json, installed_weights_sha256
from site_build.katex_render import KatexError, PageMath
from site_build.notebook import JUPYTER_CSS_MARK, slim_page
from site_build.page import (
    SourceError,
    blob_url,
    insert_cell_lines,
    insert_lines,
    notebook_lines,
    page_lines,
)
from site_build.practice import site_files
from site_build.search_exclude import mark
from site_build.tables import wrap_tables
from site_build.vendor import plan_copies

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache"
NOTEBOOK_DIR = "notebooks"
PRACTICE = ROOT / "snippets" / "practice"
EDITOR_ENTRY = ROOT / "site_build" / "editor_entry.js"
MINILM = ContentCache(CACHE / "minilm")  # the real model for the browser, loaded on request
log = logging.getLogger("mkdocs.hooks.build")
#: Generated files by site path: each one's content, or the ``Path`` of a file to copy.
Made = Mapping[str, str | bytes | Path]


@dataclass
class Build:
    """What the steps keep between events, and between the builds of ``mkdocs serve``."""

    rebuild: DirtyRebuild = field(default_factory=DirtyRebuild)  # what each file was made from
    math: PageMath = field(default_factory=lambda: PageMath(ROOT))  # the formulas of the pages


_build = Build()  # replaced at on_startup; a build started without it (tests) uses this one


# --- The events, in the order MkDocs runs them ------------------------------------------------


def on_startup(command: str, dirty: bool) -> None:
    global _build
    _build = Build()


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    notebook.key_jupyter_cache(config, ROOT)  # executed notebooks cached by attention_ref
    config.nav = fresh_import("site_build.site").nav_config()  # the pages of the site model
    return config


def on_pre_build(config: MkDocsConfig) -> None:
    _build.rebuild.start(config)  # keep the previous search index
    _build.math.start()


@event_priority(100)  # before mkdocs-htmlproofer-plugin notes the files
def _generated_files(files: Files, config: MkDocsConfig) -> Files:
    """The files the build makes, step by step: site paths mapped to a content, or to the
    ``Path`` of a file to copy. A module imported anew shows its edits under ``mkdocs serve``."""
    steps: dict[str, Callable[[], Made]] = {
        "wheel": lambda: _wheel_and_notebook_copies(files, config),  # first: notebooks read it
        "vendor": lambda: {dest: src for src, dest in plan_copies(ROOT / "node_modules")},
        "stylesheets": lambda: _stylesheets(files, Path(config.docs_dir)),
        "figures": lambda: fresh_import("site_build.figures").build_figures(CACHE / "figures"),
        "notebook downloads": lambda: _notebook_downloads(files),
        "widget data": lambda: fresh_import("site_build.widget_data").data_files(),
        "widget map": partial(_data, "site", "WIDGET_MAP", "widget_map_js"),  # the loader's
        "heatmap data": _heatmap_data,
        "minilm": lambda: fresh_import("site_build.minilm_export").cached_export(MINILM),
        "practice": _practice,
    }
    took = []
    for name, step in steps.items():
        start = time.perf_counter()
        put_generated(files, config, step())
        took.append(f"{name} {time.perf_counter() - start:.2f} s")
    log.info("Generated files: %s", ", ".join(took))
    return files


@event_priority(-100)  # after every plugin changed the files (mkdocs-jupyter's pages)
def _stale_outputs(files: Files, config: MkDocsConfig) -> Files:
    return _build.rebuild.judge(files, config)  # remove what a dirty build must make again


on_files = CombinedEvent(_generated_files, _stale_outputs)


def on_env(env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
    env = with_template_cache(env, CACHE / "jinja")  # compiled templates kept between builds
    try:
        _build.math.typeset()  # every page's content is read: all formulas in one node run
    except KatexError as error:
        raise PluginError(str(error)) from None
    return env


def on_pre_page(page: Page, config: MkDocsConfig, files: Files) -> Page:
    _build.rebuild.rendered(page)
    return page


def _page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    src = page.file.src_uri
    try:
        _build.math.note(html, src)  # typeset at on_env; the search index keeps the TeX
        # Under each Output block, the file and section that printed it (read as written).
        lines = page_lines(*_page_source(page, config))
        if lines:
            html = insert_lines(html, lines)
    except (KatexError, SourceError) as error:
        message = str(error) if isinstance(error, KatexError) else f"{src}: {error}"
        raise PluginError(message) from None
    return wrap_tables(html)  # each plain table in a box of its own


@event_priority(-100)  # last: the steps before see the HTML as Markdown made it
def _search_exclusions(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return mark(html)  # code and output stay out of the search index


on_page_content = CombinedEvent(_page_content, _search_exclusions)


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    if JUPYTER_CSS_MARK in output:  # mkdocs-jupyter's styles and scripts cut to those used
        # Kept: under `mkdocs serve` a prose edit elsewhere renders the page again, unchanged.
        slim = partial(slim_page, output, CACHE / "notebook-page")
        output, images = _build.rebuild.reuse(f"slim:{page.file.src_uri}", [], slim, output)
        folder = Path(config.site_dir) / page.url  # its images beside it, in <url>/index.html
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in images.items():
            (folder / name).write_bytes(data)
    src = page.file.src_uri
    try:
        output = _build.math.put(output, src, lambda p: get_relative_url(p, page.url))
        lines = notebook_lines(*_page_source(page, config))  # under each code cell
        return output if lines is None else insert_cell_lines(output, lines)
    except (KatexError, SourceError) as error:
        message = str(error) if isinstance(error, KatexError) else f"{src}: {error}"
        raise PluginError(message) from None


@event_priority(-100)  # after the search plugin wrote its index
def on_post_build(config: MkDocsConfig) -> None:
    _build.math.subset_fonts(Path(config.site_dir))  # KaTeX's fonts cut to what is shown
    _build.rebuild.finish(config)  # what each file was made from; the search index whole


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    for path in [*(ROOT / name for name in LIVE_PACKAGES), PRACTICE, EDITOR_ENTRY]:
        server.watch(str(path))  # the build reads these too: an edit rebuilds
    return server


# --- The steps of on_files: the files the build generates -------------------------------------


def _wheel_and_notebook_copies(files: Files, config: MkDocsConfig) -> Made:
    """``attention_ref``'s wheel; each notebook that installs it is read from a copy in
    ``.cache/`` with the wheel's address written in (its edit link names docs/)."""
    downloads = fresh_import("site_build.downloads")
    wheel = downloads.build_wheel(ROOT, CACHE / "wheel")
    url = downloads.wheel_url(config.site_url or "", wheel.name)
    for file in [f for f in files if _is_notebook_source(f)]:
        assert file.abs_src_path is not None
        src = PurePosixPath(file.src_uri)
        copies = CACHE / "notebook-sources"
        folder = downloads.filled_notebook_copy(Path(file.abs_src_path), src, url, copies)
        if folder is not None:
            # A source file whose folder is the copies' (not File.generated: mkdocs-jupyter
            # re-derives the path to read from src_dir).
            files.remove(file)
            site = config.site_dir
            files.append(File(file.src_uri, str(folder), site, config.use_directory_urls))
    return {f"{downloads.DOWNLOADS_DIR}/{wheel.name}": wheel}


def _stylesheets(files: Files, docs: Path) -> Made:
    """The site's own stylesheets as one minified file (``site_build/bundles.py``)."""
    for name in SOURCES:
        source = files.get_file_from_path(name)
        if source is not None:
            files.remove(source)
    inputs = [docs / name for name in SOURCES]
    return {BUNDLE: _build.rebuild.reuse("stylesheets", inputs, lambda: bundle(sources(docs)))}


def _notebook_downloads(files: Files) -> Made:
    """Each notebook page's ``.ipynb`` download, beside the page (no outputs)."""
    made = {}
    for file in [f for f in files if _is_notebook_source(f)]:
        assert file.abs_src_path is not None
        source, stem = Path(file.abs_src_path), PurePosixPath(file.src_uri).stem
        make = partial(notebook.to_ipynb, source.read_text(encoding="utf-8"))
        ipynb = _build.rebuild.reuse(f"ipynb:{source}", [source], make)
        made[f"{NOTEBOOK_DIR}/{stem}/{stem}.ipynb"] = ipynb
    return made


def _data(module: str, path: str, make: str) -> Made:
    """One file: site_build's ``module`` names its path by ``path``, writes it by ``make()``."""
    loaded = fresh_import(f"site_build.{module}")
    return {getattr(loaded, path): getattr(loaded, make)()}


def _heatmap_data() -> Made:
    """The real model's attention, and the role of each head, for the widgets."""
    # The weights by the hash their package's RECORD gives (reading 90 MB takes 0.1 s).
    return _build.rebuild.reuse(
        "heatmap data",
        [],
        lambda: {HEATMAP_JSON_PATH: heatmap_json(), HEAD_ROLES_JSON_PATH: head_roles_json()},
        installed_weights_sha256(),
    )


def _practice() -> Made:
    """The practice steps' manifests and downloads, and the editor's bundle."""
    # The worked example's values are in the published files. Pyodide's (12 MB) are named
    # by its package.json, which gives their version.
    pyodide = ROOT / "node_modules" / "pyodide"
    inputs = [PRACTICE, ROOT / "snippets" / "worked_example.py", pyodide / "package.json"]
    made = _build.rebuild.reuse("practice", inputs, lambda: site_files(PRACTICE, pyodide))
    editor = editor_bundle(EDITOR_ENTRY, ROOT, CACHE / "editor")
    return {**made, "javascripts/practice/editor.bundle.js": editor}


# --- Helpers --------------------------------------------------------------------------------


def put_generated(files: Files, config: MkDocsConfig, made: Made) -> None:
    """Add generated files to the build, each replacing any file already at its path;
    nothing is written into docs/."""
    for path, item in made.items():
        existing = files.get_file_from_path(path)
        if existing is not None:
            files.remove(existing)
        if isinstance(item, Path):
            files.append(File.generated(config, path, abs_src_path=str(item)))
        else:
            files.append(File.generated(config, path, content=item))


def _is_notebook_source(file: File) -> bool:
    src = PurePosixPath(file.src_uri)
    return src.parent.as_posix() == NOTEBOOK_DIR and src.suffix == ".py" and bool(file.abs_src_path)


def _page_source(page: Page, config: MkDocsConfig) -> tuple[Path, str, str]:
    """What site_build.page reads a page's sources by: the repository, the page's path in it
    (as a contributor finds it), the address of the repository's files."""
    root = Path(config.config_file_path).resolve().parent
    name = (Path(config.docs_dir).resolve().relative_to(root) / page.file.src_uri).as_posix()
    return ROOT, name, blob_url(str(config.repo_url or ""), str(config.edit_uri or ""))
