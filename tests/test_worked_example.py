"""Lesson 1's worked example has one source, and a change to it reaches every page.

- Its inputs are written once, in ``snippets/worked_example.py``. No literal copy of
  them is left anywhere else in the repository, in any bracket, spacing or number
  format, but in the few places :data:`ALLOWED` names, each with its reason.
- A contributor's change to an input, then ``make outputs``, leaves the site
  consistent: in a copy of the repository, ``k_1`` is changed, ``make outputs``
  (``testbed.outputs``) rewrites lesson 1's and the home page's Output blocks and
  reports, as no longer holding, exactly the sentences the change made false; then
  the pages' doc tests pass, and the explorer's data and the published practice files
  carry the new input (the solutions still pass their checks).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator, Sequence
from pathlib import Path

from bench.build import project_files
from site_build.worked_example import SOURCE, read
from testbed.worked_input import with_input

ROOT = Path(__file__).resolve().parent.parent

# --- finding literal copies -----------------------------------------------------------------

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
#: A row written as a list or tuple of numbers: (1, 0), [1.0, 0.0], {1,0} (a set or a JS
#: object would be odd, but cost nothing to catch). Not a call's arguments: f(1, 0).
_ROW = re.compile(rf"(?<![\w.])[\[({{]\s*({_NUMBER}(?:\s*,\s*{_NUMBER})*)\s*,?\s*[\])}}]")
#: A TeX matrix: rows split by \\, entries by &.
_TEX = re.compile(r"\\begin\{[bBpvV]?matrix\}(.*?)\\end\{[bBpvV]?matrix\}", re.DOTALL)
_OUTPUT_BLOCK = re.compile(r'^([ \t>]*)```text title="Output"[ \t]*\n.*?^\1```[ \t]*$', re.S | re.M)

Row = tuple[float, ...]


def rows(text: str) -> list[tuple[int, Row]]:
    """Every row of numbers written in ``text``, in order, with the offset where it starts."""
    found = [
        (m.start(), tuple(float(x) for x in re.split(r"\s*,\s*", m[1].strip())))
        for m in _ROW.finditer(text)
    ]
    for matrix in _TEX.finditer(text):
        start = matrix.start(1)
        for line in matrix[1].split(r"\\"):
            cells = [c.strip() for c in line.split("&")]
            if cells and all(re.fullmatch(_NUMBER, c) for c in cells):
                found.append((start, tuple(float(c) for c in cells)))
            start += len(line) + 2
    return sorted(found)


def patterns(
    keys: Sequence[Sequence[float]], values: Sequence[Sequence[float]]
) -> dict[str, list[Row]]:
    """What counts as a copy: the whole keys matrix, the whole values matrix, and any two
    consecutive value rows. Keys are rows of 0 and 1 that other examples share (lesson
    2's tokens start with the same two rows), so only all of them together count."""
    as_rows = [tuple(float(x) for x in r) for r in values]
    found = {
        "the keys": [tuple(float(x) for x in r) for r in keys],
        "the values": as_rows,
    }
    for i in range(len(as_rows) - 1):
        found[f"values v_{i + 1}, v_{i + 2}"] = as_rows[i : i + 2]
    return found


def copies(text: str, wanted: dict[str, list[Row]]) -> Iterator[tuple[int, str]]:
    """(line, what) for each run of consecutive rows of ``text`` that is one of ``wanted``.

    Output blocks (```` ```text title="Output" ````) are left out: ``make outputs``
    writes them from what the code prints, and rewrites them when an input changes.
    """
    text = _OUTPUT_BLOCK.sub(lambda m: "\n" * m[0].count("\n"), text)
    found = rows(text)
    for what, pattern in wanted.items():
        n = len(pattern)
        for i in range(len(found) - n + 1):
            if [r for _, r in found[i : i + n]] == pattern:
                yield text.count("\n", 0, found[i][0]) + 1, what


#: Where a literal copy is allowed, and why. attention_ref is the package readers install
#: on its own (numpy only): its docstring examples cannot read a snippet of this site,
#: and they run as doctests in CI, so they cannot go stale unseen.
ALLOWED = {
    "attention_ref/__init__.py": "attention_ref's own docstring example (a doctest)",
    "attention_ref/core.py": "attention_ref's own docstring examples (doctests)",
    "attention_ref/_fast.py": "attention_ref's own docstring example (a doctest)",
    "attention_ref/at_scale.py": "attention_ref's own docstring example (a doctest)",
}


def literal_copies(root: Path) -> list[tuple[str, int, str]]:
    """(file, line, what) for every copy of the worked example's inputs under ``root``,
    its one source excepted."""
    example = read(root / "snippets" / "worked_example.py")
    wanted = patterns(example.keys, example.values)
    found = []
    for name in project_files(root):
        if name == "snippets/worked_example.py":
            continue
        try:
            text = (root / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # not text
        found += [(name, line, what) for line, what in copies(text, wanted)]
    return found


def test_the_finder_sees_every_spelling_of_a_matrix() -> None:
    wanted = {"m": [(3.0, 1.0), (4.0, 1.0)]}  # a made-up matrix, not the lesson's
    spelled = [
        "m = [[3, 1], [4, 1]]",
        "M = np.array([[3.0, 1.0],\n               [4.0, 1.00]])  # (2, 2)",
        "const M = [[3,1],[4,1]];",
        "a, b = (3, 1), (4, 1)",
        "a = [3, 1]  # first\nb = [4, 1]  # second",
        r"$$\begin{bmatrix} 3 & 1 \\ 4 & 1 \end{bmatrix}$$",
        '{"m": [[3e0, 1], [4, 1.0]]}',
    ]
    for text in spelled:
        assert [what for _, what in copies(text, wanted)] == ["m"], text
    unlike = [
        "m = [[3, 1], [4, 2]]",  # another matrix
        "f(3, 1), f(4, 1)",  # calls, not rows
        '```text title="Output"\n[[3, 1], [4, 1]]\n```',  # printed by the code
        "m = [[4, 1], [3, 1]]",  # another order
    ]
    for text in unlike:
        assert list(copies(text, wanted)) == [], text
    assert list(copies("x\n\ny = [[3, 1], [4, 1]]", wanted)) == [(3, "m")]


def test_no_literal_copy_of_the_inputs_is_left() -> None:
    found = literal_copies(ROOT)
    allowed = [c for c in found if c[0] in ALLOWED]
    stray = [c for c in found if c[0] not in ALLOWED]
    print(f"literal copies of the worked example's inputs: {len(stray)} ({len(allowed)} allowed)")
    assert not stray, (
        "literal copies of the worked example's inputs (snippets/worked_example.py is their "
        "one source: import them, `from worked_example import q, K, V`, or read them with "
        "site_build.worked_example.read()):\n"
        + "\n".join(f"  {name}:{line}: {what}" for name, line, what in stray)
    )
    # Each allowed copy is a docstring example, and each allowance is still needed.
    for name, line, what in allowed:
        shown = (ROOT / name).read_text(encoding="utf-8").split("\n")[line - 1].lstrip()
        assert shown.startswith((">>>", "...")), f"{name}:{line}: {what} outside a doctest"
    assert {c[0] for c in allowed} == set(ALLOWED), "an allowance no longer needed: drop it"


# --- a changed input, in a copy of the repository ---------------------------------------------

#: What `make outputs` and the doc tests of lesson 1 and the home page need.
NEEDED = (
    "mkdocs.yml",
    "conftest.py",
    "pyproject.toml",
    "attention_ref",
    "data",
    "docs",
    "site_build",
    "snippets",
    "testbed",
    "tests/__init__.py",
    "tests/test_heatmap_data.py",  # imported by the partials' claims
    # The claim tests of lesson 1 and of what it includes, and of the home page:
    "tests/test_attention_claims.py",
    "tests/test_partials_claims.py",
    "tests/test_claims.py",
)

#: The claim tests whose sentences the change (k_1's first entry up by one) makes false,
#: with the reason; every other claim test of the copy must still pass. Worked out for
#: the lesson's inputs as they are; a new worked example may make other sentences false.
MADE_FALSE = {
    "tests/test_attention_claims.py::test_the_keys_match_the_query_fully_not_at_all_and_by_half": (
        "k_1 no longer has exactly the query's pattern"
    ),
    "tests/test_attention_claims.py::test_rows_printed_to_three_decimals_add_up_to_the_output": (
        "the rows printed to three decimals now add up to one thousandth less than the output"
    ),
    "tests/test_attention_claims.py::test_a_weight_is_not_a_contribution": (
        "v_1 now gives 93% of the first coordinate, not 89%"
    ),
    "tests/test_partials_claims.py::test_step_one_quotes_the_worked_examples_dot_product": (
        "the practice's step 1 quotes dot(q, k_1) with the old k_1"
    ),
}

#: In the copy: the explorer's data and the published practice files carry the new input,
#: and every solution of a step that uses it passes its published checks.
CONSISTENT = textwrap.dedent(
    """
    import sys
    import types
    from pathlib import Path

    from site_build import practice
    from site_build.widget_data import explorer_data
    from site_build.worked_example import read

    new = read()
    shown = explorer_data()["worked_example"]
    assert (shown["q"], shown["keys"], shown["values"]) == (new.q, new.keys, new.values)
    index = Path("docs/index.md").read_text(encoding="utf-8")
    assert str([round(x, 2) for x in shown["output"]]) in index, "the explorer, the home page"

    folder = Path("snippets/practice")
    files = practice.site_files(folder, Path("node_modules/pyodide"))
    sys.modules["_harness"] = harness = practice.load_harness(folder)
    used = 0
    for lesson in ("attention", "self-attention"):
        for step in practice.read_steps(folder / lesson):
            if "_worked_example" not in (folder / lesson / step.id / "checks.py").read_text():
                continue
            used += 1
            published = files[f"practice/files/{step.id}/checks.py"]
            assert f"K = {new.keys!r}" in published, step.id
            module = types.ModuleType("checks_" + step.id)
            exec(compile(published, step.id, "exec"), module.__dict__)
            failed = [r.name for r in harness.run(module, step.solution) if not r.passed]
            assert not failed, (step.id, failed)
    assert used == 8, used  # lesson 1's seven steps and lesson 2's padding step
    print("consistent:", used, "practice steps")
    """
)


def copy_needed(dest: Path) -> Path:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", *NEEDED],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            (dest / name).write_bytes((ROOT / name).read_bytes())
    (dest / "node_modules").symlink_to(ROOT / "node_modules")  # Pyodide's sizes, node
    return dest


def in_copy(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, *args], cwd=copy, capture_output=True, text=True, env=env, timeout=300
    )


def test_a_changed_input_reaches_every_page(tmp_path: Path) -> None:
    copy = copy_needed(tmp_path / "repo")
    source = copy / SOURCE.relative_to(ROOT)
    was = read(source)
    assert was.keys[0] == was.q, "this test expects k_1 to have the query's pattern at first"
    k_1 = [was.keys[0][0] + 1, *was.keys[0][1:]]  # k_1 = [2, 0, 1, 0], from [1, 0, 1, 0]
    source.write_text(with_input(source.read_text(encoding="utf-8"), "k_1", k_1), "utf-8")
    assert read(source).keys == [k_1, *was.keys[1:]]

    # What `make outputs` runs (python -m testbed.outputs), on the pages the example is on.
    done = in_copy(copy, "-m", "testbed.outputs", "docs/attention.md", "docs/index.md")
    report = done.stdout
    assert done.returncode == 1, report + done.stderr  # 1: claims no longer hold
    assert "Not fixed" not in report, report
    assert "Claim tests that could not run" not in report, report  # false, not broken
    assert re.search(r"docs/attention\.md: \d+ checked, [1-9]\d* rewritten", report), report
    assert "docs/index.md: 1 checked, 1 rewritten" in report, report
    listed = set(re.findall(r"^  (tests/\S+::\S+): ", report, re.MULTILINE))
    assert listed == set(MADE_FALSE), (
        f"claims reported as no longer holding: {sorted(listed)}\n"
        f"expected (sentences the change made false): {sorted(MADE_FALSE)}\n\n{report}"
    )
    # The two sentences that used to lie after such a change, on copies of their own:
    assert "test_the_keys_are_a_set" not in report  # "The keys are a set" prints the new output
    assert "test_even_the_tiny_example_is_more_lopsided_unscaled" not in report  # doubled row

    # The pages as rewritten pass their doc tests (Sybil), and so do the docstrings of
    # the code that reads the example.
    docs = in_copy(
        copy,
        *("-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-n", "0"),
        *("docs/attention.md", "docs/index.md", "site_build/widget_data.py"),
        *("site_build/worked_example.py", "site_build/practice.py"),
    )
    assert docs.returncode == 0, docs.stdout[-4000:] + docs.stderr[-2000:]
    ran = r"Sybil examples per page: docs/attention\.md \d+, docs/index\.md 1"
    assert re.search(ran, docs.stdout), docs.stdout[-2000:]

    # The explorer's data and the practice files follow the new input.
    consistent = in_copy(copy, "-c", CONSISTENT)
    assert consistent.returncode == 0, consistent.stdout + consistent.stderr[-4000:]
