"""Slim a notebook page as mkdocs-jupyter writes it, without changing how it looks.

nbconvert's template inlines all of JupyterLab's CSS into the page (about 570 KB, with a
thousand custom properties that every element of the notebook inherits), a MathJax
configuration that nothing loads (the site typesets math at build time), and a mermaid
loader that fetches mermaid from a CDN when the page has a mermaid diagram.
:func:`slim` keeps what the page uses:

- the JupyterLab stylesheets are pruned to the rules and custom properties that can
  apply to the page's own markup (:func:`site_build.css_prune.prune`), and marked
  ``data-pruned`` (a browser test puts the originals back and compares);
- the MathJax configuration is dropped;
- the mermaid loader and its styles are dropped when the page has no mermaid diagram
  (with one, the page is left as it is, and the CDN request would show in the tests).
"""

from __future__ import annotations

import re

from site_build.css_prune import prune

_STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S)
_SCRIPT = re.compile(r"<script([^>]*)>(.*?)</script>\s*", re.S)
#: The JupyterLab stylesheet declares its variables on this wrapper class.
JUPYTER_CSS_MARK = ".jupyter-wrapper{"
MERMAID_MARKUP = ("jp-Mermaid", "language-mermaid", 'class="mermaid')


def has_mermaid(html: str) -> bool:
    """Whether the page's markup (not its scripts or styles) holds a mermaid diagram.

    Examples
    --------
    >>> has_mermaid('<style>.jp-Mermaid{}</style><div class="jp-Mermaid"></div>')
    True
    >>> has_mermaid('<style>.jp-Mermaid{}</style><script>mermaid</script><p>x</p>')
    False
    """
    markup = _SCRIPT.sub("", _STYLE.sub("", html))
    return any(mark in markup for mark in MERMAID_MARKUP)


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
    """
    markup = _SCRIPT.sub("", _STYLE.sub("", html))
    mermaid = has_mermaid(html)

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
