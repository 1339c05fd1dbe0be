"""Generated files into MkDocs' list of files, and fresh imports under ``mkdocs serve``."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

# The packages whose edits must reach the generated files while `mkdocs serve` runs.
LIVE_PACKAGES = ("attention_ref", "site_build")


#: Generated files by site path: each one's content, or the ``Path`` of a file to copy.
Made = Mapping[str, str | bytes | Path]


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

    ``mkdocs serve`` keeps one interpreter: without this, an edit to ``attention_ref``
    would not reach the figures until a restart. Each loaded module of ``packages`` is
    stamped with the :func:`sources_signature` it was seen with (one loaded by a plain
    ``import`` since carries none and is kept); when a stamp is outdated, all of them are
    dropped, and the bytecode of each changed source removed.

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
