"""The contributor's loop: what makes a rebuild under ``mkdocs serve`` quicker.

Things MkDocs does on every rebuild that a rebuild does not need to repeat:

* :func:`cache_templates`: MkDocs makes a new Jinja environment for every build, so the
  theme's templates are compiled again each time (about 0.1 s). Compiled templates are
  kept in ``.cache/jinja/``, keyed by Jinja on each template's source (a changed
  template is compiled again) and on Jinja's and Python's versions. ``make build``
  profits too; the pages are the same.
* :func:`poll_every`: ``mkdocs serve`` notices an edit by polling the watched folders
  every 0.5 s, so an edit waits 0.25 s on average before its rebuild starts. The server
  is given a watcher that polls more often (every 0.1 s, as the hook asks).
* :func:`settle_after`: after the first change it notices, the server waits 0.1 s for
  changes to stop before it rebuilds; an editor's save is over well within 0.03 s.
* :func:`reuse_while_unchanged`: generated files whose inputs did not change since the
  last build in this process are not made again (the practice manifests, the figures,
  the model data, the stylesheet bundle, the notebook: 0.2 s of a rebuild together).
* :func:`list_theme_files_once`: every build lists the theme's files to copy the static
  ones, and Material's folders hold 14,000 icons that the listing then filters out one
  name at a time (0.1 s). The listing is kept while the theme's folders are unchanged,
  without the hidden folders (``.icons``) that MkDocs never copies.
* Rendering every page again. ``make serve`` runs ``mkdocs serve --dirty``, which
  renders again only the pages whose Markdown is newer than their built HTML, and copies
  only the static files that changed. Two things it misses are put right here:

  - :func:`stale_pages`: a page is also out of date when a file it includes
    (``--8<--``, partials followed) or a file every page depends on (``mkdocs.yml``, the
    theme's overrides, the build's own code) is newer than its built HTML;
  - :func:`merge_search_index`: the search index written after such a build holds only
    the rebuilt pages; the previous index gives the others.

  MkDocs warns that a dirty build may leave the navigation inaccurate, and under
  ``--strict`` that warning would stop every build. Here the navigation's titles come
  from ``mkdocs.yml`` (a change to it rebuilds every page), so :func:`quiet_dirty_warning`
  drops that one message.

``hooks/fast_rebuild.py`` wires these into MkDocs.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import jinja2
from mkdocs.livereload import LiveReloadServer
from watchdog.observers.polling import PollingObserver

from site_build.mkdocs_files import LIVE_PACKAGES, files_signature, sources_signature
from site_build.output_source import INCLUDE

#: How deep partials may include partials before the walk stops (a cycle, most likely).
MAX_DEPTH = 8
#: The start of the warning MkDocs logs at every dirty build.
DIRTY_WARNING = "A 'dirty' build is being performed"

T = TypeVar("T")
_made: dict[str, tuple[Any, Any]] = {}


def cache_templates(env: jinja2.Environment, cache_dir: Path) -> jinja2.Environment:
    """Give ``env`` a bytecode cache in ``cache_dir`` (created if missing).

    Parameters
    ----------
    env : jinja2.Environment
        The environment MkDocs renders the theme with.
    cache_dir : Path
        Where compiled templates are kept between builds.

    Returns
    -------
    jinja2.Environment
        ``env`` itself.
    """
    cache_dir.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = jinja2.FileSystemBytecodeCache(str(cache_dir))
    return env


def poll_every(server: LiveReloadServer, seconds: float, watched: Sequence[str]) -> bool:
    """Make ``server``'s file watcher poll every ``seconds``, keeping what it watches.

    Must be called before the server starts. The ``watched`` paths are unwatched, the
    watcher is replaced by one with the new interval, and the same paths are watched
    again with the server's own :meth:`~LiveReloadServer.watch`, so the server's
    bookkeeping stays whole; paths watched later use the new watcher too.

    Parameters
    ----------
    server : LiveReloadServer
        The server ``mkdocs serve`` hands to the ``on_serve`` event.
    seconds : float
        The new polling interval (MkDocs' own is 0.5 s).
    watched : sequence of str
        Every path the server watches so far: ``mkdocs serve`` watches the docs folder
        and the config file before the first ``on_serve`` handler runs.

    Returns
    -------
    bool
        False, and nothing changed, if the watcher has started or watches more than
        ``watched`` (another path it does not know how to watch again).

    Raises
    ------
    ValueError
        If ``seconds`` is not positive.
    """
    if not seconds > 0:
        raise ValueError(f"the polling interval must be positive, got {seconds!r}")
    old = server.observer
    if old.is_alive():
        return False
    for path in watched:
        server.unwatch(path)
    if old.emitters:  # watches something else too: put everything back as it was
        for path in watched:
            server.watch(path)
        return False
    server.observer = PollingObserver(timeout=seconds)
    for path in watched:
        server.watch(path)
    return True


def included_files(text: str, read: Callable[[str], str | None], depth: int = 0) -> set[str]:
    """Every file that ``text`` includes with ``--8<--``, the partials' own includes too.

    Parameters
    ----------
    text : str
        A page's Markdown as written.
    read : callable
        Returns a file's text from its path as the include names it (relative to the
        project's root), or None if there is no such file.
    depth : int
        How many partials deep ``text`` is (the walk stops at :data:`MAX_DEPTH`).

    Returns
    -------
    set of str
        The included paths, without their ``:section`` or ``:line`` suffixes; a missing
        file is listed too (the build then reports it).

    Examples
    --------
    >>> files = {"docs/partials/p.md": '--8<-- "snippets/b.py:show"\\n'}
    >>> page = 'Text.\\n\\n--8<-- "snippets/a.py:3:5"\\n\\n--8<-- "docs/partials/p.md"\\n'
    >>> sorted(included_files(page, files.get))
    ['docs/partials/p.md', 'snippets/a.py', 'snippets/b.py']
    """
    found: set[str] = set()
    for line in text.split("\n"):
        match = INCLUDE.match(line)
        if not match:
            continue
        path = match["target"].partition(":")[0]
        found.add(path)
        if path.endswith(".md") and depth < MAX_DEPTH:
            inner = read(path)
            if inner is not None:
                found |= included_files(inner, read, depth + 1)
    return found


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def stale_pages(
    pages: Mapping[str, tuple[Path, Path]], root: Path, every_page: Iterable[Path] = ()
) -> list[str]:
    """The pages whose built HTML is older than something they are built from.

    A page's inputs are its Markdown, the files it includes (:func:`included_files`,
    paths from ``root``) and ``every_page``. A page not built yet is stale.

    Parameters
    ----------
    pages : mapping of str to (Path, Path)
        For each page (any key, such as its ``src_uri``): its Markdown and its built HTML.
    root : Path
        The folder that include paths are relative to.
    every_page : iterable of Path
        Files that every page depends on; a missing one is ignored.

    Returns
    -------
    list of str
        The keys of the stale pages, in the order of ``pages``.
    """
    shared = [t for t in map(_mtime, every_page) if t is not None]
    newest_shared = max(shared, default=float("-inf"))

    def read(path: str) -> str | None:
        file = root / path
        return file.read_text(encoding="utf-8") if file.is_file() else None

    stale = []
    for key, (source, built) in pages.items():
        built_at = _mtime(built)
        if built_at is None:
            stale.append(key)
            continue
        inputs = [source, *(root / p for p in included_files(source.read_text("utf-8"), read))]
        newest = max((t for t in map(_mtime, inputs) if t is not None), default=float("-inf"))
        if max(newest, newest_shared) > built_at:
            stale.append(key)
    return stale


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


def mark_stale(built: Iterable[Path]) -> None:
    """Date each ``built`` file to the epoch, so that a dirty build renders its page again."""
    for path in built:
        os.utime(path, (0, 0))


def reuse_while_unchanged(name: str, inputs: Iterable[Path], make: Callable[[], T]) -> T:
    """``make()``, or what it returned last time in this process if ``inputs`` are unchanged.

    ``mkdocs serve`` runs every build in one process, so a result kept here lasts until
    an input file's size or modification time changes, or a source of ``attention_ref``
    or ``site_build`` (the code that makes it) does.

    Parameters
    ----------
    name : str
        What is made; one result is kept per name.
    inputs : iterable of Path
        Every file or folder that ``make`` reads.
    make : callable
        Makes the result from the inputs.

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
    >>> _ = (folder / "a.txt").write_text("22")
    >>> reuse_while_unchanged("doc-example", [folder], read)
    '22'
    """
    signature = (files_signature(inputs), sources_signature(LIVE_PACKAGES))
    kept = _made.get(name)
    if kept is not None and kept[0] == signature:
        return kept[1]  # type: ignore[no-any-return]
    result = make()
    _made[name] = (signature, result)
    return result


def _visible(name: str) -> bool:
    """Whether a theme file's name has no hidden part (MkDocs skips ``.*`` and ``*/.*``)."""
    return not any(part.startswith(".") for part in name.split("/"))


