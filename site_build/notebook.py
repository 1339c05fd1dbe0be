"""The notebook page and its download: the ``.ipynb`` (:func:`to_ipynb`), mkdocs-jupyter's
cache keyed by what the notebook imports, stable cell ids, and the page without the styles
and scripts it does not use (nbconvert inlines about 570 KB of JupyterLab CSS: :func:`prune`
keeps what the markup can use) and with its base64 images in files (:func:`slim_page`).
"""

from __future__ import annotations

import base64
import hashlib
import html as html_lib
import itertools
import json
import os
import platform
import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import jupytext  # type: ignore[import-untyped]
import tinycss2

from site_build.cache import ContentCache, content_key

#: The JupyterLab stylesheet declares its variables on this wrapper class.
JUPYTER_CSS_MARK = ".jupyter-wrapper{"

_CELL_ID = re.compile(r'id="cell-id=[^"]*"')
_CODE_SCROLLER = re.compile(r'<div class="highlight-ipynb( [^"]*)?"(?! tabindex)')
_STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S)
_SCRIPT = re.compile(r"<script([^>]*)>(.*?)</script>\s*", re.S)
_DATA_IMG = re.compile(
    r'<img\b([^>]*?)\ssrc="data:image/(png|svg\+xml);base64,([A-Za-z0-9+/=\s]+)"([^>]*)>'
)
_SVG_TAG = re.compile(rb"<svg\b[^>]*>")
_SVG_LENGTH = re.compile(rb'\s(width|height)="\s*([\d.]+)\s*(px|pt|in|cm|mm)?\s*"')
_SVG_VIEWBOX = re.compile(rb'viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"')
_PX_PER = {b"px": 1.0, b"pt": 4 / 3, b"in": 96.0, b"cm": 96 / 2.54, b"mm": 96 / 25.4}


def to_ipynb(source: str) -> str:
    """A jupytext percent notebook as ``.ipynb`` text: no outputs, cell ids ``cell-0``,
    ``cell-1``..., no jupytext metadata (the same bytes at every build); ``ValueError`` if
    ``source`` holds no cell."""
    nb = jupytext.reads(source, fmt="py:percent")
    if not nb.cells:
        raise ValueError("the notebook source holds no cell")
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"
    nb.metadata.pop("jupytext", None)
    return str(jupytext.writes(nb, fmt="ipynb"))


def key_jupyter_cache(config: Any, root: Path) -> None:
    """Move mkdocs-jupyter's ``cache_dir`` into an entry keyed by ``attention_ref``, the
    library versions and ``SOURCE_DATE_EPOCH`` (the plots' dates) (its own key, the
    notebook's bytes, would serve old outputs after an edit to ``attention_ref``). Called
    again, the folders do not nest."""
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None or not plugin.config["cache"]:
        return
    base = Path(plugin.config["cache_dir"])
    if re.fullmatch(r"notebook-[0-9a-f]+", base.name):  # the entry a call before set
        base = base.parent
    # Versions read from the installed metadata: importing matplotlib costs 0.2 s.
    versions = {
        "python": platform.python_version(),
        "numpy": version("numpy"),
        "matplotlib": version("matplotlib"),
        "epoch": os.environ.get("SOURCE_DATE_EPOCH", ""),
    }
    key = content_key(meta=versions, files=sorted((root / "attention_ref").glob("*.py")))
    plugin.config["cache_dir"] = str(ContentCache(base).folder_for("notebook", key))


