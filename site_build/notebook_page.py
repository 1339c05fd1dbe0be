"""Slim a notebook page as mkdocs-jupyter writes it, without changing how it looks.

nbconvert's template inlines all of JupyterLab's CSS (about 570 KB, with a thousand custom
properties that every element of the notebook inherits), a MathJax configuration that
nothing loads (the site typesets math at build time), and a mermaid loader that fetches
mermaid from a CDN. :func:`slim` prunes the JupyterLab stylesheets to what the page's own
markup can use (:func:`site_build.css_prune.prune`, marked ``data-pruned``: a browser test
puts the originals back and compares), drops the MathJax configuration, and drops the
mermaid loader and styles when the page has no mermaid diagram (with one, they stay, and
the CDN request would show in the tests). :func:`extract_images` moves the output images
(inlined as base64) into files of their own, loaded lazily, with their size in the tag so
that nothing moves when they arrive.
"""

from __future__ import annotations

import base64
import hashlib
import html as html_lib
import json
import re
from pathlib import Path

from site_build import css_prune
from site_build.cache import ContentCache, content_key
from site_build.css_prune import prune

_STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S)
_SCRIPT = re.compile(r"<script([^>]*)>(.*?)</script>\s*", re.S)
#: The JupyterLab stylesheet declares its variables on this wrapper class.
JUPYTER_CSS_MARK = ".jupyter-wrapper{"
MERMAID_MARKUP = ("jp-Mermaid", "language-mermaid", 'class="mermaid')
#: The code whose output :func:`slim_page` caches: a change to it is a cache miss.
_SLIM_CODE = (Path(__file__), Path(css_prune.__file__))


def slim(html: str) -> str:
    """The notebook page ``html`` with the styles and scripts it does not use removed.

    Examples
    --------
    >>> page = ('<style>.jupyter-wrapper{--a:1px;--b:2px}.jp-X{margin:var(--a)}'
    ...         '.jp-Unused{margin:var(--b)}</style>'
    ...         '<script type="text/x-mathjax-config">init_mathjax()</script>'
    ...         '<style>.jp-Mermaid{display:none}</style>'
    ...         '<script type="module">import mermaid from "https://cdn/m.js"</script>'
    ...         '<div class="jupyter-wrapper"><div class="jp-X">x</div></div>')
    >>> print(slim(page).replace("><", ">\\n<"))
    <style data-pruned>.jupyter-wrapper{--a:1px}.jp-X{margin:var(--a)}</style>
    <div class="jupyter-wrapper">
    <div class="jp-X">x</div>
    </div>
    >>> slim('<div class="jp-Mermaid">a</div><script>mermaid</script>').endswith("</script>")
    True
    """
    markup = _SCRIPT.sub("", _STYLE.sub("", html))
    mermaid = any(mark in markup for mark in MERMAID_MARKUP)

    def script(m: re.Match[str]) -> str:
        attrs, body = m.group(1), m.group(2)
        if "text/x-mathjax-config" in attrs:
            return ""
        if not mermaid and "mermaid" in body:
            return ""
        return m.group(0)

    def style(m: re.Match[str]) -> str:
        css = m.group(1)
        if JUPYTER_CSS_MARK in css:
            return f"<style data-pruned>{prune(css, markup)}</style>"
        if not mermaid and ".jp-Mermaid" in css:
            return ""
        return m.group(0)

    return _STYLE.sub(style, _SCRIPT.sub(script, html))


_DATA_IMG = re.compile(
    r'<img\b([^>]*?)\ssrc="data:image/(png|svg\+xml);base64,([A-Za-z0-9+/=\s]+)"([^>]*)>'
)
_SVG_TAG = re.compile(rb"<svg\b[^>]*>")
_SVG_LENGTH = re.compile(rb'\s(width|height)="\s*([\d.]+)\s*(px|pt|in|cm|mm)?\s*"')
_SVG_VIEWBOX = re.compile(rb'viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"')
_PX_PER = {b"px": 1.0, b"pt": 4 / 3, b"in": 96.0, b"cm": 96 / 2.54, b"mm": 96 / 25.4}


