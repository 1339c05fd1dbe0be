"""``make outputs`` (testbed/outputs.py) rewrites stale Output blocks, and only them.

The first test runs it on a copy of this repository after changing the worked
example's input, as a contributor would; the others run it on tiny projects (a
``mkdocs.yml``, a page, a snippet, a git repository) to reach each of its refusals.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from textwrap import dedent

import pytest

from site_build import worked_example
from testbed import ci_summary, outputs
from testbed.worked_input import with_input
from tests.test_sybil_docs import MKDOCS_YML

ROOT = Path(__file__).resolve().parent.parent
FENCE = "```"
OUTPUT_OPENING = re.compile(r"^[ \t>]*```text title=\"Output\"\s*$")
FENCE_CLOSING = re.compile(r"^[ \t>]*```\s*$")


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def output_lines(text: str) -> set[int]:
    """Lines (1-based) strictly inside an Output block: an oracle of its own, by regex."""
    inside, found = False, set()
    for number, line in enumerate(text.split("\n"), start=1):
        if not inside and OUTPUT_OPENING.match(line):
            inside = True
        elif inside and FENCE_CLOSING.match(line):
            inside = False
        elif inside:
            found.add(number)
    return found


def changed(folder: Path) -> dict[str, tuple[set[int], set[int]]]:
    """For each changed file: (old lines removed, new lines added), from git diff."""
    found: dict[str, tuple[set[int], set[int]]] = {}
    diff = git(folder, "diff", "-U0", "--no-color", "HEAD")
    name = ""
    for line in diff.splitlines():
        if line.startswith("+++ b/"):
            name = line[6:]
            found[name] = (set(), set())
        elif match := re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", line):
            old, old_n, new, new_n = (int(g) if g else 1 for g in match.groups())
            old_n = 0 if match[2] == "0" else old_n
            new_n = 0 if match[4] == "0" else new_n
            found[name][0].update(range(old, old + old_n))
            found[name][1].update(range(new, new + new_n))
    return found


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "testbed.outputs", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": f"{folder}{os.pathsep}{ROOT}"},
    )


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This repository's files (tracked and new, as in the working tree) in a fresh git repo."""
    folder = tmp_path_factory.mktemp("repo")
    names = git(ROOT, "ls-files", "-co", "--exclude-standard").splitlines()
    for name in names:
        source = ROOT / name
        if source.is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name)
    git(folder, "init", "-q")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "copy")
    return folder


def by_hand(q: list[float], keys: list[list[float]], values: list[list[float]]) -> list[float]:
    """Attention for one query, written out: dot products, sqrt(d_k), math.exp, a blend."""
    e = [math.exp(sum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(len(q))) for k in keys]
    columns = zip(*values, strict=True)
    return [sum(x * c for x, c in zip(e, column, strict=True)) / sum(e) for column in columns]


def test_a_changed_input_rewrites_only_the_output_blocks(copy: Path) -> None:
    snippet = copy / "snippets" / "worked_example.py"
    was = worked_example.read(snippet)
    v_1 = [was.values[0][0], was.values[0][1] + 1]  # its second coordinate one more
    text = with_input(snippet.read_text(encoding="utf-8"), "v_1", v_1)
    snippet.write_text(text, encoding="utf-8")
    git(copy, "commit", "-q", "-am", f"v_1 = {v_1}")
    before = {p: p.read_bytes() for p in copy.rglob("*.md")}

    first = run(copy, "--no-claims")
    assert first.returncode == 0, first.stdout + first.stderr
    diff = changed(copy)
    assert diff, "nothing was rewritten"
    assert all(name.endswith(".md") for name in diff), diff
    for name, (removed, added) in diff.items():
        old = git(copy, "show", f"HEAD:{name}")
        new = (copy / name).read_text(encoding="utf-8")
        assert removed <= output_lines(old), f"{name}: lines outside Output blocks removed"
        assert added <= output_lines(new), f"{name}: lines outside Output blocks added"
        assert len(old.split("\n")) - len(removed) == len(new.split("\n")) - len(added)
    # The home page's answer, by hand, before and after (only its second coordinate moves).
    old = str([round(x, 2) for x in by_hand(was.q, was.keys, was.values)])
    now = by_hand(was.q, was.keys, [v_1, *was.values[1:]])
    new = str([round(x, 2) for x in now])
    assert old != new and old.split(",")[0] == new.split(",")[0]
    index = (copy / "docs" / "index.md").read_text(encoding="utf-8")
    assert f'```text title="Output"\n{new}\n```' in index
    assert f"docs/index.md line {index.split(chr(10)).index(new)}" in first.stdout
    assert "docs/index.md: 1 checked, 1 rewritten" in first.stdout
    assert f"  {old} | {new}\n" in first.stdout  # old beside new

    doc_tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "docs", "README.md"],
        cwd=copy,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(copy)},
    )
    assert doc_tests.returncode == 0, doc_tests.stdout[-3000:]

    rewritten = {p: p.read_bytes() for p in copy.rglob("*.md")}
    assert rewritten != before
    again = run(copy, "--no-claims")
    assert again.returncode == 0 and "Nothing to rewrite" in again.stdout
    assert {p: p.read_bytes() for p in copy.rglob("*.md")} == rewritten