def slim(html: str) -> str:
    """The notebook page with its ``cell-id`` attributes numbered in order, its code cells
    given ``tabindex="0"`` (a region that scrolls must be focusable: WCAG 2.1.1), JupyterLab's
    stylesheets pruned to what the markup can use (marked ``data-pruned``), without the MathJax
    configuration (math is typeset at build time), nor mermaid's loader and styles unless
    the page has a mermaid diagram.

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
    >>> slim('<div id="cell-id=3f2a"></div><div id="cell-id=9c1b"></div>')
    '<div id="cell-id=cell-0"></div><div id="cell-id=cell-1"></div>'
    >>> slim('<div class="highlight-ipynb hl-python"><pre>')
    '<div class="highlight-ipynb hl-python" tabindex="0"><pre>'
    """
    counter = itertools.count()
    html = _CELL_ID.sub(lambda _: f'id="cell-id=cell-{next(counter)}"', html)
    html = _CODE_SCROLLER.sub(lambda m: m.group(0) + ' tabindex="0"', html)
    markup = _SCRIPT.sub("", _STYLE.sub("", html))
    mermaid = any(mark in markup for mark in ("jp-Mermaid", "language-mermaid", 'class="mermaid'))

    def script(m: re.Match[str]) -> str:
        unused = "text/x-mathjax-config" in m.group(1) or (not mermaid and "mermaid" in m.group(2))
        return "" if unused else m.group(0)

    def style(m: re.Match[str]) -> str:
        css = m.group(1)
        if JUPYTER_CSS_MARK in css:
            return f"<style data-pruned>{prune(css, markup)}</style>"
        return "" if not mermaid and ".jp-Mermaid" in css else m.group(0)

    return _STYLE.sub(style, _SCRIPT.sub(script, html))


def image_size(data: bytes, kind: str) -> tuple[float, float] | None:
    """Width and height in CSS px of a PNG (its header) or an SVG (its root's width and
    height, which matplotlib writes in pt, else its viewBox).

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
    """Move base64 images into files named by a hash of their bytes, loaded lazily, with
    their width and height when they can be read: the page, and the files' contents.

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
    """:func:`extract_images` of :func:`slim`, cached by the page and the code that slims it."""

    def make() -> dict[str, bytes]:
        slim_html, images = extract_images(slim(html))
        encoded = {name: base64.b64encode(data).decode() for name, data in images.items()}
        return {".html": slim_html.encode(), ".images.json": json.dumps(encoded).encode()}

    key = content_key(files=[Path(__file__)], data=[html.encode()])
    found = ContentCache(cache_dir).get("notebook-page", key, [".html", ".images.json"], make)
    images = json.loads(found[".images.json"])
    return found[".html"].decode(), {name: base64.b64decode(b) for name, b in images.items()}


# --- Pruning CSS: keep a rule if one of its selectors can match the page's classes and ids,
# then only the custom properties the kept rules use; keep what cannot be judged (:is(),
# :where(), :has(), unknown at-rules); classes inside :not() are ignored.