def image_size(data: bytes, kind: str) -> tuple[float, float] | None:
    """Width and height of a PNG (from its header) or an SVG (its root element's width and
    height, which matplotlib writes in pt, else its viewBox), in CSS px.

    Examples
    --------
    >>> image_size(b'<svg width="330pt" height="189.75pt" viewBox="0 0 330 189.75">', "svg+xml")
    (440.0, 253.0)
    >>> image_size(b'<svg viewBox="0 0 460.8 345.6" xmlns="...">', "svg+xml")
    (460.8, 345.6)
    >>> png = bytes.fromhex("89504e470d0a1a0a0000000d49484452") + (640).to_bytes(4, "big")
    >>> image_size(png + (480).to_bytes(4, "big"), "png")
    (640.0, 480.0)
    >>> image_size(b"not an image", "png") is None
    True
    """
    if kind == "png":
        if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
            return None
        return float(int.from_bytes(data[16:20], "big")), float(int.from_bytes(data[20:24], "big"))
    tag = _SVG_TAG.search(data[:4096])
    if not tag:
        return None
    lengths = {
        name: float(value) * _PX_PER[unit or b"px"]
        for name, value, unit in _SVG_LENGTH.findall(tag.group(0))
    }
    if b"width" in lengths and b"height" in lengths:
        return round(lengths[b"width"], 3), round(lengths[b"height"], 3)
    box = _SVG_VIEWBOX.search(tag.group(0))
    return (float(box.group(1)), float(box.group(2))) if box else None


def extract_images(html: str) -> tuple[str, dict[str, bytes]]:
    """Move base64 images into files: the page with file names, and the files' contents.

    Each image is named by a hash of its bytes, and gets ``loading="lazy"``,
    ``decoding="async"`` and, when they can be read, its width and height.

    Examples
    --------
    >>> svg = b'<svg viewBox="0 0 40 30"></svg>'
    >>> data = base64.b64encode(svg).decode()
    >>> out, files = extract_images(f'<img alt="a plot" src="data:image/svg+xml;base64,{data}">')
    >>> name = "img-" + hashlib.sha256(svg).hexdigest()[:16] + ".svg"
    >>> out == f'<img alt="a plot" src="{name}" width="40" height="30" loading="lazy" ' \\
    ...        'decoding="async">'
    True
    >>> files == {name: svg}
    True
    """
    files: dict[str, bytes] = {}

    def move(m: re.Match[str]) -> str:
        before, kind, payload, after = m.groups()
        data = base64.b64decode("".join(payload.split()))
        ext = "png" if kind == "png" else "svg"
        name = f"img-{hashlib.sha256(data).hexdigest()[:16]}.{ext}"
        files[name] = data
        attrs = f'{before} src="{html_lib.escape(name)}"'
        size = image_size(data, kind)
        if size and "width=" not in before + after:  # exact, so the image is not rescaled
            attrs += f' width="{size[0]:g}" height="{size[1]:g}"'
        if "loading=" not in before + after:
            attrs += ' loading="lazy" decoding="async"'
        return f"<img{attrs}{after}>"

    return _DATA_IMG.sub(move, html), files


def slim_page(html: str, cache_dir: Path) -> tuple[str, dict[str, bytes]]:
    """:func:`extract_images` of :func:`slim`, kept in the build's content-hash cache.

    Keyed by the page and the code that slims it (this module and
    :mod:`site_build.css_prune`): an unchanged notebook page costs one read.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> page = '<p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></p>'
    >>> first = slim_page(page, folder)
    >>> [p.suffix for p in sorted(folder.iterdir())]
    ['.html', '.json']
    >>> slim_page(page, folder) == first
    True
    """

    def make() -> dict[str, bytes]:
        slim_html, images = extract_images(slim(html))
        encoded = {name: base64.b64encode(data).decode() for name, data in images.items()}
        return {".html": slim_html.encode(), ".images.json": json.dumps(encoded).encode()}

    key = content_key(files=_SLIM_CODE, data=[html.encode()])
    found = ContentCache(cache_dir).get("notebook-page", key, [".html", ".images.json"], make)
    images = json.loads(found[".images.json"])
    return found[".html"].decode(), {name: base64.b64decode(b) for name, b in images.items()}
