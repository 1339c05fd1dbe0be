"""The site's own stylesheets as one minified file: one request that blocks rendering, not
one per file of ``docs/stylesheets/``. esbuild (from the npm lock file) minifies them."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

from mkdocs.exceptions import PluginError

from site_build import heat_scale
from site_build.site import WIDGETS

ROOT = Path(__file__).resolve().parent.parent
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
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


class StylesheetError(PluginError):
    """esbuild is missing or rejected the CSS (its message names the file and line); MkDocs
    shows the message alone."""


def bundle(sources: Sequence[tuple[str, str]], esbuild: Path = ESBUILD) -> str:
    """One minified stylesheet from ``(name, css)`` pairs, in order.

    Examples
    --------
    >>> bundle([("a.css", "p {\\n  color: red;\\n}\\n"), ("b.css", "/* note */ em { margin: 0 }")])
    'p{color:red}em{margin:0}\\n'
    """
    if not esbuild.exists():
        raise StylesheetError(f"esbuild not found at {esbuild.name}: run `make install`")
    text = "".join(f"/* {name} */\n{css}\n" for name, css in sources)
    done = subprocess.run(
        [str(esbuild), "--minify", "--loader=css", "--log-level=error"],
        input=text,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise StylesheetError(f"esbuild rejected the site's CSS:\n{done.stderr.strip()}")
    return done.stdout
