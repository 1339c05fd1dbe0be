"""What ``make serve`` (``mkdocs serve --dirty``) needs to be quick and right.

MkDocs' dirty build compares file times, which cannot tell whether the built site matches
the sources (a ``git checkout`` landing mid-build, an include it never looks at). Here
:class:`DirtyRebuild` keeps each built file's inputs digest and removes the built file
whose inputs changed, so MkDocs makes it again; it then merges the rebuilt pages into the
previous search index, and keeps hooks' results while their inputs are unchanged.
:func:`with_template_cache` keeps the theme's compiled templates between builds;
:func:`fresh_import` brings source edits into the generated files.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import logging
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from site_build.cache import content_key
from site_build.page import included_files

#: The start of the warning MkDocs logs at every dirty build.
DIRTY_WARNING = "A 'dirty' build is being performed"
SEARCH_INDEX = Path("search", "search_index.json")  # in the site folder

T = TypeVar("T")
log = logging.getLogger("mkdocs.hooks.fast_rebuild")

# The packages whose edits must reach the generated files while `mkdocs serve` runs.
LIVE_PACKAGES = ("attention_ref", "site_build")


def files_signature(
    inputs: Iterable[Path], pattern: str = "*", root: Path | None = None
) -> tuple[tuple[str, str], ...]:
    """``(path, digest of its bytes)`` of every file of ``inputs`` matching ``pattern``, in order.

    A folder counts as its files (sorted, no ``__pycache__``), a missing file as
    ``"missing"``; a path below ``root`` is named relative to it, so two copies of the
    project agree. File times are not looked at: a checkout can put back any time.

    Examples
    --------
    >>> files_signature([Path("no/such/file")], root=Path("no"))
    (('such/file', 'missing'),)
    """
    entries = []
    for item in inputs:
        for path in sorted(item.rglob(pattern)) if item.is_dir() else [item]:
            if path.is_dir() or "__pycache__" in path.parts:
                continue
            shown = path.relative_to(root) if root and path.is_relative_to(root) else path
            try:
                digest = hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
            except OSError:
                digest = "missing"
            entries.append((shown.as_posix(), digest))
    return tuple(entries)


def sources_signature(packages: Iterable[str] = LIVE_PACKAGES) -> tuple[tuple[str, str], ...]:
    """:func:`files_signature` of every ``.py`` file of ``packages``.

    Examples
    --------
    >>> sources_signature(["site_build"]) == sources_signature(["site_build"])
    True
    """
    folders = []
    for name in packages:
        spec = importlib.util.find_spec(name)
        folders += [Path(f) for f in (spec.submodule_search_locations or [])] if spec else []
    return files_signature(folders, "*.py")


def fresh_import(module: str, packages: Iterable[str] = LIVE_PACKAGES) -> ModuleType:
    """Import ``module`` anew, with all of ``packages``, if one of their sources changed.

    ``mkdocs serve`` keeps one interpreter. Each loaded module of ``packages`` is stamped
    with the :func:`sources_signature` it was seen with (one loaded by a plain ``import``
    since carries none and is kept); when a stamp is outdated, all of them are dropped,
    and the bytecode of each changed source removed.

    Examples
    --------
    >>> fresh_import("site_build.vendor").__name__
    'site_build.vendor'
    >>> fresh_import("site_build.vendor") is fresh_import("site_build.vendor")
    True
    """
    roots = tuple(packages)
    signature = sources_signature(roots)

    def live() -> list[ModuleType]:
        return [m for n, m in list(sys.modules.items()) if n.split(".")[0] in roots]

    stamps = {getattr(m, "__live_sources__", None) for m in live()}
    outdated = [stamp for stamp in stamps if stamp not in (None, signature)]
    if outdated:  # loaded from sources that have changed since
        for name in [n for n in sys.modules if n.split(".")[0] in roots]:
            del sys.modules[name]
        # Python trusts bytecode by the source's time (in seconds) and size: a checkout in
        # the same second could load old code.
        for path, digest in signature:
            if any(dict(stamp).get(path) != digest for stamp in outdated):
                Path(importlib.util.cache_from_source(path)).unlink(missing_ok=True)
    wanted = importlib.import_module(module)
    for loaded in live():
        loaded.__live_sources__ = signature  # type: ignore[attr-defined]
    return wanted


def page_inputs(source: Path, root: Path) -> list[Path]:
    """``source`` and every file it includes (paths relative to ``root``, sorted); a
    source that is not Markdown (a notebook) includes nothing."""

    def read(path: str) -> str | None:
        file = root / path
        return file.read_text(encoding="utf-8") if file.is_file() else None

    if source.suffix != ".md" or not source.is_file():
        return [source]
    return [source, *sorted(root / p for p in included_files(source.read_text("utf-8"), read))]


def stale(
    sources: Mapping[str, list[Path]], built: Mapping[str, str], root: Path, shared: str = ""
) -> tuple[dict[str, str], list[str]]:
    """Each source's inputs digest, and the sources whose digest is not the one ``built``.

    ``sources`` maps each key to the files it is made from, ``built`` each key built before
    to its digest then; ``shared`` (what every source depends on) enters each digest. The
    stale keys come in the order of ``sources`` (a source never built is stale).

    Examples
    --------
    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = (root / "a.md").write_text("A")
    >>> digests, todo = stale({"a.md": [root / "a.md"]}, {}, root)
    >>> todo
    ['a.md']
    >>> stale({"a.md": [root / "a.md"]}, digests, root)[1]
    []
    >>> stale({"a.md": [root / "a.md"]}, digests, root, shared="new config")[1]
    ['a.md']
    """
    digests = {
        key: content_key(meta=[shared, files_signature(i, root=root)]) for key, i in sources.items()
    }
    return digests, [key for key, digest in digests.items() if built.get(key) != digest]


def merge_search_index(
    previous: Mapping[str, Any] | None, current: Mapping[str, Any], rebuilt: Iterable[str]
) -> dict[str, Any]:
    """The whole search index after a build that rendered only the ``rebuilt`` pages.

    ``current``'s config; ``previous``'s entries (None: no index before) with each rebuilt
    page's replaced in place by ``current``'s; pages new to the index at the end.

    Examples
    --------
    >>> old = {"config": {}, "docs": [{"location": ""}, {"location": "a/"},
    ...                               {"location": "a/#x"}, {"location": "b/"}]}
    >>> new = {"config": {"lang": ["en"]}, "docs": [{"location": "a/"}, {"location": "a/#y"}]}
    >>> merged = merge_search_index(old, new, ["a/"])
    >>> [e["location"] for e in merged["docs"]], merged["config"]
    (['', 'a/', 'a/#y', 'b/'], {'lang': ['en']})
    """
    rebuilt = set(rebuilt)
    fresh: dict[str, list[Any]] = {}
    for entry in current["docs"]:
        page = entry["location"].partition("#")[0]  # "a/#x" -> "a/"
        if page in rebuilt:
            fresh.setdefault(page, []).append(entry)
    docs: list[Any] = []
    for entry in previous["docs"] if previous else []:
        page = entry["location"].partition("#")[0]
        if page not in rebuilt:
            docs.append(entry)
        elif page in fresh:  # where the page's first entry was
            docs.extend(fresh.pop(page))
    for entries in fresh.values():  # pages new to the index
        docs.extend(entries)
    return {"config": current["config"], "docs": docs}


def _not_dirty_warning(record: logging.LogRecord) -> bool:
    return not str(record.msg).startswith(DIRTY_WARNING)


def quiet_dirty_warning(logger: logging.Logger | None = None) -> None:
    """Drop MkDocs' warning at each dirty build, fatal under ``--strict`` (idempotent): that
    the navigation may be stale (its titles come from ``mkdocs.yml``, which rebuilds all)."""
    (logger or logging.getLogger("mkdocs.commands.build")).addFilter(_not_dirty_warning)


def with_template_cache(env: jinja2.Environment, cache_dir: Path) -> jinja2.Environment:
    """An overlay of ``env`` (left unchanged) that keeps compiled templates in ``cache_dir``.

    MkDocs makes a new environment for every build; Jinja keys each template by its source.
    """
    cache_dir.mkdir(parents=True, exist_ok=True)
    return env.overlay(bytecode_cache=jinja2.FileSystemBytecodeCache(str(cache_dir)))


@dataclass
class DirtyRebuild:
    """What ``mkdocs serve``'s builds, one after another in one process, keep.

    Called from MkDocs' events: :meth:`start` (``on_pre_build``), :meth:`judge`
    (``on_files``, last), :meth:`rendered` (``on_pre_page``), :meth:`finish`
    (``on_post_build``, after the search plugin). A full build changes nothing here.
    The fields after ``kept`` are one build's notes, reset by :meth:`start`.
    """

    made_from: dict[str, dict[str, str]] = field(default_factory=dict)  # site_dir -> digests built
    kept: dict[str, tuple[object, Any]] = field(default_factory=dict)  # see reuse()
    index: dict[str, Any] | None = None  # the search index before this build
    digests: dict[str, str] = field(default_factory=dict)  # src_uri -> inputs' digest
    outputs: dict[str, Path] = field(default_factory=dict)  # src_uri -> built file
    pages: list[str] = field(default_factory=list)  # every page's src_uri
    urls: dict[str, str] = field(default_factory=dict)  # src_uri -> URL, rendered now

    def __post_init__(self) -> None:
        quiet_dirty_warning()

    @staticmethod
    def _shared(config: MkDocsConfig, root: Path, pages: list[str]) -> str:
        """A digest of what every page depends on, and of the list of pages (the navigation)."""
        theme = [Path(config.theme.custom_dir)] if config.theme.custom_dir else []
        # The build's own code shapes every page too; its __pycache__ does not.
        folders = [root / "hooks", root / "site_build"]
        code = [p for folder in folders for p in sorted(folder.glob("*.*"))]
        snippets = config.mdx_configs.get("pymdownx.snippets", {})
        appended = [root / name for name in snippets.get("auto_append", [])]
        files = [Path(config.config_file_path), *theme, *code, *appended]
        return content_key(meta=[files_signature(files, root=root), pages])

    def start(self, config: MkDocsConfig) -> None:
        path = Path(config.site_dir) / SEARCH_INDEX
        self.index = json.loads(path.read_text("utf-8")) if path.is_file() else None
        self.digests, self.outputs, self.pages, self.urls = {}, {}, [], {}

    def judge(self, files: Files, config: MkDocsConfig) -> Files:
        root = Path(config.config_file_path).parent  # where includes are found from
        docs = Path(config.docs_dir)
        sources: dict[str, list[Path]] = {}
        for f in files:
            if not f.abs_src_path or f.inclusion.is_excluded():  # type: ignore[no-untyped-call]
                continue  # made from content (always written), or not built (partials)
            source = Path(f.abs_src_path)
            if f.is_documentation_page():  # from docs/ or a copy the build made (in .cache/)
                self.pages.append(f.src_uri)
                sources[f.src_uri] = page_inputs(source, root)
                if source.suffix != ".md":  # a notebook: executed with attention_ref
                    sources[f.src_uri] += sorted((root / "attention_ref").glob("*.py"))
            elif source.is_relative_to(docs):  # not the theme's files or the vendored ones
                sources[f.src_uri] = [source]
            else:
                continue
            self.outputs[f.src_uri] = Path(f.abs_dest_path)
        shared = self._shared(config, root, self.pages)
        made_from = self.made_from.get(config.site_dir, {})
        self.digests, todo = stale(sources, made_from, root, shared)
        for src in todo:
            self.outputs[src].unlink(missing_ok=True)  # MkDocs makes a missing output again
        return files

    def reuse(self, name: str, inputs: Iterable[Path], make: Callable[[], T], key: str = "") -> T:
        """``make()``, or its last result if the content of ``inputs`` (files or folders),
        ``key`` and the sources of ``LIVE_PACKAGES`` are unchanged since.

        Every input is read: name large installed files by ``key`` instead (a version).

        Examples
        --------
        >>> import tempfile
        >>> folder, rebuild = Path(tempfile.mkdtemp()), DirtyRebuild()
        >>> _ = (folder / "a.txt").write_text("1")
        >>> read = lambda: (folder / "a.txt").read_text()
        >>> rebuild.reuse("a", [folder], read), rebuild.reuse("a", [folder], lambda: "not made")
        ('1', '1')
        >>> _ = (folder / "a.txt").write_text("2")
        >>> rebuild.reuse("a", [folder], read)
        '2'
        """
        signature = (key, files_signature(inputs), sources_signature(LIVE_PACKAGES))
        kept = self.kept.get(name)
        if kept is not None and kept[0] == signature:
            return kept[1]  # type: ignore[no-any-return]
        result = make()
        self.kept[name] = (signature, result)
        return result

    def rendered(self, page: Page) -> None:
        self.urls[page.file.src_uri] = page.url

    def finish(self, config: MkDocsConfig) -> None:
        # Every built file that exists now was made from its sources as they were when they
        # were hashed, or later: a change after the hashing shows at the next build.
        self.made_from[config.site_dir] = {
            src: digest for src, digest in self.digests.items() if self.outputs[src].is_file()
        }
        if set(self.urls) >= set(self.pages):
            return  # a full build: the search plugin's index is whole
        path = Path(config.site_dir) / SEARCH_INDEX
        current = json.loads(path.read_text("utf-8"))
        merged = merge_search_index(self.index, current, self.urls.values())
        path.write_text(json.dumps(merged, separators=(",", ":")), encoding="utf-8")
        log.info(
            "Rebuilt %d of %d pages (%s); the others are unchanged.",
            len(self.urls),
            len(self.pages),
            ", ".join(self.urls) or "none",
        )
