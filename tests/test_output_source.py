"""The source line under each Output block (site_build/page.py, hooks/build.py).

Unit tests of the pure functions on small pages, then the built site: every Output
block of every page carries the line, and each link names a file of this repository and
the lines of the section its label names (found here by searching the file's text).
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from site_build.page import (
    Source,
    SourceError,
    cell_ranges,
    insert_cell_lines,
    insert_lines,
    output_sources,
)

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
BLOB = "https://github.com/example/attention-lesson/blob/main/"

SNIPPET = """\
import math

# --8<-- [start:data]
x = 3
# --8<-- [end:data]

# --8<-- [start:show]
print(x)
print(math.pi)
# --8<-- [end:show]
"""
FILES = {"snippets/a.py": SNIPPET}


def sources(page: str, files: dict[str, str] | None = None) -> list[list[Source]]:
    known = {**FILES, **(files or {})}
    return output_sources("docs/p.md", page.replace("~~~", "```"), known.get)


def test_a_block_gets_the_sections_of_the_fence_before_it() -> None:
    page = (
        '~~~python\n--8<-- "snippets/a.py:data"\n\n--8<-- "snippets/a.py:show"\n~~~\n\n'
        '~~~text title="Output"\n3\n~~~\n'
    )
    [[source]] = sources(page)
    # By hand: "data" is line 4 of the snippet, "show" lines 8-9.
    assert source == Source("snippets/a.py", ("data", "show"), 4, 9)
    assert source.label() == "snippets/a.py · data, show"


def test_code_written_on_the_page_links_to_the_page() -> None:
    page = '---\nx: 1\n---\n\n~~~py\nprint(1)\nprint(2)\n~~~\n\n~~~text title="Output"\n1\n2\n~~~\n'
    [[source]] = sources(page)
    assert source == Source("docs/p.md", (), 6, 7)  # lines of the file, front matter counted
    assert source.label() == "docs/p.md · lines 6-7"


def test_blocks_in_partials_come_in_page_order() -> None:
    partial = (
        '??? note\n\n    ~~~python\n    --8<-- "snippets/a.py:show"\n    ~~~\n\n'
        '    ~~~text title="Output"\n    3\n    ~~~\n'
    )
    page = (
        '~~~python\n--8<-- "snippets/a.py:data"\nprint(x)\n~~~\n\n~~~text title="Output"\n3\n~~~\n'
        '\n--8<-- "docs/partials/p.md"\n\n~~~python\nprint(4)\n~~~\n\n'
        '~~~text title="Output"\n4\n~~~\n'
    )
    found = sources(page, {"docs/partials/p.md": partial})
    assert [[s.label() for s in block] for block in found] == [
        ["snippets/a.py · data"],
        ["snippets/a.py · show"],
        ["docs/p.md · line 13"],
    ]


@pytest.mark.parametrize(
    "info", ['text title="Output"', "text title='Output'", '{ .text title="Output" }']
)
def test_output_blocks_are_known_by_language_and_title(info: str) -> None:
    page = f'~~~python\nprint(1)\n~~~\n\n~~~{info}\n1\n~~~\n\n~~~text title="x"\n2\n~~~\n'
    assert sources(page) == [[Source("docs/p.md", (), 2, 2)]]


def test_fences_in_an_html_comment_are_not_blocks() -> None:
    page = (
        '<!-- An old version:\n~~~python\nprint(1)\n~~~\n\n~~~text title="Output"\n1\n~~~\n-->\n\n'
        '~~~python\nprint(2)\n~~~\n\n~~~text title="Output"\n2\n~~~\n'
    )
    assert [[s.label() for s in block] for block in sources(page)] == [["docs/p.md · line 12"]]


def test_an_output_block_after_prose_gets_no_source() -> None:
    page = '~~~python\nx = 1\n~~~\n\nProse.\n\n~~~text title="Output"\n1\n~~~\n'
    assert sources(page) == [[]]


@pytest.mark.parametrize(
    ("target", "message"),
    [("snippets/a.py:nope", "snippets/a.py has no section 'nope'"), ("gone.py:x", "gone.py")],
)
def test_a_missing_file_or_section_is_an_error(target: str, message: str) -> None:
    page = f'~~~python\n--8<-- "{target}"\n~~~\n\n~~~text title="Output"\n1\n~~~\n'
    with pytest.raises(SourceError, match=re.escape(message)):
        sources(page)


def test_insert_lines_refuses_a_count_that_differs() -> None:
    block = '<div class="highlight"><span class="filename">Output</span>'
    block += "<pre><code>1\n</code></pre></div>"
    inside = block.replace("</pre></div>", "</pre>{}</div>")
    assert insert_lines(block * 2, ["<p>a</p>", "<p>b</p>"]) == (
        inside.format("<p>a</p>") + inside.format("<p>b</p>")
    )
    with pytest.raises(SourceError, match="2 rendered Output blocks but its Markdown has 1"):
        insert_lines(block * 2, ["<p>a</p>"])


def test_notebook_cells_and_their_lines() -> None:
    script = "# %% [markdown]\n# Title\n\n# %%\nimport math\n\n\n# %%\nprint(1)\nprint(2)\n"
    assert cell_ranges(script) == [(5, 5), (9, 10)]
    inner = '<div class="jp-Cell jp-CodeCell" id="c"><div></div></div>'
    cell = f'<div class="jp-Cell jp-CodeCell">{inner}</div>'
    page = f"<main>{cell}<p>md</p>{cell}</main>"
    assert insert_cell_lines(page, ["<i>1</i>", "<i>2</i>"]) == (
        f"<main>{cell}<i>1</i><p>md</p>{cell}<i>2</i></main>"
    )
    with pytest.raises(SourceError, match="2 code cells but its source has 3"):
        insert_cell_lines(page, ["a", "b", "c"])


# --- The built site -----------------------------------------------------------------------

OUTPUT_BLOCK = re.compile(r'<span class="filename">Output</span>.*?</pre>(.*?)</div>', re.DOTALL)
LINE = re.compile(r'<p class="output-source">(.*?)</p>', re.DOTALL)
LINK = re.compile(r'<a href="([^"]+)">([^<]+)</a>')


def built_pages() -> list[Path]:
    if not (SITE / "index.html").is_file():
        pytest.skip("site/ is not built (`make build` builds it before pytest in `make test`)")
    return sorted(SITE.rglob("index.html"))


def check_link(href: str, label: str) -> None:
    """The link names a file of the repository; its lines are those its label names."""
    assert href.startswith(BLOB), href
    path, _, lines = href[len(BLOB) :].partition("#")
    file = ROOT / path
    assert file.is_file(), f"{href}: no file {path} in the repository"
    match = re.fullmatch(r"L(\d+)-L(\d+)", lines)
    assert match, f"{href}: no line range"
    first, last = int(match[1]), int(match[2])
    text = file.read_text(encoding="utf-8").split("\n")
    assert 1 <= first <= last <= len(text), f"{href}: outside the file's {len(text)} lines"
    name, _, sections = label.partition(" · ")
    assert name == path, (label, href)
    if sections and not sections.startswith("line"):
        starts, ends = [], []
        for section in sections.split(", "):
            start = [n for n, x in enumerate(text, 1) if f"--8<-- [start:{section}]" in x]
            end = [n for n, x in enumerate(text, 1) if f"--8<-- [end:{section}]" in x]
            assert len(start) == len(end) == 1, f"{href}: no section {section!r} in {path}"
            starts.append(start[0] + 1)
            ends.append(end[0] - 1)
        assert (first, last) == (min(starts), max(ends)), f"{href}: not the lines of {sections}"


def test_every_output_block_on_the_site_names_its_source() -> None:
    counts: dict[str, int] = {}
    for page in built_pages():
        html = page.read_text(encoding="utf-8")
        name = page.relative_to(SITE).as_posix()
        blocks = list(OUTPUT_BLOCK.finditer(html))
        for block in blocks:
            line = LINE.fullmatch(block[1])
            assert line, f"{name}: an Output block without its source line: {block[0][:200]}"
            links = LINK.findall(line[1])
            assert len(links) >= 2, f"{name}: {line[0]}"
            *code, (checked, said) = links
            for href, label in code:
                check_link(unescape(href), unescape(label))
            assert said == "checked on every change"
            assert checked == f"{BLOB}CONTRIBUTING.md#doc-tests"
        counts[name] = len(blocks)
    print(f"Output blocks per built page: {counts}")
    assert counts["attention/index.html"] >= 12 and counts["index.html"] >= 1
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert "\n## Doc tests\n" in contributing, "the links' target section is gone"


def test_every_notebook_cell_names_its_source() -> None:
    built_pages()
    source = ROOT / "docs" / "notebooks" / "sqrt_dk.py"
    html = (SITE / "notebooks" / "sqrt_dk" / "index.html").read_text(encoding="utf-8")
    lines = LINE.findall(html)
    cells = source.read_text(encoding="utf-8").count("\n# %%\n")
    assert len(lines) == cells > 0
    for line in lines:
        (href, label), (_, said) = LINK.findall(line)
        check_link(unescape(href), unescape(label))
        assert said == "run on every build"
