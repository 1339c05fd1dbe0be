"""What a page costs on first load: bytes and requests, as Chromium saw them.

Shared by the benchmark (``bench.site``) and the budget test (``tests/browser/test_pages.py``)
so that both count the same way:

- **bytes** = the sum of the response bodies as the page uses them, decoded (after gzip),
  without headers;
- **transfer** = what crossed the wire: each response's encoded body plus its headers
  (Playwright's ``request.sizes()``, Chromium's own count). The bench server compresses
  text types as GitHub Pages does (``testbed/serve.py``), so this is what a reader downloads;
- **requests** = every finished http(s) request of the page and its workers,
  the document included (``data:`` and ``blob:`` URLs are not requests on the wire).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from site_build.vendor import PYODIDE_DEST

#: URL fragments of the heavy things that must load only when needed.
LAZY_MARKERS = {
    "pyodide": PYODIDE_DEST + "/",
    "editor": "editor.bundle",
    "practice runner": "javascripts/practice/",
    "model data": "it_attention",
}


class RequestLog:
    """Attach to a Playwright page before ``goto``; read :meth:`totals` once it has settled."""

    def __init__(self) -> None:
        self.finished: list[Any] = []
        self.failed: list[str] = []

    def attach(self, page: Any) -> RequestLog:
        """Listen on the page's browser context, which also sees its workers' requests."""
        page.context.on("requestfinished", lambda r: self.finished.append(r))
        page.context.on("requestfailed", lambda r: self.failed.append(r.url))
        return self

    def entries(self) -> list[dict[str, Any]]:
        """One dict per finished http(s) request: url, type, bytes, transfer, status."""
        rows = []
        for request in self.finished:
            if urlsplit(request.url).scheme not in ("http", "https"):
                continue
            response = request.response()
            sizes = request.sizes()
            encoded = int(sizes["responseBodySize"])
            rows.append(
                {
                    "url": request.url,
                    "type": request.resource_type,
                    "bytes": _decoded_size(response, encoded),
                    "transfer": encoded + max(0, int(sizes["responseHeadersSize"])),
                    "status": response.status if response is not None else None,
                }
            )
        return rows

    def totals(self) -> dict[str, Any]:
        return totals(self.entries())


def _decoded_size(response: Any, encoded: int) -> int:
    """The body's size after decoding; the encoded size when it was not compressed."""
    if response is None:
        return encoded
    if not response.headers.get("content-encoding"):
        return encoded
    try:
        return len(response.body())
    except Exception:  # a body Chromium no longer holds (e.g. a worker's): count as sent
        return encoded


def totals(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Sum bytes, transfer and requests, by resource type too, and flag heavy lazy assets.

    Examples
    --------
    >>> t = totals([{"url": "http://127.0.0.1:1/a.js", "type": "script", "bytes": 10,
    ...              "transfer": 4},
    ...             {"url": "http://127.0.0.1:1/", "type": "document", "bytes": 5,
    ...              "transfer": 3}])
    >>> t["bytes"], t["transfer"], t["by_type"]["script"]
    (15, 7, {'bytes': 10, 'transfer': 4, 'requests': 1})
    """
    by_type: dict[str, dict[str, int]] = {}
    for e in entries:
        slot = by_type.setdefault(e["type"], {"bytes": 0, "transfer": 0, "requests": 0})
        slot["bytes"] += e["bytes"]
        slot["transfer"] += e.get("transfer", e["bytes"])
        slot["requests"] += 1
    lazy = sorted(
        name for name, marker in LAZY_MARKERS.items() if any(marker in e["url"] for e in entries)
    )
    return {
        "bytes": sum(e["bytes"] for e in entries),
        "transfer": sum(e.get("transfer", e["bytes"]) for e in entries),
        "requests": len(entries),
        "by_type": dict(sorted(by_type.items())),
        "third_party": sorted(
            e["url"] for e in entries if urlsplit(e["url"]).hostname not in ("127.0.0.1",)
        ),
        "lazy_assets_loaded": lazy,
    }
