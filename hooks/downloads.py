"""MkDocs hook: ``attention_ref``'s wheel under ``downloads/``, and notebooks that install it.

Thin wiring only; the logic lives in ``site_build/downloads.py`` (tested in
``tests/test_dist.py`` and ``tests/test_standalone_downloads.py``).

* The wheel (built as ``make dist`` builds it, cached by a hash of its inputs) enters
  the site as ``downloads/<wheel>`` (no listing page: every HTML file of the site is
  tested as a Material page).
* A notebook source ``notebooks/<name>.py`` that holds the marker
  ``@ATTENTION_REF_WHEEL@`` is replaced, for this build, by a copy in
  ``.cache/notebook-sources/<hash>/`` with the wheel's address written in (from
  ``site_url``); nothing is written into ``docs/``. The page, which mkdocs-jupyter
  renders from that copy, and the ``.ipynb`` download, which ``hooks/notebook.py``
  makes from it, both show the real address; the edit link still points at the
  source in ``docs/``.

Runs before the notebook hook and mkdocs-jupyter (both read the notebook file) and
before mkdocs-htmlproofer-plugin's ``on_files``.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from site_build.mkdocs_files import fresh_import, put_generated

ROOT = Path(__file__).resolve().parent.parent
WHEEL_CACHE = ROOT / ".cache" / "wheel"
NOTEBOOK_COPIES = ROOT / ".cache" / "notebook-sources"
NOTEBOOK_DIR = "notebooks"


@event_priority(110)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    downloads = fresh_import("site_build.downloads")  # edits show under `mkdocs serve`
    wheel = downloads.build_wheel(ROOT, WHEEL_CACHE)
    put_generated(files, config, f"{downloads.DOWNLOADS_DIR}/{wheel.name}", abs_src_path=str(wheel))
    url = downloads.wheel_url(config.site_url or "", wheel.name)
    for file in list(files):
        src = PurePosixPath(file.src_uri)
        if src.parent.as_posix() != NOTEBOOK_DIR or src.suffix != ".py" or not file.abs_src_path:
            continue
        folder = downloads.filled_notebook_copy(Path(file.abs_src_path), src, url, NOTEBOOK_COPIES)
        if folder is None:
            continue
        # A source file whose folder is the copies' (not File.generated: mkdocs-jupyter
        # re-derives the path to read from src_dir). Its edit link stays docs/<src_uri>.
        files.remove(file)
        files.append(
            File(
                file.src_uri,
                src_dir=str(folder),
                dest_dir=config.site_dir,
                use_directory_urls=config.use_directory_urls,
            )
        )
    return files
