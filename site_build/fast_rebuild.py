"""The contributor's loop: ``make serve`` renders again only what changed, judged by content.

``make serve`` runs ``mkdocs serve --dirty``. MkDocs then renders a page only when its
built HTML is missing or older than its Markdown, and copies a file from ``docs/`` only
when its copy is missing or older. File times cannot say whether the built site matches
the files on disk: a ``git checkout`` or a ``git stash pop`` that lands while a build
runs leaves HTML written *after* the sources it no longer matches, and an include
(``--8<--``) is not looked at at all. So staleness is judged here by content:

* :func:`digest_files` hashes files by name and bytes;
* :func:`page_inputs` lists what a page is made from: its source and every file it
  includes (:func:`site_build.page.included_files`, partials followed); files every page depends on
  (``mkdocs.yml``, the theme's overrides, the build's code) are hashed once, apart;
* :class:`DirtyRebuild` (wired to MkDocs' events by ``hooks/build.py``) keeps, for each
  built file, the digest of the inputs it was last built from, and removes the built
  file of every source whose inputs' digest differs now. MkDocs' dirty build then
  makes it again, as it makes any missing output. The digest is taken before MkDocs
  reads the sources, so a file that changes during a build has a digest that differs
  at the next one.

Two more pieces keep a dirty build whole:

* :func:`merge_search_index`: the search index written after such a build holds only
  the rebuilt pages; the previous index gives the others;
* :func:`quiet_dirty_warning`: MkDocs warns that a dirty build may leave the navigation
  inaccurate, and under ``--strict`` that warning would stop every build. Here the
  navigation's titles come from ``mkdocs.yml`` (a change to it rebuilds every page).

And two that spare work MkDocs would repeat at each rebuild:

* :func:`reuse_while_unchanged` keeps what a hook made while the content of its inputs
  and of the build's code is unchanged (0.2 s of a rebuild);
* :func:`with_template_cache`: MkDocs makes a new Jinja environment for every build, so
  the theme's templates are compiled again each time. ``on_env`` hands on an overlay of
  that environment (Jinja's own API) that keeps compiled templates in ``.cache/jinja/``,
  keyed by Jinja on each template's source. ``make build`` profits too; the pages are
  the same.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from site_build.mkdocs_files import LIVE_PACKAGES, files_signature, sources_signature
from site_build.page import included_files

#: The start of the warning MkDocs logs at every dirty build.
DIRTY_WARNING = "A 'dirty' build is being performed"

T = TypeVar("T")
_made: dict[str, tuple[Any, Any]] = {}
log = logging.getLogger("mkdocs.hooks.fast_rebuild")


def digest_files(paths: Iterable[Path], root: Path | None = None) -> str:
    """A hex digest of ``paths`` by name and bytes; a folder counts as its files.

    A missing file counts too (as missing), so that its coming is a change. Names under
    ``root`` (when given) are taken relative to it, so that two copies of a project agree.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.md").write_text("one")
    >>> before = digest_files([folder / "a.md", folder / "b.md"], folder)
    >>> _ = (folder / "a.md").write_text("two")
    >>> digest_files([folder / "a.md", folder / "b.md"], folder) == before
    False
    """
    digest = hashlib.blake2b(digest_size=20)
    for name, content in files_signature(paths):
        path = Path(name)
        shown = path.relative_to(root).as_posix() if root and path.is_relative_to(root) else name
        for part in (shown.encode("utf-8"), content.encode("ascii")):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part)
    return digest.hexdigest()


def page_inputs(source: Path, root: Path) -> list[Path]:
    """The files a page is made from: ``source`` and every file it includes, sorted.

    Include paths are relative to ``root`` (pymdownx.snippets' ``base_path``). A source
    that is not Markdown (a notebook) includes nothing.
    """

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

    Parameters
    ----------
    sources : mapping of str to list of Path
        For each source (any key, such as its ``src_uri``), the files it is made from.
    built : mapping of str to str
        For each source built before, the digest it was built from.
    root : Path
        The project's root (file names are hashed relative to it).
    shared : str
        A digest of what every source depends on, mixed into each one's.

    Returns
    -------
    (dict of str to str, list of str)
        The digests now, and the stale keys in the order of ``sources`` (a source never
        built is stale).

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
    digests = {}
    for key, inputs in sources.items():
        digests[key] = hashlib.blake2b(
            (shared + digest_files(inputs, root)).encode("ascii"), digest_size=20
        ).hexdigest()
    return digests, [key for key, digest in digests.items() if built.get(key) != digest]


def page_of(location: str) -> str:
    """The page part of a search entry's location (``"attention/#softmax"`` → ``"attention/"``)."""
    return location.partition("#")[0]


def merge_search_index(
    previous: Mapping[str, Any] | None, current: Mapping[str, Any], rebuilt: Iterable[str]
) -> dict[str, Any]:
    """The whole search index after a build that rendered only the ``rebuilt`` pages.

    Parameters
    ----------
    previous : mapping or None
        The index of the build before (``{"config": ..., "docs": [...]}``), or None.
    current : mapping
        The index this build wrote: its entries for the rebuilt pages are the new ones
        (entries it holds for other pages are ignored).
    rebuilt : iterable of str
        The URLs of the pages this build rendered (``""`` for the home page).

    Returns
    -------
    dict
        ``current``'s config; the entries of ``previous`` with each rebuilt page's
        entries replaced, in place, by its new ones; pages new to the index at the end.

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
        if page_of(entry["location"]) in rebuilt:
            fresh.setdefault(page_of(entry["location"]), []).append(entry)
    docs: list[Any] = []
    placed: set[str] = set()
    for entry in previous["docs"] if previous else []:
        page = page_of(entry["location"])
        if page not in rebuilt:
            docs.append(entry)
        elif page not in placed:
            docs.extend(fresh.get(page, []))
            placed.add(page)
    for page, entries in fresh.items():
        if page not in placed:
            docs.extend(entries)
    return {"config": current["config"], "docs": docs}


class _DropDirtyWarning(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(DIRTY_WARNING)


def quiet_dirty_warning(logger: logging.Logger | None = None) -> None:
    """Drop MkDocs' warning at each dirty build (once per process; idempotent)."""
    logger = logger or logging.getLogger("mkdocs.commands.build")
    if not any(isinstance(f, _DropDirtyWarning) for f in logger.filters):
        logger.addFilter(_DropDirtyWarning())


def reuse_while_unchanged(
    name: str, inputs: Iterable[Path], make: Callable[[], T], key: str = ""
) -> T:
    """``make()``, or what it returned last time in this process if ``inputs`` are unchanged.

    ``mkdocs serve`` runs every build in one process, so a result kept here lasts until
    the content of an input file changes (or one comes or goes), ``key`` changes, or a
    source of ``attention_ref`` or ``site_build`` (the code that makes it) does. Every
    input is read: name large installed files by ``key`` instead (a hash their
    package's RECORD gives, a version).

    Parameters
    ----------
    name : str
        What is made; one result is kept per name.
    inputs : iterable of Path
        Every file or folder that ``make`` reads.
    make : callable
        Makes the result from the inputs.
    key : str
        What else the result depends on.

    Returns
    -------
    object
        The result (the same object while nothing changed).

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.txt").write_text("1")
    >>> read = lambda: (folder / "a.txt").read_text()
    >>> reuse_while_unchanged("doc-example", [folder], read)
    '1'
    >>> _ = (folder / "a.txt").write_text("2")
    >>> reuse_while_unchanged("doc-example", [folder], read)
    '2'
    """
    signature = (key, files_signature(inputs), sources_signature(LIVE_PACKAGES))
    kept = _made.get(name)
    if kept is not None and kept[0] == signature:
        return kept[1]  # type: ignore[no-any-return]
    result = make()
    _made[name] = (signature, result)
    return result


def with_template_cache(env: jinja2.Environment, cache_dir: Path) -> jinja2.Environment:
    """An overlay of ``env`` that keeps compiled templates in ``cache_dir`` (created if missing).

    Parameters
    ----------
    env : jinja2.Environment
        The environment MkDocs renders the theme with; it is not changed.
    cache_dir : Path
        Where compiled templates are kept between builds.

    Returns
    -------
    jinja2.Environment
        A new environment sharing ``env``'s loader, filters and globals.
    """
    cache_dir.mkdir(parents=True, exist_ok=True)
    return env.overlay(bytecode_cache=jinja2.FileSystemBytecodeCache(str(cache_dir)))


@dataclass
class _Build:
    """What one build noted: the previous index, each source's digest, the pages rendered."""

    index: dict[str, Any] | None = None
    digests: dict[str, str] = field(default_factory=dict)  # src_uri -> inputs' digest
    outputs: dict[str, Path] = field(default_factory=dict)  # src_uri -> built file
    pages: list[str] = field(default_factory=list)  # every page's src_uri
    rendered: dict[str, str] = field(default_factory=dict)  # src_uri -> URL, rendered now


@dataclass
class DirtyRebuild:
    """``mkdocs serve --dirty`` renders what changed, judged by content (the module's doc).

    One object lasts as long as the process (``mkdocs serve`` builds again and again in
    it): ``made_from`` keeps, for each site folder, each source's ``src_uri`` and the
    digest its built file was made from. Its methods are called from MkDocs' events:

    * :meth:`start` (``on_pre_build``): keep the previous search index;
    * :meth:`judge` (``on_files``, last): digest each page's and file's inputs and remove
      the built file of each one whose digest is new, so MkDocs makes it again;
    * :meth:`rendered` (``on_pre_page``): note the page rendered;
    * :meth:`finish` (``on_post_build``, after the search plugin): note what each built
      file was made from, and merge the rebuilt pages into the previous search index.

    A full build renders every page, and then none of this changes anything.
    """

    made_from: dict[str, dict[str, str]] = field(default_factory=dict)
    build: _Build = field(default_factory=_Build)

    def __post_init__(self) -> None:
        quiet_dirty_warning()

    @staticmethod
    def _index_path(config: MkDocsConfig) -> Path:
        return Path(config.site_dir) / "search" / "search_index.json"

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
        return digest_files(files, root) + "\n".join(pages)

    def start(self, config: MkDocsConfig) -> None:
        path = self._index_path(config)
        self.build = _Build(index=json.loads(path.read_text("utf-8")) if path.is_file() else None)

    def judge(self, files: Files, config: MkDocsConfig) -> Files:
        build = self.build
        root = Path(config.config_file_path).parent  # where includes are found from
        docs = Path(config.docs_dir)
        sources: dict[str, list[Path]] = {}
        for f in files:
            if not f.abs_src_path or f.inclusion.is_excluded():  # type: ignore[no-untyped-call]
                continue  # made from content (always written), or not built (partials)
            source = Path(f.abs_src_path)
            if not f.is_documentation_page():
                if source.is_relative_to(docs):  # not the theme's files or the vendored ones
                    build.outputs[f.src_uri] = Path(f.abs_dest_path)
                    sources[f.src_uri] = [source]
                continue
            # A page, from docs/ or from a copy the build made (the notebook's, in .cache/).
            build.outputs[f.src_uri] = Path(f.abs_dest_path)
            build.pages.append(f.src_uri)
            sources[f.src_uri] = page_inputs(source, root)
            if source.suffix != ".md":  # a notebook: executed with attention_ref at build time
                sources[f.src_uri] += sorted((root / "attention_ref").glob("*.py"))
        shared = self._shared(config, root, build.pages)
        made_from = self.made_from.get(config.site_dir, {})
        build.digests, todo = stale(sources, made_from, root, shared)
        for src in todo:
            build.outputs[src].unlink(missing_ok=True)  # MkDocs makes a missing output again
        return files

    def rendered(self, page: Page) -> None:
        self.build.rendered[page.file.src_uri] = page.url

    def finish(self, config: MkDocsConfig) -> None:
        build = self.build
        # Every built file that exists now was made from its sources as they were when they
        # were hashed, or later: a change after the hashing shows at the next build.
        self.made_from[config.site_dir] = {
            src: digest for src, digest in build.digests.items() if build.outputs[src].is_file()
        }
        if set(build.rendered) >= set(build.pages):
            return  # a full build: the search plugin's index is whole
        path = self._index_path(config)
        current = json.loads(path.read_text("utf-8"))
        merged = merge_search_index(build.index, current, build.rendered.values())
        path.write_text(json.dumps(merged, separators=(",", ":")), encoding="utf-8")
        log.info(
            "Rebuilt %d of %d pages (%s); the others are unchanged.",
            len(build.rendered),
            len(build.pages),
            ", ".join(build.rendered) or "none",
        )
