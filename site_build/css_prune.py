"""Keep only the CSS a page can use: a small, dependency-free pruner for generated pages.

A notebook page from nbconvert inlines all of JupyterLab's CSS (about 570 KB: every
widget of the Lab, and a thousand custom properties on ``.jupyter-wrapper`` that every
element inside inherits). :func:`prune` keeps a style rule only if one of its selectors
can match the page, judged by the classes and ids the page's HTML contains, and then
keeps only the custom properties that the kept rules use, directly or through other
custom properties.

It is conservative where it cannot judge: a selector with ``:is()``, ``:where()`` or
``:has()`` is kept, classes inside ``:not()`` are ignored, and at-rules other than
``@media`` and ``@supports`` (``@font-face``, ``@keyframes``, ...) are kept as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

_CLASS_ATTR = re.compile(r"""\bclass\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_ID_ATTR = re.compile(r"""\bid\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_SEL_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
_SEL_ID = re.compile(r"#(-?[_a-zA-Z][\w-]*)")
_NOT = re.compile(r":not\((?:[^()]|\([^()]*\))*\)")
_VAR_USE = re.compile(r"var\(\s*(--[\w-]+)")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)


@dataclass
class Rule:
    """A style rule (``prelude`` is the selector list) or an at-rule with or without a block."""

    prelude: str
    declarations: str | None = None  # style rules and at-rules holding declarations
    children: list[Rule] = field(default_factory=list)  # @media, @supports
    at: bool = False


def walk(rules: Iterable[Rule]) -> Iterable[Rule]:
    """Every rule of ``rules`` and of the blocks nested in them, in order."""
    for rule in rules:
        yield rule
        yield from walk(rule.children)


def page_names(html: str) -> tuple[set[str], set[str]]:
    """The class names and ids used in ``html``.

    Examples
    --------
    >>> classes, ids = page_names('<div class="a b" id="x"><span class=\\'c\\'></span></div>')
    >>> sorted(classes), ids
    (['a', 'b', 'c'], {'x'})
    """
    classes: set[str] = set()
    for m in _CLASS_ATTR.finditer(html):
        classes.update((m.group(1) or m.group(2) or "").split())
    ids = {m.group(1) or m.group(2) or "" for m in _ID_ATTR.finditer(html)}
    return classes, ids - {""}


def parse(css: str) -> list[Rule]:
    """Split CSS into rules, nesting the blocks of ``@media`` and ``@supports``.

    Examples
    --------
    >>> [(r.prelude, r.declarations) for r in parse("a{color:red} @media print{b{x:1}}")]
    [('a', 'color:red'), ('@media print', None)]
    >>> parse("@media print{b{x:1}}")[0].children[0].declarations
    'x:1'
    """
    css = _COMMENT.sub("", css)
    rules, _ = _parse_block(css, 0)
    return rules


def _outside_quotes(text: str, start: int = 0) -> Iterator[tuple[int, str, int]]:
    """``(index, char, depth)`` of every character of ``text`` from ``start`` that is not
    inside a quoted string; ``depth`` counts the parentheses and braces open before it.

    Examples
    --------
    >>> [(i, c, d) for i, c, d in _outside_quotes('a("{")b{c}') if c in "({)}"]
    [(1, '(', 0), (5, ')', 1), (7, '{', 0), (9, '}', 1)]
    """
    quote, depth, i = "", 0, start
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        else:
            yield i, c, depth
            if c in "({":
                depth += 1
            elif c in ")}":
                depth -= 1
        i += 1


def _split_top(text: str, sep: str) -> list[str]:
    """``text`` split at every ``sep`` outside quotes and brackets, parts stripped, empty
    parts dropped.

    Examples
    --------
    >>> _split_top('a, b:is(c, d), "e,f"', ",")
    ['a', 'b:is(c, d)', '"e,f"']
    """
    cuts = [i for i, c, depth in _outside_quotes(text) if c == sep and depth == 0]
    bounds = zip([-1, *cuts], [*cuts, len(text)], strict=True)
    return [part for a, b in bounds if (part := text[a + 1 : b].strip())]


def _parse_block(css: str, i: int) -> tuple[list[Rule], int]:
    rules: list[Rule] = []
    n = len(css)
    while i < n:
        while i < n and css[i] in " \t\r\n;":
            i += 1
        if i >= n:
            break
        if css[i] == "}":
            return rules, i + 1
        # The prelude runs to the first '{' or ';' outside quotes and parentheses.
        j = next((k for k, c, depth in _outside_quotes(css, i) if c in "{;" and depth == 0), n)
        prelude = css[i:j].strip()
        if j >= n or css[j] == ";":  # a statement such as @charset or @import
            rules.append(Rule(prelude, at=True))
            i = j + 1
            continue
        if prelude.startswith("@") and re.match(r"@(media|supports|layer)\b", prelude):
            children, i = _parse_block(css, j + 1)
            rules.append(Rule(prelude, children=children, at=True))
            continue
        k = _block_end(css, j + 1)
        rules.append(Rule(prelude, css[j + 1 : k].strip(), at=prelude.startswith("@")))
        i = k + 1
    return rules, i


def _block_end(css: str, i: int) -> int:
    """Index of the '}' closing the block that starts at ``i`` (nested braces counted)."""
    return next((k for k, c, depth in _outside_quotes(css, i) if c == "}" and depth == 0), len(css))


def _split_selectors(prelude: str) -> list[str]:
    return _split_top(prelude, ",")


def can_match(selector: str, classes: set[str], ids: set[str]) -> bool:
    """Whether ``selector`` might match a page with these classes and ids.

    Examples
    --------
    >>> can_match(".a .b > p", {"a", "b"}, set()), can_match(".a .zz", {"a"}, set())
    (True, False)
    >>> can_match("div:not(.zz)", set(), set()), can_match(":is(.zz) p", set(), set())
    (True, True)
    """
    if re.search(r":(is|where|has|host|global)\(", selector):
        return True
    bare = _NOT.sub("", selector)
    bare = re.sub(r"\[[^\]]*\]", "", bare)  # attribute values may contain dots
    return all(c in classes for c in _SEL_CLASS.findall(bare)) and all(
        i in ids for i in _SEL_ID.findall(bare)
    )


def _keep(rules: Iterable[Rule], classes: set[str], ids: set[str]) -> list[Rule]:
    kept = []
    for rule in rules:
        if rule.children or (rule.at and rule.declarations is None and rule.children == []):
            if rule.prelude.startswith("@charset"):
                continue
            children = _keep(rule.children, classes, ids)
            if children or not rule.prelude.startswith(("@media", "@supports", "@layer")):
                kept.append(Rule(rule.prelude, None, children, True))
            continue
        if rule.at:
            kept.append(rule)
            continue
        selectors = [s for s in _split_selectors(rule.prelude) if can_match(s, classes, ids)]
        if selectors:
            kept.append(Rule(",".join(selectors), rule.declarations))
    return kept


def _declarations(text: str) -> list[str]:
    return _split_top(text, ";")


def used_properties(rules: list[Rule]) -> set[str]:
    """Custom properties the rules use, following ``var()`` through other definitions.

    Examples
    --------
    >>> sorted(used_properties(parse(":root{--a:var(--b);--b:1px;--c:2px} p{margin:var(--a)}")))
    ['--a', '--b']
    """
    defs: dict[str, list[str]] = {}
    used: set[str] = set()
    for rule in walk(rules):
        for decl in _declarations(rule.declarations or ""):
            name, _, value = decl.partition(":")
            name = name.strip()
            if name.startswith("--"):
                defs.setdefault(name, []).append(value)
            else:
                used.update(_VAR_USE.findall(value))
    todo = list(used)
    while todo:
        for value in defs.get(todo.pop(), []):
            for ref in _VAR_USE.findall(value):
                if ref not in used:
                    used.add(ref)
                    todo.append(ref)
    return used


def _drop_unused(rules: list[Rule], used: set[str]) -> list[Rule]:
    out = []
    for rule in rules:
        if rule.children:
            out.append(Rule(rule.prelude, None, _drop_unused(rule.children, used), True))
            continue
        if rule.declarations is None or rule.at:
            out.append(rule)
            continue
        decls = [
            d
            for d in _declarations(rule.declarations)
            if not d.startswith("--") or d.partition(":")[0].strip() in used
        ]
        if decls:
            out.append(Rule(rule.prelude, ";".join(decls)))
    return out


def serialize(rules: Iterable[Rule]) -> str:
    """CSS text of the rules, without extra whitespace.

    Examples
    --------
    >>> serialize(parse("a , b { color : red ; }  @media print { p { x: 1 } }"))
    'a , b{color : red}@media print{p{x: 1}}'
    """
    parts = []
    for rule in rules:
        if rule.children or (
            rule.at
            and rule.declarations is None
            and rule.prelude[:6] in ("@media", "@suppo", "@layer")
        ):
            parts.append(f"{rule.prelude}{{{serialize(rule.children)}}}")
        elif rule.declarations is None:
            parts.append(f"{rule.prelude};")
        else:
            decls = ";".join(_declarations(rule.declarations))
            parts.append(f"{rule.prelude}{{{decls}}}")
    return "".join(parts)


def prune(css: str, html: str) -> str:
    """The part of ``css`` that can apply to ``html``, serialized compactly.

    Examples
    --------
    >>> css = ".w{--x:1px;--y:2px} .w .a{margin:var(--x)} .w .b{margin:var(--y)}"
    >>> prune(css, '<div class="w"><p class="a"></p></div>')
    '.w{--x:1px}.w .a{margin:var(--x)}'
    """
    classes, ids = page_names(html)
    rules = _keep(parse(css), classes, ids)
    return serialize(_drop_unused(rules, used_properties(rules)))
