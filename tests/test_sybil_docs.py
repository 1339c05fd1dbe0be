"""The Sybil machinery itself (testbed/sybil_docs.py) can fail, and fails for the right reasons.

Each test writes a tiny MkDocs project (mkdocs.yml, a page, a snippet) into a
temporary folder, parses the page as the root conftest does, and runs its examples.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest
from pymdownx.snippets import SnippetMissingError
from sybil.example import SybilFailure

from site_build.page import fence_language, is_output_fence
from testbed.rendered import Origin
from testbed.sybil_docs import RenderedMarkdownDocument, page_parsers

MKDOCS_YML = """\
site_name: t
plugins:
  - search:
      enabled: !ENV [SEARCH, true]
markdown_extensions:
  - admonition
  - pymdownx.snippets:
      base_path: [!relative $config_dir]
      check_paths: true
"""

SNIPPET = """\
# --8<-- [start:make]
x = 6 * 7
# --8<-- [end:make]

# --8<-- [start:show]
print(x)
# --8<-- [end:show]
"""

FENCE = "```"


def project(tmp_path: Path, page: str) -> Path:
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML)
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "answer.py").write_text(SNIPPET)
    path = tmp_path / "docs" / "page.md"
    path.write_text(dedent(page).replace("~~~", FENCE))
    return path


def outcomes(page: Path) -> list[str]:
    """'ok' or the failure text, for each example of the page in order."""
    document = RenderedMarkdownDocument.parse(str(page), *page_parsers())
    results = []
    for example in document:
        try:
            example.evaluate()
        except SybilFailure as failure:
            results.append(str(failure))
        except Exception as error:  # an exception raised by the page's code
            results.append(f"raised {type(error).__name__}: {error}")
        else:
            results.append("ok")
    return results


def test_output_block_must_match_what_the_code_prints(tmp_path: Path) -> None:
    page = project(
        tmp_path,
        """
        ~~~python
        print([0.506, 0.186])
        ~~~

        ~~~text title="Output"
        [0.506, 0.186]
        ~~~

        ~~~python
        print([0.506, 0.186])
        ~~~

        ~~~text title="Output"
        [0.506, 0.187]
        ~~~
        """,
    )
    first, second = outcomes(page)
    assert first == "ok"
    assert "docs/page.md line 14 as written: this Output block is stale" in second
    assert "[0.506, 0.187]" in second and "make outputs" in second


@pytest.mark.parametrize("info", ["py", "python3", 'python title="x.py"', "{ .python .extra }"])
def test_every_python_like_fence_runs(tmp_path: Path, info: str) -> None:
    page = project(tmp_path, f"~~~{info}\nraise RuntimeError('ran')\n~~~\n")
    [result] = outcomes(page)
    assert "docs/page.md line 2: RuntimeError: ran\n" in result


def test_pycon_blocks_are_doctests(tmp_path: Path) -> None:
    page = project(
        tmp_path,
        """
        ~~~pycon
        >>> 1 + 1
        2
        >>> round(2 / 3, 3)
        0.667
        >>> 2 * 3
        7
        ~~~
        """,
    )
    ok1, ok2, bad = outcomes(page)
    assert (ok1, ok2) == ("ok", "ok")
    assert "Expected:\n    7\nGot:\n    6" in bad


def test_printing_without_an_output_block_fails(tmp_path: Path) -> None:
    page = project(tmp_path, "~~~python\nprint('hidden')\n~~~\n")
    [result] = outcomes(page)
    assert "page shows no output block" in result and "hidden" in result


def test_an_output_block_needs_a_python_block_right_before_it(tmp_path: Path) -> None:
    page = project(tmp_path, 'Text.\n\n~~~text title="Output"\n42\n~~~\n')
    [result] = outcomes(page)
    assert "must directly follow a Python block" in result


def test_includes_are_expanded_and_share_the_page_namespace(tmp_path: Path) -> None:
    page = project(
        tmp_path,
        """
        ~~~python
        --8<-- "snippets/answer.py:make"
        ~~~

        Some prose.

        ~~~python
        --8<-- "snippets/answer.py:show"
        ~~~

        ~~~text title="Output"
        42
        ~~~
        """,
    )
    document = RenderedMarkdownDocument.parse(str(page), *page_parsers())
    assert "x = 6 * 7" in document.text and "--8<--" not in document.text
    assert "--8<--" in document.page.raw
    assert outcomes(page) == ["ok", "ok"]


def test_includes_inside_an_admonition_keep_their_indentation(tmp_path: Path) -> None:
    page = project(
        tmp_path,
        """
        !!! note

            ~~~python
            --8<-- "snippets/answer.py:make"
            print(x + 1)
            ~~~

            ~~~text title="Output"
            43
            ~~~
        """,
    )
    assert outcomes(page) == ["ok"]


def test_a_missing_snippet_fails_at_parse_time(tmp_path: Path) -> None:
    page = project(tmp_path, '~~~python\n--8<-- "snippets/answer.py:nope"\n~~~\n')
    with pytest.raises(SnippetMissingError, match="nope"):
        outcomes(page)


def test_non_python_fences_are_left_alone(tmp_path: Path) -> None:
    page = project(tmp_path, "~~~js\nthrow 1;\n~~~\n\n~~~text\nnot code\n~~~\n")
    assert outcomes(page) == []


def test_fence_language_and_output_marker() -> None:
    assert fence_language('python title="a.py"') == "python"
    assert fence_language("{.pycon}") == "pycon"
    assert fence_language("  PY  ") == "py"
    assert fence_language("") == ""
    assert is_output_fence("text title='Output'")
    assert not is_output_fence('python title="Output"')


def test_lines_are_named_as_written_in_the_page(tmp_path: Path) -> None:
    page = project(
        tmp_path,
        """\
        Intro.

        --8<-- "snippets/answer.py"

        ~~~python
        print(1)
        ~~~

        ~~~text title="Output"
        2
        ~~~
        """,
    )
    document = RenderedMarkdownDocument.parse(str(page), *page_parsers())
    assert isinstance(document, RenderedMarkdownDocument)
    [example] = list(document)
    # The include pushed the fence further down the expanded page; the example is still
    # named by the page as written, and by its Output block (line 9), which is what goes
    # stale: in the report's header, in the test id and in the message alike.
    assert example.line == 9
    assert document.source_line(4) == "3+2"  # the 2nd line the include brought in
    [result] = outcomes(page)
    assert f"{page}, line 9, column 1 did not evaluate" in result
    assert "docs/page.md line 9 as written: this Output block is stale" in result
    assert "the code on docs/page.md line 6 now prints" in result
    assert "The code printed (^ marks what differs):\n1\n^\n" in result


def test_an_exception_is_reported_at_the_snippet_line_that_raised(tmp_path: Path) -> None:
    page = project(
        tmp_path,
        """        Intro.

        ~~~python
        --8<-- "snippets/answer.py:make"
        --8<-- "snippets/broken.py:fails"
        ~~~

        ~~~text title="Output"
        42
        ~~~
        """,
    )
    (tmp_path / "snippets" / "broken.py").write_text(
        "# --8<-- [start:fails]\ny = x + 1\nprint(y / zero)\n# --8<-- [end:fails]\n"
    )
    [result] = outcomes(page)
    # The snippet's own file and line (3), the include that brought it, the lines before.
    assert result.startswith(
        f"Example at {page}, line 8, column 1 did not evaluate as expected:\n"
        "snippets/broken.py line 3, included by docs/page.md line 5: "
        "NameError: name 'zero' is not defined\n"
    )
    assert ">    3 | print(y / zero)" in result
    assert len(result.splitlines()) <= 8  # a few lines, not the expanded page


def test_a_stale_block_in_a_partial_is_named_where_it_is_written(tmp_path: Path) -> None:
    page = project(
        tmp_path,
        """\
        Intro.

        !!! note

            --8<-- "docs/partial.md"
        """,
    )
    (tmp_path / "docs" / "partial.md").write_text(
        dedent(
            """\
            A partial.

            ~~~python
            --8<-- "snippets/answer.py:make"
            --8<-- "snippets/answer.py:show"
            ~~~

            ~~~text title="Output"
            41
            ~~~
            """
        ).replace("~~~", FENCE)
    )
    [result] = outcomes(page)
    assert (
        "docs/partial.md line 8 (included by docs/page.md line 5) as written: "
        "this Output block is stale: snippets/answer.py · make, show now prints"
    ) in result
    assert "The page shows:\n41\nThe code printed (^ marks what differs):\n42\n ^" in result
    assert "run `make outputs`" in result


def test_origins_follow_partials_and_snippets(tmp_path: Path) -> None:
    page = project(tmp_path, 'Top.\n\n    --8<-- "docs/partial.md"\n')
    (tmp_path / "docs" / "partial.md").write_text('P.\n--8<-- "snippets/answer.py:make"\nEnd.\n')
    document = RenderedMarkdownDocument.parse(str(page), *page_parsers())
    assert isinstance(document, RenderedMarkdownDocument) and document.origins is not None
    expanded = document.text.split("\n")
    assert len(document.origins) == len(expanded)
    named = {line.strip(): document.origin(n) for n, line in enumerate(expanded, start=1)}
    assert named["Top."] == Origin("docs/page.md", 1)
    assert named["P."] == Origin("docs/partial.md", 1, None, (("docs/page.md", 3),))
    assert named["x = 6 * 7"] == Origin(
        "docs/partial.md", 2, "snippets/answer.py:make", (("docs/page.md", 3),)
    )
    assert named["End."] == Origin("docs/partial.md", 3, None, (("docs/page.md", 3),))
