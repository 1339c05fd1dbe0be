"""Keep code blocks and printed output out of the search index, which every page fetches.

Material leaves out of its index every element that carries ``data-search-exclude``, and
strips the attribute once the page is indexed (the reader's HTML is unchanged). :func:`mark`
adds it to code blocks: a fence (``<div class="highlight">``, with its ``Output`` title),
any ``<pre>``, and the copy of a notebook cell's code that mkdocs-jupyter keeps for its copy
button. A widget's partial marks its stand-in text itself. Material ends an exclusion at
the first end tag of the same name, so a marked element must not hold one of its own tag
(a fence's ``<div>`` holds none).

Examples
--------
>>> marked = mark('<p>Keep</p><div class="highlight"><pre><code>x = 1</code></pre></div>')
>>> marked.replace(' data-search-exclude="code"', " [excluded]")
'<p>Keep</p><div [excluded] class="highlight"><pre [excluded]><code>x = 1</code></pre></div>'
"""

from __future__ import annotations

import re

#: The attribute Material's search honours; its value says why (Material's strip needs one).
ATTRIBUTE = "data-search-exclude"

#: The start of a code block's tag, up to its name.
_CODE = re.compile(r'<(?:pre|div(?= class="(?:highlight|clipboard-copy-txt)"))(?=[\s>])')


def mark(html: str) -> str:
    """A page's content with `` data-search-exclude="code"`` after the tag name of each
    code block; nothing else changes.

    Examples
    --------
    >>> mark('<pre class="x">a</pre><div class="other"><p>b</p></div>')
    '<pre data-search-exclude="code" class="x">a</pre><div class="other"><p>b</p></div>'
    """
    if not isinstance(html, str):
        raise TypeError(f"html must be a str, got {type(html).__name__}")
    return _CODE.sub(lambda m: f'{m[0]} {ATTRIBUTE}="code"', html)