class ListedOnceLoader(jinja2.FileSystemLoader):
    """A template loader whose listing is made once per process while its folders are unchanged.

    Only :meth:`list_templates` differs from :class:`jinja2.FileSystemLoader`: it leaves
    out names with a hidden part, and reuses the previous listing while the size and
    time of every file under ``watched`` (the folders that may change: the site's theme
    overrides) are unchanged. Templates themselves load as before.
    """

    def __init__(self, searchpath: Sequence[str], watched: Sequence[Path]) -> None:
        super().__init__(list(searchpath))
        self.watched = list(watched)

    def list_templates(self) -> list[str]:
        key = "theme files:" + "|".join(map(str, self.searchpath))
        return list(
            reuse_while_unchanged(
                key,
                self.watched,
                lambda: [n for n in super(ListedOnceLoader, self).list_templates() if _visible(n)],
            )
        )


def list_theme_files_once(theme: Any) -> None:
    """Make ``theme`` (MkDocs' :class:`~mkdocs.theme.Theme`) give environments a
    :class:`ListedOnceLoader` over its folders, the custom folder watched."""
    original = type(theme).get_env

    def get_env() -> jinja2.Environment:
        env: jinja2.Environment = original(theme)
        watched = [Path(theme.custom_dir)] if theme.custom_dir else []
        env.loader = ListedOnceLoader(theme.dirs, watched)
        return env

    theme.get_env = get_env


def settle_after(server: LiveReloadServer, seconds: float) -> None:
    """Make ``server`` wait ``seconds`` without a change before it rebuilds (MkDocs: 0.1 s).

    Raises
    ------
    ValueError
        If ``seconds`` is negative.
    """
    if not seconds >= 0:
        raise ValueError(f"the settling time must be zero or more, got {seconds!r}")
    server.build_delay = seconds
