"""What every hook of this site does with MkDocs: add generated files, re-import sources.

Two small pieces the hooks in ``hooks/`` share, so each hook stays a few lines of wiring.
"""

from __future__ import annotations

import importlib
import sys
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
    else:
        files.append(File.generated(config, path, abs_src_path=abs_src_path))


def fresh_import(module: str) -> ModuleType:
    """Import ``module`` anew, together with ``attention_ref`` and ``site_build``.

    ``mkdocs serve`` keeps one interpreter for every rebuild; without a fresh import an
    edit to ``attention_ref`` would not reach figures or widget data until a restart.

    Examples
    --------
    >>> fresh_import("site_build.vendor").__name__
    'site_build.vendor'
    """
    for name in [m for m in sys.modules if m.split(".")[0] in LIVE_PACKAGES]:
        del sys.modules[name]
    return importlib.import_module(module)
