"""No number in prose without a test (issue 33).

Every numeral a reader sees in a page's prose (its includes expanded, as the build
renders it; for the notebook, its markdown cells as :func:`testbed.claims.page_html`
renders them) must be one of:

- in a code block: an Output block, which Sybil checks against what its code prints,
  or the code itself;
- inside a sentence that a claim test of the page checks: a ``claim(page, sentence)``
  or ``cited(page, sentence, ...)`` call in ``tests/test_*.py`` (``make claims
  PAGE=docs/<page>.md`` lists them);
- of a kind that states no computed fact, named in :data:`KINDS` with its reason (a year
  of a citation, a lesson or step number, an index or exponent in a formula...), or of
  one whose source of truth is a record another test holds the page to (the figures of
  ``make bench``'s table, by where they are on the page);
- one of the few sentences of :data:`EXCEPTIONS`, each with its reason.

Percentages, integers and decimals alike. The claim sentences are read from the claim
tests' source (the string or f-string each ``claim`` call is given; an f-string's
fields match any short text, and the claim test itself checks their values): running
every claim test again here, as ``make claims`` does to record them, would double the
cost of ``make test-docs``.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest

from site_build import site
from site_build.page import INCLUDE
from testbed import claims
from testbed.rendered import render_html

ROOT = Path(__file__).resolve().parent.parent

#: A numeral: digits, with thousands commas, a decimal part, an exponent, superscripts
#: and a unit or suffix stuck to it; never the digits of a word (``v1``, ``L6``, ``d_k``).
NUMERAL = re.compile(
    r"(?<![A-Za-z0-9_.])[-−]?\d+(?:,\d{3})*(?:\.\d+)?(?:e[-−+]?\d+)?[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]*"
    r"(?:\s?%|st|nd|rd|th|x|×|k|K|M|B)?(?![A-Za-z0-9_])"
)
#: Math as KaTeX receives it: ``\\( ... \\)`` inline, ``\\[ ... \\]`` displayed.
MATH = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]")
#: The elements a numbered heading, list item or table cell starts.
BLOCKS = frozenset(
    {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "figcaption", "summary"}
)


@dataclass(frozen=True)
class Kind:
    """Numerals that state no computed fact: ``pattern`` finds them, ``reason`` says why.

    ``where`` is ``"prose"`` (anywhere), ``"math"`` (inside a formula only),
    ``"block start"`` (the match must open a heading, list item or table cell) or
    ``"include"``: the match must lie in the text that the file ``pattern`` names (a path
    from the repository's root) renders to, on a page whose source includes that file
    with ``--8<--``. Such a kind covers numerals by their place on the page, whatever
    their value.
    """

    name: str
    pattern: str
    reason: str
    where: str = "prose"


KINDS = (
    Kind(
        "year of a citation",
        r"(?:,\s|\()(?:19[5-9]\d|20[0-4]\d)(?=[),;:.]|\s|$)",
        "a paper's year after its authors (Vaswani et al., 2017) names the paper",
    ),
    Kind("arXiv id", r"arXiv:\s?\d{4}\.\d{4,5}(?:v\d+)?", "an address, not a quantity"),
    Kind(
        "lesson number",
        r"\b[Ll]essons? \d(?:(?:, | and | to | or )\d)*(?!\d)",
        "lessons are numbered by the site model (site_build/site.py), whose test holds the "
        "nav to it",
    ),
    Kind(
        "step number",
        r"\b[Ss]teps? \d{1,2}(?:(?:, | and | to | or )\d{1,2})*(?![\d,.]\d)",
        "a step of a lesson or of its practice is named by its number, as its folder is",
    ),
    Kind(
        "numbered heading, item or cell",
        r"\d{1,2}\.(?= )",
        "the number that opens a heading or a table cell orders the parts it lists",
        "block start",
    ),
    Kind(
        "part of a paper",
        r"\b(?:[Tt]able|[Ff]igure|[Ss]ection|[Ee]quation|[Aa]ppendix|[Cc]hapter) \d+\b",
        "names a part of a cited work, whose link is on the page",
    ),
    Kind(
        "name with a version",
        r"\b(?:GPT|Llama|BERT|Mistral|Gemma|Qwen|Python|numpy|NumPy|torch|PyTorch|Pyodide)"
        r"[- ]\d+(?:\.\d+)*[BM]?\b",
        "part of a model's or a tool's name (GPT-2, Llama 2, Python 3.11)",
    ),
    Kind(
        "where a numbering starts",
        r"\b(?:[Cc]ounts?|[Nn]umbered) (?:\w+ )?from [01]\b",
        "'counts from 0', 'numbered from 1': a convention of the code or the page, not a value",
    ),
    Kind(
        "exit status", r"\bstatus \d+\b", "a process's exit status: 0 means success by convention"
    ),
    Kind(
        "element named by its index",
        r"\b(?:[Tt]oken|[Pp]osition|[Rr]ow|[Cc]olumn|[Pp]air|[Hh]ead|[Ll]ayer|[Bb]lock)s? "
        r"\d+(?:(?: to | and |, )\d+)*(?![\d.,%])",
        "token 2, row 0: a label for an element, as the code indexes it, not a quantity",
    ),
    Kind(
        "index in code",
        r"\[\d+\]|\[[\w +*/-]*[A-Za-z][\w +*/-]*\]",
        "heads[0], q[2i + 1]: indexing a list in code quoted in prose",
    ),
    Kind(
        "index or exponent in a formula",
        r"(?<![\d])[_^](?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|[-−]?\d+)",
        "a subscript or a superscript of a symbol (the 1 of \\(\\beta_1\\), the 2 of "
        "\\(x^2\\), the bounds of a sum) is notation; a power of a number (\\(10^{-12}\\)) "
        "is a value, and is not of this kind",
        "math",
    ),
    Kind(
        "a measured figure of the bench record's table",
        "bench/results.md",
        "timings, byte counts and scores that `make bench` measured on a machine: "
        "attention_ref computes none of them, and the bench record bench/results.json is their "
        "source of truth. bench/results.md (the tables and the lines around them that "
        "docs/performance.md includes) is written from the record by `python -m bench "
        "--write-page`, and tests/test_performance_claims.py fails unless the committed file is "
        "exactly what the writer makes of the committed record, so a figure edited by hand fails",
        "include",
    ),
    Kind(
        "constant of a formula's form",
        r"\\frac\{1\}|(?<![\d.])1\s*/|(?<![\d.])1\s*-\s*(?=[A-Za-z\\])"
        r"|[A-Za-z}]\s*[-+]\s*1(?![\d.])|(?<![\d.])\d+(?=\^\{?[^{}\s]*[A-Za-z])",
        "the 1 of \\(1/\\sqrt{d_k}\\), \\(1 - p\\) or \\(i + 1\\), the base of "
        "\\(10000^{-2i/d}\\): fixed by the formula's definition, not computed. Coefficients that "
        "count something (the 4 of \\(4\\,d_{model}^2\\)) are claims",
        "math",
    ),
)


#: Sentences whose numbers no test can recompute, by page: (a passage holding the number,
#: the reason). Keep it short; a claim test is better.
EXCEPTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "attention.md": (
        (
            "Scaling Vision Transformers to 22 Billion Parameters",
            "the title of a cited paper, linked beside it",
        ),
    ),
}

# --- the page as a reader sees it ------------------------------------------------------------


class _Prose(HTMLParser):
    """The visible text in pieces, each marked prose or code block, and where blocks open."""

    _HIDDEN = frozenset({"script", "style"})
    OPEN = "\x00"  # a block opens here (never in a page's text)

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[tuple[str, bool]] = []
        self._hidden = 0
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in self._HIDDEN
        self._pre += tag == "pre"
        if tag in BLOCKS:
            self.pieces.append((self.OPEN, True))

    def handle_endtag(self, tag: str) -> None:
        if tag in self._HIDDEN and self._hidden:
            self._hidden -= 1
        if tag == "pre" and self._pre:
            self._pre -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.pieces.append((data, not self._pre))


@dataclass(frozen=True)
class Prose:
    """A page's visible text (as :func:`testbed.claims.page_text` gives it), which of its
    characters are prose (not in a code block), and where its blocks open."""

    text: str
    prose: tuple[bool, ...]
    starts: frozenset[int]


def read_prose(html: str) -> Prose:
    """Split rendered HTML into its visible text, prose marks and block starts.

    Examples
    --------
    >>> p = read_prose("<h2>1. Score</h2><pre><code>2</code></pre><p>is 3</p>")
    >>> p.text, "".join("p" if x else "c" for x in p.prose), sorted(p.starts)
    ('1. Score 2 is 3', 'ppppppppppcpppp', [0, 11])
    """
    parser = _Prose()
    parser.feed(html)
    parser.close()
    out: list[str] = []
    prose: list[bool] = []
    starts: set[int] = set()
    space = opened = False
    for piece, is_prose in parser.pieces:
        if piece == _Prose.OPEN:
            opened = True
            continue
        for ch in piece:
            if ch.isspace():
                space = bool(out)
                continue
            if space:
                out.append(" ")
                prose.append(is_prose and prose[-1])
                space = False
            if opened:
                starts.add(len(out))
                opened = False
            out.append(ch)
            prose.append(is_prose)
    return Prose("".join(out), tuple(prose), frozenset(starts))


# --- the claim sentences, read from the claim tests ---------------------------------------------


def _pattern(node: ast.expr) -> str | None:
    """A regex for a string or f-string sentence, whitespace collapsed as ``claim`` does."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        parts: list[str | None] = [node.value]
    elif isinstance(node, ast.JoinedStr):
        parts = [str(v.value) if isinstance(v, ast.Constant) else None for v in node.values]
    else:
        return None
    text = "".join("\x00" if p is None else p for p in parts)
    words = " ".join(text.split())
    return ".{1,40}?".join(re.escape(w) for w in words.split("\x00"))


def _strings(body: list[ast.stmt] | list[ast.AST]) -> dict[str, ast.expr]:
    """Names bound to an expression by ``name = ...`` or ``a, b = x, y`` in ``body``."""
    bound: dict[str, ast.expr] = {}
    for node in body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if isinstance(target, ast.Name):
                bound[target.id] = value
            elif isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
                for name, item in zip(target.elts, value.elts, strict=False):
                    if isinstance(name, ast.Name):
                        bound[name.id] = item
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            bound[node.target.id] = node.value
    return bound


def _values(
    node: ast.expr, bound: dict[str, ast.expr], loops: dict[str, ast.expr], depth: int = 0
) -> list[ast.expr]:
    """What ``node`` stands for: itself, what a name is bound to, a loop's items."""
    if depth > 4:
        return []
    if isinstance(node, ast.Name):
        if node.id in bound:
            return _values(bound[node.id], bound, loops, depth + 1)
        if node.id in loops:
            return _values(loops[node.id], bound, loops, depth + 1)
        return []
    if isinstance(node, ast.List | ast.Tuple):
        return [v for item in node.elts for v in _values(item, bound, loops, depth + 1)]
    return [node]


@dataclass(frozen=True)
class Claimed:
    page: str
    pattern: str
    test: str


def _claims_in(path: Path) -> tuple[list[Claimed], list[str]]:
    """The claims a test file makes, and the calls whose page or sentence cannot be read."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = _strings(tree.body)
    found: list[Claimed] = []
    unread: list[str] = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        local = {**module, **_strings(list(ast.walk(function)))}
        loops = {
            n.target.id: n.iter
            for n in ast.walk(function)
            if isinstance(n, ast.For) and isinstance(n.target, ast.Name)
        }

        for call in ast.walk(function):
            if not (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name | ast.Attribute)
                and (call.func.id if isinstance(call.func, ast.Name) else call.func.attr)
                in ("claim", "cited")
                and len(call.args) >= 2
            ):
                continue
            pages = [
                v.value
                for v in _values(call.args[0], local, loops)
                if isinstance(v, ast.Constant) and isinstance(v.value, str)
            ]
            patterns = [
                p for v in _values(call.args[1], local, loops) if (p := _pattern(v)) is not None
            ]
            if not pages or not patterns:
                unread.append(f"{path.name}:{call.lineno}: {ast.unparse(call)[:80]}")
            name = f"{path.relative_to(ROOT).as_posix()}::{function.name}"
            found += [Claimed(page, pattern, name) for page in pages for pattern in patterns]
    return found, unread


@functools.cache
def all_claims() -> tuple[tuple[Claimed, ...], tuple[str, ...]]:
    """Every claim of every test file, and the calls that cannot be read statically."""
    found: list[Claimed] = []
    unread: list[str] = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        more, bad = _claims_in(path)
        found += more
        unread += bad
    return tuple(found), tuple(unread)


# --- the finder --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Uncovered:
    number: str
    page: str
    sentence: str

    def __str__(self) -> str:
        return f"{self.number!r} on {self.page}, in: {self.sentence!r}"


def _spans(pattern: str, text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(pattern, text)]


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around ``text[start:end]``, at most about 200 characters."""
    left = max(text.rfind(". ", 0, start), text.rfind("¶", 0, start), text.find(" ", start - 120))
    ends = [i for i in (text.find(". ", end), text.find("¶", end)) if i != -1]
    right = min([*ends, text.find(" ", end + 120) % (len(text) + 1)])
    return text[left + 1 : right + 1].strip(" ¶")


def _includes(page: str, target: str) -> bool:
    """Whether ``docs/<page>``'s source includes the file ``target`` whole, by ``--8<--``."""
    path = claims.DOCS / page
    return path.suffix == ".md" and any(
        m["target"] == target for m in INCLUDE.finditer(path.read_text(encoding="utf-8"))
    )


@functools.cache
def _rendered(target: str) -> str:
    """The visible text that the Markdown file ``target`` renders to on its own."""
    text = read_prose(render_html(claims.CONFIG, ROOT / target)).text
    if not text:
        raise ValueError(f"{target} renders to no text")
    return text


def covered_spans(page: str, prose: Prose) -> list[tuple[int, int, str]]:
    """The spans of ``prose.text`` that claims, kinds and exceptions cover, with their name."""
    text = prose.text
    spans: list[tuple[int, int, str]] = []
    for c in all_claims()[0]:
        if c.page == page:
            spans += [(a, b, c.test) for a, b in _spans(c.pattern, text)]
    maths = _spans(MATH.pattern, text)
    for kind in KINDS:
        if kind.where == "math":
            for a, b in maths:
                spans += [(a + x, a + y, kind.name) for x, y in _spans(kind.pattern, text[a:b])]
        elif kind.where == "include":
            if _includes(page, kind.pattern):
                rendered = _rendered(kind.pattern)
                spans += [(a, b, kind.name) for a, b in _spans(re.escape(rendered), text)]
        else:
            found = _spans(kind.pattern, text)
            if kind.where == "block start":
                found = [(a, b) for a, b in found if a in prose.starts]
            spans += [(a, b, kind.name) for a, b in found]
    for passage, _reason in EXCEPTIONS.get(page, ()):
        spans += [(a, b, "exception") for a, b in _spans(re.escape(passage), text)]
    return spans


def uncovered(page: str, html: str | None = None) -> list[Uncovered]:
    """The numerals of ``docs/<page>``'s prose that nothing covers (``html``: a stand-in)."""
    prose = read_prose(claims.page_html(page) if html is None else html)
    text = prose.text
    spans = covered_spans(page, prose)
    found = []
    for m in NUMERAL.finditer(text):
        if not prose.prose[m.start()]:
            continue  # in a code block: an Output block or code
        if any(a <= m.start() and m.end() <= b for a, b, _ in spans):
            continue
        found.append(Uncovered(m.group(), page, _sentence(text, m.start(), m.end())))
    return found


HOW_TO_FIX = """\
Each number a reader sees must be tested. For each one, either
  - check its sentence with a claim test: in tests/test_<page>_claims.py, recompute the
    number (attention_ref, or an independent oracle) and call
    testbed.claims.claim(page, "the sentence as rendered") (see CONTRIBUTING, "Claims");
  - or print it from code, in an Output block (```text title="Output"```) that Sybil checks;
  - or, if it states no computed fact (a year, a lesson number, a name), add its KIND to
    KINDS in tests/test_numerals.py, with a pattern and a reason.
"""


# --- the tests -------------------------------------------------------------------------------


def _page_id(page: site.Page) -> str:
    return page.source


@pytest.mark.parametrize("page", site.PAGES, ids=_page_id)
def test_every_numeral_in_prose_is_tested(page: site.Page) -> None:
    found = uncovered(page.source)
    listed = "\n".join(f"  {u}" for u in found)
    assert not found, (
        f"{len(found)} numerals of {page.source}'s prose are not tested:\n{listed}\n{HOW_TO_FIX}"
    )


def test_the_prose_read_here_is_the_text_claims_search() -> None:
    """The text whose numerals are checked is exactly the text ``claim`` searches."""
    for page in site.PAGES:
        assert read_prose(claims.page_html(page.source)).text == claims.page_text(page.source)


def test_every_claim_call_can_be_read() -> None:
    """Every claim's page and sentence can be read from its test's source."""
    unread = all_claims()[1]
    assert not unread, (
        "these claim calls give a page or a sentence this test cannot read (write it as a "
        "string or an f-string, in the call or in a name bound to one):\n" + "\n".join(unread)
    )


def test_a_new_number_with_no_claim_is_named() -> None:
    """'61%' written into a sentence with no claim: the finder names it, its page and sentence."""
    page = "attention.md"
    html = claims.page_html(page)
    sentence = "Query and key differ because what a token looks for is not what it offers."
    assert sentence in html, "the sentence this test edits is no longer on the page"
    edited = html.replace(sentence, sentence[:-1] + ", 61% of the time.", 1)
    before = {(u.number, u.sentence) for u in uncovered(page)}
    after = [u for u in uncovered(page, edited) if (u.number, u.sentence) not in before]
    assert [u.number for u in after] == ["61%"], after
    assert after[0].page == page and "61% of the time" in after[0].sentence
    assert "61%" in str(after[0]) and page in str(after[0])


def test_numbers_in_output_blocks_and_code_are_not_prose() -> None:
    html = (
        '<p>Intro.</p><div class="highlight"><span class="filename">Output</span>'
        "<pre><code>0.506 61%</code></pre></div><p>Step 2: in 2017 (Bridle, 1990).</p>"
    )
    assert [(u.number, u.page) for u in uncovered("attention.md", html)] == [
        ("2017", "attention.md")
    ]


def test_the_bench_tables_figures_are_covered_by_their_place_not_their_value() -> None:
    """A figure inside the included bench tables passes; the same figure typed into the
    page's own prose does not."""
    page = "performance.md"
    html = claims.page_html(page)
    text = read_prose(html).text
    table = _rendered("bench/results.md")
    assert text.count(table) == 1, "the page shows bench/results.md once, whole"
    figure = next(m.group() for m in NUMERAL.finditer(table) if "." in m.group())
    heading = '<h2 id="what-is-measured-and-how">'
    assert heading in html, "the heading this test writes before is no longer on the page"
    edited = html.replace(heading, f"<p>It took {figure} as long.</p>{heading}", 1)
    found = uncovered(page, edited)
    assert [u.number for u in found] == [figure], found
    assert f"It took {figure} as long." in found[0].sentence
    assert not uncovered(page)