# --- Tiny projects ----------------------------------------------------------------------


def project(tmp_path: Path, page: str, snippet: str = "", commit: bool = True) -> Path:
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML)
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "s.py").write_text(dedent(snippet))
    (tmp_path / "docs" / "page.md").write_text(dedent(page).replace("~~~", FENCE))
    git(tmp_path, "init", "-q")
    if commit:
        git(tmp_path, "add", "-A")
        git(tmp_path, "commit", "-q", "-m", "start")
    return tmp_path / "docs" / "page.md"


SNIPPET = """\
# --8<-- [start:show]
print(6 * 7)
# --8<-- [end:show]
"""


def test_a_block_in_a_partial_is_rewritten_in_the_partial(tmp_path: Path) -> None:
    page = project(tmp_path, 'Top.\n\n!!! note\n\n    --8<-- "docs/partial.md"\n', SNIPPET)
    partial = tmp_path / "docs" / "partial.md"
    partial.write_text(
        '??? note\n\n    ~~~python\n    --8<-- "snippets/s.py:show"\n    ~~~\n\n'
        '    ~~~text title="Output"\n    41\n    ~~~\n\n    The end.  \n'.replace("~~~", FENCE)
    )
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "partial")
    before, page_before = partial.read_bytes(), page.read_bytes()
    done = run(tmp_path, "--no-claims")
    assert done.returncode == 0, done.stdout + done.stderr
    assert page.read_bytes() == page_before
    assert partial.read_bytes() == before.replace(b"    41\n", b"    42\n")
    assert "docs/partial.md line 7: snippets/s.py · show" in done.stdout


# Pages the tool cannot update: (page, snippet, what it says). It names the page and
# line, exits 1 and leaves the page as it was.
REFUSED = {
    "a raising snippet": (
        '~~~python\n--8<-- "snippets/s.py:show"\n~~~\n\n~~~text title="Output"\n1\n~~~\n',
        "# --8<-- [start:show]\nraise ValueError('no such token')\n# --8<-- [end:show]\n",
        "docs/page.md line 5: the code raised an error at snippets/s.py line 2, included by "
        "docs/page.md line 2: ValueError: no such token\n"
        ">    2 | raise ValueError('no such token')",
    ),
    "a missing include": (
        '~~~python\n--8<-- "snippets/s.py:nope"\n~~~\n',
        SNIPPET,
        "docs/page.md: the page could not be read: SnippetMissingError",
    ),
    "a missing output block": (
        '~~~python\n--8<-- "snippets/s.py:show"\n~~~\n\nText.\n',
        SNIPPET,
        "docs/page.md line 1: the code prints, but no Output block follows it",
    ),
    "an output that varies between runs": (
        '~~~python\nprint(sorted({"a", "b", "c", "d", "e"}, key=hash)[0])\n~~~\n\n'
        '~~~text title="Output"\nz\n~~~\n',
        "",
        "docs/page.md line 5: its output varies between runs",
    ),
}


@pytest.mark.parametrize(("page_text", "snippet", "message"), REFUSED.values(), ids=REFUSED)
def test_a_page_it_cannot_update_is_reported_and_left_alone(
    tmp_path: Path, page_text: str, snippet: str, message: str
) -> None:
    page = project(tmp_path, page_text, snippet)
    before = page.read_bytes()
    done = run(tmp_path, "--no-claims")
    assert done.returncode == 1, done.stdout + done.stderr
    assert page.read_bytes() == before
    assert message in done.stdout


def test_an_output_block_without_code_is_reported(tmp_path: Path) -> None:
    page = project(tmp_path, 'Text.\n\n~~~text title="Output"\n42\n~~~\n')
    done = run(tmp_path, "--no-claims")
    assert done.returncode == 1
    assert "docs/page.md line 3: an Output block with no Python block right before it" in (
        done.stdout
    )
    assert page.read_text() == 'Text.\n\n```text title="Output"\n42\n```\n'


HAND_EDITED = '~~~python\n--8<-- "snippets/s.py:show"\n~~~\n\n~~~text title="Output"\n42\n~~~\n'


def test_a_hand_edited_stale_block_is_refused_unless_forced(tmp_path: Path) -> None:
    page = project(tmp_path, HAND_EDITED, SNIPPET)
    page.write_text(page.read_text().replace("\n42\n", "\n43\n"))  # an uncommitted edit
    done = run(tmp_path, "--no-claims")
    assert done.returncode == 1
    assert "43" in page.read_text()
    assert "docs/page.md line 5: this stale block has uncommitted edits" in done.stdout
    assert "make outputs FORCE=1" in done.stdout
    forced = run(tmp_path, "--no-claims", "--force")
    assert forced.returncode == 0, forced.stdout
    assert page.read_text() == HAND_EDITED.replace("~~~", FENCE)


