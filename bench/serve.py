"""A small threaded static server on 127.0.0.1 (no gzip: sizes are uncompressed)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".svg": "image/svg+xml",
        ".woff2": "font/woff2",
    }

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on a free port of 127.0.0.1; yield the base URL ending in '/'."""
    handler = functools.partial(_Handler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def built_pages(site: Path) -> list[str]:
    """Every page of a built site as a URL path ('' for the home page).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     for p in ("index.html", "attention/index.html", "search/index.html", "404.html"):
    ...         (Path(d) / p).parent.mkdir(parents=True, exist_ok=True)
    ...         _ = (Path(d) / p).write_text("x")
    ...     built_pages(Path(d))
    ['', 'attention/']
    """
    pages = []
    for html in sorted(site.rglob("index.html")):
        rel = html.relative_to(site).parent.as_posix()
        if rel.startswith(("vendor", "assets", "search")):
            continue
        pages.append("" if rel == "." else rel + "/")
    return sorted(pages)
