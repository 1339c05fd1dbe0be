"""Keep code, printed output and widget stand-in text out of the search index.

Material's search fetches the whole ``search_index.json`` on every page, and code blocks
and their ``Output`` blocks are most of its weight, while a reader searches for ideas, not
for ``print(``; the text a widget shows until its JavaScript runs is not worth finding
either. Material leaves out of its index every element with a ``data-search-exclude``
attribute, and strips the attribute once the page is indexed (the reader's HTML is
unchanged). :func:`mark` adds it to code blocks (``<div class="highlight">``, any other
``<pre>``, the copy of a notebook cell's code kept for its copy button) and to widget
containers (:data:`WIDGET_ATTRIBUTES`), except a container holding headings: that is a
section of the page (the practice section) whose prose stays, while its parts go.

Material's index parser compares elements by tag name only: inside an excluded ``<div>``,
the end of a nested ``<div>`` would end the exclusion. An element that holds another of
its own tag is therefore not marked itself; its children are, one level down, until none
holds its own tag.

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

#: The attribute Material's search honours; its value says why (Material's strip needs one).
ATTRIBUTE = "data-search-exclude"

#: Attributes of a widget container, whose content is a stand-in until JavaScript runs.
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

    One regular expression finds the tags (the standard library's parser took 0.1 s a
    lesson page): an end tag closes the elements up to its own, a stray one is ignored,
    void and self-closing elements hold nothing, comments, ``script`` and ``style`` are
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
    """Where to insert the attribute (offset, reason) in ``el``'s subtree: at ``el`` if it
    has a reason and holds no element of its own tag, else one level down."""
    reason = reason or el.reason()
    if reason is not None and not el.holds(frozenset({el.tag})):
        return [(el.name_end, reason)]
    return [target for child in el.children for target in _targets(child, reason)]


def mark(html: str) -> str:
    """A page's content with `` data-search-exclude="code"`` (or ``"widget"``) written
    after the tag name of each element to leave out; nothing else changes.

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
