"""MkDocs hook: the site's own stylesheets go out as one minified file.

Thin wiring over ``site_build/stylesheets.py``: ``on_files`` bundles the files of
``SOURCES`` (after the heat scale the build writes, ``site_build/heat_scale.py``) into
``BUNDLE`` (which ``mkdocs.yml`` loads) and leaves the separate files out of the site.
Under ``mkdocs serve`` an edit to any of them rebuilds the bundle.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files

from site_build.fast_rebuild import reuse_while_unchanged
from site_build.mkdocs_files import put_generated
from site_build.stylesheets import BUNDLE, SOURCES, StylesheetError, bundle, sources


def on_files(files: Files, config: MkDocsConfig) -> Files:
    docs = Path(config.docs_dir)
    try:
        css = reuse_while_unchanged(
            "stylesheets", [docs / name for name in SOURCES], lambda: bundle(sources(docs))
        )
    except StylesheetError as error:
        raise PluginError(str(error)) from None
    for name in SOURCES:
        source = files.get_file_from_path(name)
        if source is not None:
            files.remove(source)
    put_generated(files, config, BUNDLE, content=css)
    return files
