"""Keep code, printed output and widget stand-in text out of the search index.

Material's search fetches the whole ``search_index.json`` on every page, so every
lesson added to the course makes every page's first load heavier. Code blocks and
their ``Output`` blocks are most of that weight, and a reader searching the course
looks for ideas, not for ``print(`` or a column of digits; the text a widget shows
until its JavaScript runs ("The query explorer needs JavaScript...") is not worth
finding either. Material leaves out of its index every element that carries a
``data-search-exclude`` attribute, and removes the attribute from the page once the
page is indexed, so the HTML the reader gets is unchanged.

:func:`mark` adds that attribute to the start tags of:

* code blocks, ``<div class="highlight">`` (a fence, its title such as ``Output``, its
  ``<pre>``), any other ``<pre>`` (a notebook's cells and outputs) and the copy of a
  notebook cell's code kept for its copy button;
* widget containers, the elements with one of :data:`WIDGET_ATTRIBUTES` (the text
  inside is a stand-in until the widget is built). A container that holds headings is
  a section of the page with the widget's parts in it (the practice section, whose
  steps are ``data-step`` boxes): its prose stays in the index, its parts do not.

Material's index parser compares elements by tag name only: inside an excluded
``<div>``, the end of a nested ``<div>`` would end the exclusion. An element that holds
another of its own tag is therefore not marked itself; its children are, one level
down, until none holds its own tag.

``hooks/build.py`` calls :func:`mark` on every page's HTML before the search
plugin indexes it.

Examples
--------
>>> mark('<p>Keep</p><div class="highlight"><pre><code>x = 1</code></pre></div>')
'<p>Keep</p><div data-search-exclude="code" class="highlight"><pre><code>x = 1</code></pre></div>'
>>> mark('<div class="ex" data-widget="explorer"><p>Needs JavaScript.</p></div>')
'<div data-search-exclude="widget" class="ex" data-widget="explorer"><p>Needs JavaScript.</p></div>'
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from html import unescape

#: The attribute Material's search honours, and the value that says why (Material
#: strips ``data-search-*="..."`` from the page after indexing it, value required).
ATTRIBUTE = "data-search-exclude"

#: Attributes that make an element a widget container (see CONTRIBUTING.md, "Add a
#: widget"): its content is a stand-in until JavaScript builds the widget.
WIDGET_ATTRIBUTES = frozenset({"data-widget", "data-step"})

#: Tags that make a widget container a section of the page's prose.
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

#: Classes of code blocks: a fence (``highlight``), the copy of a notebook cell's code
#: that mkdocs-jupyter keeps for its copy button (``clipboard-copy-txt``).
CODE_CLASSES = frozenset({"highlight", "clipboard-copy-txt"})

_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
     "track", "wbr"}
)  # fmt: skip


@dataclass(eq=False)
class _Element:
    tag: str
    raw: str  # the start tag's text after its name: its attributes
    name_end: int  # offset just after "<tag" in the source
    children: list[_Element] = field(default_factory=list)

    @functools.cached_property
    def attrs(self) -> dict[str, str | None]:
        return _attributes(self.raw)

    def holds(self, tags: frozenset[str]) -> bool:
        stack = list(self.children)
        while stack:
            el = stack.pop()
            if el.tag in tags:
                return True
            stack.extend(el.children)
        return False

    def reason(self) -> str | None:
        if "data-" not in self.raw and not any(c in self.raw for c in CODE_CLASSES):
            return "code" if self.tag == "pre" else None  # most tags: no attribute to read
        classes = (self.attrs.get("class") or "").split()
        if ATTRIBUTE in self.attrs:
            return None  # marked by the page itself
        if WIDGET_ATTRIBUTES & self.attrs.keys() and not self.holds(_HEADINGS):
            return "widget"
        if CODE_CLASSES.intersection(classes) or self.tag == "pre":
            return "code"
        return None


#: A comment, or a start or end tag (quoted attribute values may hold ">").
_TOKEN = re.compile(r"""<!--.*?-->|<(/?)([A-Za-z][^\s/>]*)((?:[^>"']+|"[^"]*"|'[^']*')*)>""", re.S)
#: One attribute of a start tag: its name and its value, quoted or not, if it has one.
_ATTR = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")
#: Elements whose content is raw text, where "<" starts no tag.
_RAW_TEXT = frozenset({"script", "style"})


def _attributes(text: str) -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    for m in _ATTR.finditer(text):
        value = next((v for v in m.groups()[1:] if v is not None), None)
        if value is not None and "&" in value:
            value = unescape(value)
        found.setdefault(m[1].lower(), value)
    return found


def _tree(html: str) -> _Element:
    """The elements of ``html``, nested as an HTML parser nests them (tags only).

    Start and end tags are found with one regular expression (the pure-Python parser of
    the standard library took 0.1 s per lesson page, on every rebuild); an end tag
    closes the elements up to its own, a stray one is ignored, void and self-closing
    elements hold nothing, and comments and the content of ``script`` and ``style`` are
    skipped.
    """
    root = _Element("#root", "", 0)
    stack = [root]
    pos = 0
    while (m := _TOKEN.search(html, pos)) is not None:
        pos = m.end()
        closing, name, rest = m.group(1, 2, 3)
        if name is None:  # a comment
            continue
        tag = name.lower()
        if closing:
            for depth in range(len(stack) - 1, 0, -1):
                if stack[depth].tag == tag:
                    del stack[depth:]
                    break
            continue
        el = _Element(tag, rest, m.start(2) + len(name))
        stack[-1].children.append(el)
        if tag in _RAW_TEXT:
            end = re.compile(rf"</{tag}\s*>", re.I).search(html, pos)
            pos = end.end() if end else len(html)
        elif tag not in _VOID and not rest.rstrip().endswith("/"):
            stack.append(el)
    return root


def _targets(el: _Element, reason: str | None = None) -> list[tuple[int, str]]:
    """Where to insert the attribute (offset, reason) in ``el``'s subtree."""
    reason = reason or el.reason()
    if reason is not None and el.tag != "#root":
        if not el.holds(frozenset({el.tag})):
            return [(el.name_end, reason)]
        found: list[tuple[int, str]] = []
        for child in el.children:  # one level down, the same reason
            found.extend(_targets(child, reason))
        return found
    found = []
    for child in el.children:
        found.extend(_targets(child))
    return found


def mark(html: str) -> str:
    """``html`` with ``data-search-exclude`` on its code blocks and widget containers.

    Parameters
    ----------
    html : str
        A page's content, as MkDocs hands it to ``on_page_content``.

    Returns
    -------
    str
        The same HTML with `` data-search-exclude="code"`` (or ``"widget"``) written
        after the tag name of each element to leave out; nothing else changes.

    Raises
    ------
    TypeError
        If ``html`` is not a string.

    Examples
    --------
    A container holding its own tag is not marked; its children are:

    >>> marked = mark('<div data-step="x"><div><p>a</p></div><p>b</p></div>')
    >>> marked.replace(' data-search-exclude="widget"', " [excluded]")
    '<div data-step="x"><div [excluded]><p>a</p></div><p [excluded]>b</p></div>'
    """
    if not isinstance(html, str):
        raise TypeError(f"html must be a str, got {type(html).__name__}")
    out, last = [], 0
    for offset, reason in sorted(_targets(_tree(html))):
        out.append(html[last:offset])
        out.append(f' {ATTRIBUTE}="{reason}"')
        last = offset
    out.append(html[last:])
    return "".join(out)
