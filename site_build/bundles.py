"""What esbuild (from the npm lock file) makes: the site's own stylesheets as one minified
file (one request that blocks rendering, not one per file of ``docs/stylesheets/``), and the
practice editor's bundle (CodeMirror 6, from ``site_build/editor_entry.js``), cached by the
entry's bytes, ``package-lock.json`` and esbuild's options.

Examples
--------
>>> editor_key(b"export {}", b'{"lockfileVersion": 3}')[:12]
'fa379c43a7b0'
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

from mkdocs.exceptions import PluginError

from site_build import heat_scale
from site_build.cache import ContentCache, content_key
from site_build.site import WIDGETS

ROOT = Path(__file__).resolve().parent.parent
#: The stylesheets of ``docs/`` every page loads, in cascade order: the site's own, each
#: widget's (in the order of the site model), then the rules that may override a widget's.
SOURCES = (
    "stylesheets/extra.css",
    "stylesheets/theme-fixes.css",
    "stylesheets/widget.css",
    *(f"stylesheets/{name}" for widget in WIDGETS.values() for name in widget.stylesheets),
    "stylesheets/output-source.css",
)
#: Where the bundle goes in the site (``mkdocs.yml`` names it in ``extra_css``).
BUNDLE = "stylesheets/site.min.css"
#: esbuild options of the editor: one minified ES module for current browsers.
EDITOR_ARGS = ("--bundle", "--format=esm", "--minify", "--target=es2020", "--log-level=error")


class EsbuildError(PluginError):
    """esbuild is missing or failed (it names the file and line); MkDocs shows the message."""


def esbuild(root: Path, args: Sequence[str], what: str, stdin: str | None = None) -> str:
    """esbuild's output for ``args`` and ``stdin``, run in ``root``, on ``what`` (for errors)."""
    program = root / "node_modules" / ".bin" / "esbuild"
    if not program.exists():
        raise EsbuildError(f"esbuild not found at {program.relative_to(root)}: run `make install`")
    done = subprocess.run(
        [str(program), *args], cwd=root, input=stdin, capture_output=True, text=True, check=False
    )
    if done.returncode != 0 or not done.stdout:
        raise EsbuildError(f"esbuild failed on {what} (exit {done.returncode}):\n{done.stderr}")
    return done.stdout


def sources(docs: Path) -> list[tuple[str, str]]:
    """``(name, css)`` of every part of the bundle: the heat scale's custom properties that
    the widgets read (:mod:`site_build.heat_scale`), then :data:`SOURCES` from ``docs``.

    Examples
    --------
    >>> parts = sources(ROOT / "docs")
    >>> [name for name, _ in parts[:2]], "--heat-one: 24%;" in parts[0][1]
    (['site_build/heat_scale.py', 'stylesheets/extra.css'], True)
    """
    files = [(name, (docs / name).read_text(encoding="utf-8")) for name in SOURCES]
    return [("site_build/heat_scale.py", heat_scale.css()), *files]


def bundle(sources: Sequence[tuple[str, str]]) -> str:
    """One minified stylesheet from ``(name, css)`` pairs, in order.

    Examples
    --------
    >>> bundle([("a.css", "p {\\n  color: red;\\n}\\n"), ("b.css", "/* note */ em { margin: 0 }")])
    'p{color:red}em{margin:0}\\n'
    """
    text = "".join(f"/* {name} */\n{css}\n" for name, css in sources)
    return esbuild(ROOT, ["--minify", "--loader=css", "--log-level=error"], "the site's CSS", text)


def editor_key(entry: bytes, lock: bytes, args: tuple[str, ...] = EDITOR_ARGS) -> str:
    """SHA-256 of the entry source, the npm lock file and the esbuild options."""
    return content_key(meta=list(args), data=[entry, lock])


def editor_bundle(entry: Path, root: Path, cache_dir: Path) -> str:
    """The minified bundle of the ES module ``entry`` (``root`` holds the lock file and
    esbuild), from ``cache_dir`` when it is fresh.

    Raises ``FileNotFoundError`` if the entry is missing, :class:`EsbuildError` if esbuild
    is missing or fails.
    """
    if not entry.is_file():
        raise FileNotFoundError(f"editor bundle entry not found: {entry}")
    lock = root / "package-lock.json"

    def make() -> dict[str, bytes]:
        return {".js": esbuild(root, [str(entry), *EDITOR_ARGS], entry.name).encode("utf-8")}

    key = editor_key(entry.read_bytes(), lock.read_bytes() if lock.is_file() else b"")
    return ContentCache(cache_dir).get("editor", key, [".js"], make)[".js"].decode("utf-8")
