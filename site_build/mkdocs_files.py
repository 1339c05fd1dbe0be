"""What every hook of this site does with MkDocs: add generated files, re-import sources.

Small pieces the hooks in ``hooks/`` share, so each hook stays a few lines of wiring.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

# The packages whose edits must reach the generated files while `mkdocs serve` runs.
LIVE_PACKAGES = ("attention_ref", "site_build")


def put_generated(
    files: Files,
    config: MkDocsConfig,
    path: str,
    *,
    content: str | bytes | None = None,
    abs_src_path: str | None = None,
) -> None:
    """Add a generated file to the build at ``path``, replacing any file already there.

    Give either the file's ``content`` or the ``abs_src_path`` it is copied from.
    Nothing is written into ``docs/``: MkDocs writes the file straight into the site.
    """
    if (content is None) == (abs_src_path is None):
        raise ValueError(f"{path}: give exactly one of content or abs_src_path")
    existing = files.get_file_from_path(path)
    if existing is not None:
        files.remove(existing)
    if content is not None:
        files.append(File.generated(config, path, content=content))
    elif abs_src_path is not None:
        files.append(File.generated(config, path, abs_src_path=abs_src_path))


def files_signature(inputs: Iterable[Path], pattern: str = "*") -> tuple[tuple[str, int, int], ...]:
    """``(path, mtime_ns, size)`` of every file of ``inputs`` matching ``pattern``, in order.

    A folder is walked (its files matching ``pattern``, sorted); a file is taken as it is,
    and a missing one appears as ``(path, -1, -1)``, so that its coming is a change. Two
    equal signatures mean that nothing changed in between, as far as an editor's save
    shows (it changes the time). Reading it costs a ``stat`` a file.

    Examples
    --------
    >>> files_signature([Path("no/such/file")])
    (('no/such/file', -1, -1),)
    """
    entries = []
    for item in inputs:
        for path in sorted(item.rglob(pattern)) if item.is_dir() else [item]:
            try:
                stat = path.stat()
            except OSError:
                entries.append((str(path), -1, -1))
                continue
            if not path.is_dir():
                entries.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(entries)


def sources_signature(packages: Iterable[str] = LIVE_PACKAGES) -> tuple[tuple[str, int, int], ...]:
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

    ``mkdocs serve`` keeps one interpreter for every rebuild; without a fresh import an
    edit to ``attention_ref`` would not reach figures or widget data until a restart.
    A rebuild after an edit elsewhere (a page's prose) keeps the modules it has.

    Every module of ``packages`` in ``sys.modules`` is stamped with the
    :func:`sources_signature` it was seen with. When a stamp differs from the sources'
    signature now, all those modules are dropped and imported again. A module that a
    plain ``import`` loaded since the last call carries no stamp; it was loaded from the
    sources as they are, so it is kept (and stamped). Importing a second module does not
    drop the first.

    Parameters
    ----------
    module : str
        The module wanted, e.g. ``"site_build.figures"``.
    packages : iterable of str
        The packages (default ``attention_ref`` and ``site_build``) whose modules are all
        dropped from ``sys.modules`` when one of their sources changed.

    Returns
    -------
    ModuleType
        The module, imported anew or as it was.

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
    if stamps - {None, signature}:  # loaded from sources that have changed since
        for name in [n for n in sys.modules if n.split(".")[0] in roots]:
            del sys.modules[name]
    wanted = importlib.import_module(module)
    for loaded in live():
        loaded.__live_sources__ = signature  # type: ignore[attr-defined]
    return wanted


def put_built(
    files: Files,
    config: MkDocsConfig,
    module: str,
    build: Callable[[ModuleType], Mapping[str, str | bytes | Path]],
    log: logging.Logger,
) -> Files:
    """Add what ``build`` makes from ``module`` (imported by :func:`fresh_import`) to the build.

    ``build`` returns site paths mapped to a file's content, or to the ``Path`` of a
    file to copy (:func:`put_generated`). One log line says how many files and how long.

    Examples
    --------
    >>> from mkdocs.structure.files import Files
    >>> files = put_built(Files([]), None, "site_build.vendor", lambda m: {}, logging.getLogger())
    >>> len(files)
    0
    """
    start = time.perf_counter()
    made = build(fresh_import(module))
    for path, made_file in made.items():
        if isinstance(made_file, Path):
            put_generated(files, config, path, abs_src_path=str(made_file))
        else:
            put_generated(files, config, path, content=made_file)
    name = module.rsplit(".", 1)[-1]
    log.info("%s: %d files ready in %.2f s", name, len(made), time.perf_counter() - start)
    return files