def test_its_own_rewrite_is_not_taken_for_a_hand_edit(tmp_path: Path) -> None:
    snippet = SNIPPET.replace("6 * 7", "6 * 8")
    page = project(tmp_path, HAND_EDITED, snippet)
    assert run(tmp_path, "--no-claims").returncode == 0  # 42 -> 48, not committed
    assert "\n48\n" in page.read_text()
    (tmp_path / "snippets" / "s.py").write_text(SNIPPET.replace("6 * 7", "6 * 9"))
    again = run(tmp_path, "--no-claims")
    assert again.returncode == 0, again.stdout
    assert "\n54\n" in page.read_text()


def test_an_empty_block_of_a_new_page_is_filled(tmp_path: Path) -> None:
    page = project(
        tmp_path,
        '~~~python\n--8<-- "snippets/s.py:show"\n~~~\n\n~~~text title="Output"\n~~~\n',
        SNIPPET,
        commit=False,
    )
    done = run(tmp_path, "--no-claims")
    assert done.returncode == 0, done.stdout
    assert page.read_text().endswith('```text title="Output"\n42\n```\n')


def test_claims_that_no_longer_hold_are_listed_with_their_sentence(tmp_path: Path) -> None:
    project(tmp_path, "Text.\n\n~~~python\nx = 1\n~~~\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_c.py").write_text(
        dedent(
            """\
            def claim(sentence):
                assert sentence in "The weights add up to 2."


            def test_sum():
                claim("The weights add up to 1.")
            """
        )
    )
    done = run(tmp_path)
    assert done.returncode == 1
    assert "Claims that no longer hold (1)" in done.stdout
    assert "tests/test_c.py::test_sum" in done.stdout
    assert "claims: 'The weights add up to 1.'" in done.stdout


def test_a_claim_test_that_cannot_run_is_not_called_false(tmp_path: Path) -> None:
    project(tmp_path, "Text.\n\n~~~python\nx = 1\n~~~\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_c.py").write_text(
        dedent(
            """\
            def claim(sentence):
                assert sentence in "The weights add up to 1."


            def test_sum():
                total = weights_of_the_page()  # a NameError: the test checks nothing
                claim(f"The weights add up to {total}.")


            def test_false():
                claim("The weights add up to 2.")
            """
        )
    )
    done = run(tmp_path)
    assert done.returncode == 1
    false, _, broken = done.stdout.partition("Claim tests that could not run (1)")
    assert "Claims that no longer hold (1)" in false
    assert "tests/test_c.py::test_false" in false and "test_sum" not in false
    assert "tests/test_c.py::test_sum: NameError: name 'weights_of_the_page'" in broken


def test_find_pages_uses_the_doc_tests_patterns(tmp_path: Path) -> None:
    for name in ("README.md", "docs/a.md", "docs/n/b.md", "docs/partials/p.md", "docs/x.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    assert outputs.find_pages(tmp_path) == ["README.md", "docs/a.md", "docs/n/b.md"]


def test_the_ci_summary_names_the_pages_whose_output_blocks_changed(tmp_path: Path) -> None:
    page = project(
        tmp_path,
        'Top.\n\n--8<-- "docs/partial.md"\n\n~~~python\nprint(1)\n~~~\n\n'
        '~~~text title="Output"\n1\n~~~\n',
    )
    partial = tmp_path / "docs" / "partial.md"
    partial.write_text(
        '~~~python\nprint(2)\n~~~\n\n~~~text title="Output"\n2\n~~~\n'.replace("~~~", FENCE)
    )
    (tmp_path / "docs" / "other.md").write_text("No code.\n")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "base")
    partial.write_text(partial.read_text().replace("\n2\n", "\n3\n"))
    page.write_text(page.read_text().replace("Top.", "The top."))  # prose: not an Output
    text = ci_summary.summary(tmp_path, "HEAD", {"GITHUB_RUN_ID": "7"})
    assert "| `docs/page.md` | 2 | 2 |" in text and "| `docs/other.md` | 0 | 0 |" in text
    changed = text.split("## Output blocks changed")[1].split("## Open")[0]
    assert "- `docs/page.md`: 1 block(s): `docs/partial.md` line 5" in changed
    assert "other.md" not in changed
    assert "actions/runs/7#artifacts" in text


def test_claim_tests_are_the_files_that_check_sentences() -> None:
    found = {p.name for p in outputs.claim_tests(ROOT)}
    assert {"test_claims.py", "test_self_attention_claims.py"} <= found
    # This file writes a `def claim(` into a string: that does not make it a claim test.
    assert "test_outputs.py" not in found