_NAME_ATTR = re.compile(r"""\b(class|id)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_SEL_NAME = re.compile(r"[.#]-?[_a-zA-Z][\w-]*")  # a class or an id in a selector
_NOT = re.compile(r":not\((?:[^()]|\([^()]*\))*\)")
_VAR_USE = re.compile(r"var\(\s*(--[\w-]+)")
_NESTED = ("media", "supports", "layer")  # at-rules whose block holds rules


@dataclass
class Rule:
    """A style rule (``prelude`` is the selector list), or an at-rule (``@...``)."""

    prelude: str
    declarations: str | None = None  # style rules and at-rules holding declarations
    children: list[Rule] | None = None  # the rules of @media, @supports, @layer


def page_names(html: str) -> set[str]:
    """The classes and ids of ``html`` as selectors (``.name``, ``#name``).

    Examples
    --------
    >>> sorted(page_names('<div class="a b" id="x"><span class=\\'c\\'></span></div>'))
    ['#x', '.a', '.b', '.c']
    """
    names: set[str] = set()
    for m in _NAME_ATTR.finditer(html):
        value = m.group(2) or m.group(3) or ""
        if m.group(1).lower() == "class":
            names.update("." + name for name in value.split())
        elif value:
            names.add("#" + value)
    return names


def _declarations(text: str) -> list[tuple[str, str]]:
    nodes = tinycss2.parse_blocks_contents(text, skip_comments=True, skip_whitespace=True)
    return [
        (d.name, tinycss2.serialize(d.value).strip() + (" !important" if d.important else ""))
        for d in nodes
        if d.type == "declaration"
    ]


def can_match(selector: str, names: set[str]) -> bool:
    """Whether ``selector`` might match a page of these :func:`page_names`.

    Examples
    --------
    >>> can_match(".a .b > p#x", {".a", ".b", "#x"}), can_match(".a .zz", {".a"})
    (True, False)
    >>> can_match("div:not(.zz)", set()), can_match(":is(.zz) p", set())
    (True, True)
    """
    if re.search(r":(is|where|has|host|global)\(", selector):
        return True
    bare = _NOT.sub("", selector)
    bare = re.sub(r"\[[^\]]*\]", "", bare)  # attribute values may contain dots
    return all(name in names for name in _SEL_NAME.findall(bare))


def kept_rules(css: str | list[Any], names: set[str]) -> list[Rule]:
    """The rules of ``css`` (text, or an at-rule's block) that :func:`can_match` a page
    of these :func:`page_names`; at-rules but ``@charset`` are kept, those holding rules
    (:data:`_NESTED`) only with what they keep.

    Examples
    --------
    >>> css = ".a{x:1} .b,.a p{x:2} @charset 'utf-8'; @media print{.b{x:3}} @font-face{y:4}"
    >>> [(r.prelude, r.declarations) for r in kept_rules(css, {".a"})]
    [('.a', 'x:1'), ('.a p', 'x:2'), ('@font-face', 'y:4')]
    >>> kept_rules("@media print{.b{x:3}}", {".b"})[0].children
    [Rule(prelude='.b', declarations='x:3', children=None)]
    """
    kept = []
    for node in tinycss2.parse_rule_list(css, skip_comments=True, skip_whitespace=True):
        if node.type == "qualified-rule":
            parts = itertools.groupby(node.prelude, lambda token: token == ",")  # a comma token
            texts = (tinycss2.serialize(part).strip() for comma, part in parts if not comma)
            if selectors := [s for s in texts if s and can_match(s, names)]:
                kept.append(Rule(",".join(selectors), tinycss2.serialize(node.content).strip()))
        elif node.type == "at-rule" and node.lower_at_keyword != "charset":
            prelude = f"@{node.at_keyword} {tinycss2.serialize(node.prelude).strip()}".strip()
            if node.content is None:  # a statement such as @import
                kept.append(Rule(prelude))
            elif node.lower_at_keyword not in _NESTED:
                kept.append(Rule(prelude, tinycss2.serialize(node.content).strip()))
            elif children := kept_rules(node.content, names):
                kept.append(Rule(prelude, children=children))
    return kept


def used_properties(rules: list[Rule]) -> set[str]:
    """Custom properties the rules use, following ``var()`` through other definitions.

    Examples
    --------
    >>> css = ":root{--a:var(--b);--b:1px;--c:2px} p{margin:var(--a)}"
    >>> sorted(used_properties(kept_rules(css, set())))
    ['--a', '--b']
    """
    defs: dict[str, list[str]] = {}
    used: set[str] = set()
    stack = list(rules)
    while stack:
        rule = stack.pop()
        stack += rule.children or []
        for name, value in _declarations(rule.declarations or ""):
            if name.startswith("--"):
                defs.setdefault(name, []).append(value)
            else:
                used.update(_VAR_USE.findall(value))
    todo = list(used)
    while todo:
        new = {ref for value in defs.get(todo.pop(), []) for ref in _VAR_USE.findall(value)}
        todo += new - used
        used |= new
    return used


def serialize(rules: Iterable[Rule], used: set[str]) -> str:
    """CSS text of the rules, compact, with only the custom properties in ``used``.

    Examples
    --------
    >>> rules = kept_rules("a , b { --c: 1; color : red ; }  @page { x: 1 }", set())
    >>> serialize(rules, set())
    'a,b{color:red}@page{x: 1}'
    """
    parts = []
    for rule in rules:
        if rule.children is not None:
            parts.append(f"{rule.prelude}{{{serialize(rule.children, used)}}}")
        elif rule.declarations is None:
            parts.append(f"{rule.prelude};")
        elif rule.prelude.startswith("@"):
            parts.append(f"{rule.prelude}{{{rule.declarations}}}")
        elif kept := [
            f"{name}:{value}"
            for name, value in _declarations(rule.declarations)
            if not name.startswith("--") or name in used
        ]:
            parts.append(f"{rule.prelude}{{{';'.join(kept)}}}")
    return "".join(parts)


def prune(css: str, html: str) -> str:
    """The part of ``css`` that can apply to ``html``, serialized compactly.

    Examples
    --------
    >>> css = ".w{--x:1px;--y:2px} .w .a{margin:var(--x)} .w .b{margin:var(--y)}"
    >>> prune(css, '<div class="w"><p class="a"></p></div>')
    '.w{--x:1px}.w .a{margin:var(--x)}'
    """
    rules = kept_rules(css, page_names(html))
    return serialize(rules, used_properties(rules))
