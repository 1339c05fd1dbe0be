"""A small threaded static server on 127.0.0.1 that compresses like GitHub Pages.

GitHub Pages sends text types (HTML, CSS, JavaScript, JSON, SVG, XML, plain text) gzipped
to any client that accepts it, and everything else (fonts, images, WebAssembly, zip
files) as stored. This server does the same, so that the bytes and timings measured here
are the ones readers get. ``serve(..., gzip=False)`` serves everything as stored.
"""

from __future__ import annotations

import contextlib
import functools
import gzip as _gzip
import http.server
import io
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

#: Media types sent compressed (GitHub Pages compresses these; fonts and wasm it does not).
COMPRESSED_TYPES = frozenset(
    {
        "text/html",
        "text/css",
        "text/javascript",
        "text/plain",
        "text/xml",
        "application/json",
        "application/xml",
        "image/svg+xml",
    }
)
GZIP_LEVEL = 6


def accepts_gzip(header: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header value admits gzip.

    Examples
    --------
    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("br"), accepts_gzip(None)
    (True, False, False)
    >>> accepts_gzip("gzip;q=0")
    False
    """
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip()
            return not (q.startswith("q=") and float(q[2:] or 0) == 0)
    return False


@functools.lru_cache(maxsize=512)
def _compressed(path: str, mtime_ns: int, size: int) -> bytes:
    """The gzip body of one file; ``mtime_ns`` and ``size`` key the cache."""
    with open(path, "rb") as f:
        return _gzip.compress(f.read(), compresslevel=GZIP_LEVEL, mtime=0)


class _Handler(http.server.SimpleHTTPRequestHandler):
    # The base class declares an instance attribute; each handler only reads it.
    extensions_map: dict[str, str] = {  # noqa: RUF012
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".svg": "image/svg+xml",
        ".woff2": "font/woff2",
    }
    compress: ClassVar[bool] = True
    protocol_version = "HTTP/1.1"  # keep-alive, as a real host

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_head(self):  # type: ignore[no-untyped-def]
        """Serve text types gzipped when the client accepts it; defer to the base otherwise."""
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            index = os.path.join(path, "index.html")
            if not self.path.split("?", 1)[0].endswith("/") or not os.path.isfile(index):
                return super().send_head()
            path = index
        ctype = self.guess_type(path).split(";")[0]
        if (
            not self.compress
            or ctype not in COMPRESSED_TYPES
            or not accepts_gzip(self.headers.get("Accept-Encoding"))
            or not os.path.isfile(path)
        ):
            return super().send_head()
        stat = os.stat(path)
        body = _compressed(path, stat.st_mtime_ns, stat.st_size)
        self.send_response(200)
        self.send_header(
            "Content-Type", ctype + ("; charset=utf-8" if ctype.startswith("text/") else "")
        )
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return io.BytesIO(body)


@contextlib.contextmanager
def serve(directory: Path, *, gzip: bool = True) -> Iterator[str]:
    """Serve ``directory`` on a free port of 127.0.0.1; yield the base URL ending in '/'.

    With ``gzip`` (the default) text types go out compressed, as GitHub Pages sends them.
    """
    handler_class = type("Handler", (_Handler,), {"compress": gzip})
    handler = functools.partial(handler_class, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
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


def local_sitemap(site_dir: Path, base_url: str) -> str:
    """``sitemap.xml`` of a built site with the deployed base URL replaced by ``base_url``.

    Material's instant navigation only intercepts links that sitemap.xml lists, matched
    against the deployed site_url; served from 127.0.0.1:PORT every click would fall back
    to a full page load. With the local base in the sitemap (served in place of the
    file, e.g. by a Playwright route) the local site navigates as the deployed one does.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "sitemap.xml").write_text(
    ...         "<loc>https://x.io/a/</loc><loc>https://x.io/a/b/</loc>")
    ...     local_sitemap(Path(d), "http://127.0.0.1:9/")
    '<loc>http://127.0.0.1:9/</loc><loc>http://127.0.0.1:9/b/</loc>'
    """
    xml = (site_dir / "sitemap.xml").read_text(encoding="utf-8")
    locs = re.findall(r"<loc>([^<]+)</loc>", xml)
    return xml.replace(min(locs, key=len), base_url) if locs else xml
