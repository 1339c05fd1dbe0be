"""Keep only the CSS a page can use, on tinycss2's parser (for nbconvert's notebook pages).

:func:`prune` keeps a style rule if one of its selectors can match the page's classes and
ids, then only the custom properties the kept rules use, directly or through others.
Where it cannot judge it keeps: ``:is()``, ``:where()``, ``:has()``, at-rules other than
``@media``, ``@supports`` and ``@layer``; classes inside ``:not()`` are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import tinycss2

_CLASS_ATTR = re.compile(r"""\bclass\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_ID_ATTR = re.compile(r"""\bid\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_SEL_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
_SEL_ID = re.compile(r"#(-?[_a-zA-Z][\w-]*)")
_NOT = re.compile(r":not\((?:[^()]|\([^()]*\))*\)")
_VAR_USE = re.compile(r"var\(\s*(--[\w-]+)")
_NESTED = ("media", "supports", "layer")  # at-rules whose block holds rules


@dataclass
class Rule:
    """A style rule (``prelude`` is the selector list), or an at-rule."""

    prelude: str
    declarations: str | None = None  # style rules and at-rules holding declarations
    children: list[Rule] = field(default_factory=list)  # @media, @supports, @layer
    at: bool = False

    @property
    def nested(self) -> bool:
        return self.at and self.prelude.split(" ")[0][1:].lower() in _NESTED


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
    """The rules of a stylesheet, with the blocks of ``@media``, ``@supports`` and ``@layer``.

    Examples
    --------
    >>> [(r.prelude, r.declarations) for r in parse("a{color:red} @media print{b{x:1}}")]
    [('a', 'color:red'), ('@media print', None)]
    >>> parse("@media print{b{x:1}}")[0].children[0].declarations
    'x:1'
    """
    nodes = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    return [_rule(node) for node in nodes if node.type in ("qualified-rule", "at-rule")]


def _rule(node: Any) -> Rule:
    prelude = tinycss2.serialize(node.prelude).strip()
    if node.type == "qualified-rule":
        return Rule(prelude, tinycss2.serialize(node.content).strip())
    prelude = f"@{node.at_keyword} {prelude}".strip()
    if node.content is None:  # a statement such as @charset or @import
        return Rule(prelude, at=True)
    if node.lower_at_keyword in _NESTED:
        inner = tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True)
        children = [_rule(n) for n in inner if n.type in ("qualified-rule", "at-rule")]
        return Rule(prelude, children=children, at=True)
    return Rule(prelude, tinycss2.serialize(node.content).strip(), at=True)


def _declarations(text: str) -> list[tuple[str, str]]:
    nodes = tinycss2.parse_blocks_contents(text, skip_comments=True, skip_whitespace=True)
    return [
        (d.name, tinycss2.serialize(d.value).strip() + (" !important" if d.important else ""))
        for d in nodes
        if d.type == "declaration"
    ]


def walk(rules: Iterable[Rule]) -> Iterable[Rule]:
    """Every rule of ``rules`` and of the blocks nested in them."""
    for rule in rules:
        yield rule
        yield from walk(rule.children)


def _split_selectors(prelude: str) -> list[str]:
    parts: list[list[Any]] = [[]]
    for token in tinycss2.parse_component_value_list(prelude):
        if token.type == "literal" and token.value == ",":
            parts.append([])
        else:
            parts[-1].append(token)
    return [text for part in parts if (text := tinycss2.serialize(part).strip())]


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
        if rule.nested:
            children = _keep(rule.children, classes, ids)
            if children:
                kept.append(Rule(rule.prelude, None, children, True))
        elif rule.at:
            if not rule.prelude.lower().startswith("@charset"):
                kept.append(rule)
        elif selectors := [s for s in _split_selectors(rule.prelude) if can_match(s, classes, ids)]:
            kept.append(Rule(",".join(selectors), rule.declarations))
    return kept


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
        for name, value in _declarations(rule.declarations or ""):
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


def serialize(rules: Iterable[Rule], used: set[str] | None = None) -> str:
    """CSS text of the rules, compact; with ``used``, only those custom properties.

    Examples
    --------
    >>> serialize(parse("a , b { color : red ; }  @media print { p { x: 1 } }"))
    'a , b{color : red ;}@media print{p{x: 1}}'
    """
    parts = []
    for rule in rules:
        if rule.nested:
            parts.append(f"{rule.prelude}{{{serialize(rule.children, used)}}}")
        elif rule.declarations is None:
            parts.append(f"{rule.prelude};")
        elif rule.at or used is None:
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
    classes, ids = page_names(html)
    rules = _keep(parse(css), classes, ids)
    return serialize(rules, used_properties(rules))
