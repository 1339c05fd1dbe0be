"""``make outputs``: rewrite stale Output blocks where they are written, for review.

Every page's code is run exactly as the doc tests run it (``conftest.py``): the page
as rendered, includes expanded, one namespace per page, fences in order
(:mod:`testbed.sybil_docs`; the page is read by :mod:`site_build.page`). Each
```` ```text title="Output" ```` block whose text differs from what its code printed
(compared as the doc test compares) is rewritten in the file where it is written: the
page, the partial that holds it, or ``README.md``.
Only the lines between the block's two fences change; every other byte stays.

The pages are run twice, in two processes with different hash seeds, at once; a
block whose code prints differently in the two runs is reported, not rewritten.

Nothing is rewritten, and the run ends with status 1, for:

- a page that cannot be read (a missing snippet or section);
- a block whose code raised;
- a Python block that prints with no Output block after it, or an Output block with
  no Python block before it (``make outputs`` does not add or remove blocks);
- an output that varies between runs;
- a stale block with uncommitted edits of its own (``git diff HEAD``; in a file git does
  not know yet, every line counts), unless ``--force`` (``make outputs FORCE=1``): it
  may be a contributor's hand edit, and its file is left as it is. An empty block is
  filled without asking, and so is a block holding what an earlier ``make outputs``
  wrote (recorded in ``.cache/outputs/written.json``).

Then the claim tests (tests that check sentences with :mod:`testbed.claims`) run, and
the claims that no longer hold are listed with their sentences: prose is for the
contributor to rewrite. Any of these also ends the run with status 1.

Examples
--------
>>> fill(["  ```text title=\\"Output\\"", "  old", "  ```"], 1, 3, "  ", "a\\n\\nb")
['  ```text title="Output"', '  a', '', '  b', '  ```']
>>> content_prefix("- ```text"), content_prefix("> ```text")
('  ', '> ')
"""

from __future__ import annotations

import argparse
import ast
import difflib
import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from sybil.example import SybilFailure

from site_build.page import FENCE, is_output_fence
from testbed.sybil_docs import (
    PAGE_EXCLUDES,
    PAGE_PATTERNS,
    PythonWithOutput,
    RenderedMarkdownDocument,
    expanded_line,
    line_of,
    orphan_output,
    page_parsers,
    printed_by,
)

TESTBED_PARENT = Path(__file__).resolve().parent.parent
RECORD = Path(".cache") / "outputs" / "written.json"


@dataclass
class Block:
    """One Output block, as one page's code ran it."""

    page: str  #: the page whose code printed it
    code: str  #: what printed it ("snippets/x.py · section")
    file: str = ""  #: where the block is written (from the project's root)
    open_line: int = 0  #: its opening fence, 1-based, in ``file``
    close_line: int = 0  #: its closing fence
    where: str = ""  #: the block's place, as written, for messages
    shown: str = ""  #: its text, normalised as the doc test compares it
    printed: str | None = None  #: what the code printed (None: it raised)
    problem: str | None = None  #: why it cannot be rewritten


@dataclass
class PageRun:
    page: str
    blocks: list[Block] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  #: not tied to a block


# --- Running the pages (in a worker process) ---------------------------------------------


def find_pages(root: Path) -> list[str]:
    """The pages the doc tests run (``PAGE_PATTERNS`` less ``PAGE_EXCLUDES``), sorted."""
    found: set[str] = set()
    for pattern in PAGE_PATTERNS:
        for path in root.glob(pattern):
            name = path.relative_to(root).as_posix()
            if path.is_file() and not any(fnmatch.fnmatch(name, x) for x in PAGE_EXCLUDES):
                found.add(name)
    return sorted(found)


def _locate(document: RenderedMarkdownDocument, span: tuple[int, int], block: Block) -> None:
    """Fill in where ``block`` (the fence at ``span`` of the expanded text) is written."""
    start, end = span
    first = line_of(document.text, start)
    last = first + document.text[start:end].rstrip("\n").count("\n")
    block.where = document.written(first)
    if document.origins is None:
        block.problem = "its page's includes could not be mapped to the files as written"
        return
    lines = document.origins[first - 1 : last]
    opening, closing = lines[0], lines[-1]
    inside = lines[1:-1]
    if any(o.include is not None for o in lines) or any(o.file != opening.file for o in lines):
        block.problem = "its text is brought in by an include; edit the included file by hand"
        return
    if [o.line for o in lines] != list(range(opening.line, closing.line + 1)) or (
        inside and inside[0].line != opening.line + 1
    ):
        block.problem = "its lines are not consecutive in the file as written"
        return
    block.file, block.open_line, block.close_line = opening.file, opening.line, closing.line


def run_page(root: Path, page: str) -> PageRun:
    """Run one page's examples in order, as its doc test does, and note every Output block."""
    run = PageRun(page)
    try:
        document = RenderedMarkdownDocument.parse(str(root / page), *page_parsers())
    except Exception as error:  # a missing snippet or section, a fence Sybil cannot read
        run.problems.append(f"{page}: the page could not be read: {type(error).__name__}: {error}")
        return run
    assert isinstance(document, RenderedMarkdownDocument)
    for example in document:
        evaluator = example.region.evaluator
        raised: str | None = None
        failure: str | None = None
        try:
            example.evaluate()
        except SybilFailure as error:
            failure = error.result
            if isinstance(evaluator, PythonWithOutput) and evaluator.raised:
                failure, raised = None, evaluator.raised
        except unittest.SkipTest:
            continue
        except Exception as error:
            raised = f"{type(error).__name__}: {error}"
        except BaseException as error:  # pytest's skip outcome
            if type(error).__name__ == "Skipped":
                continue
            raise
        where = document.written(expanded_line(example))
        if isinstance(evaluator, PythonWithOutput):
            if evaluator.output is None:
                if raised:
                    run.problems.append(f"{where}: the code raised an error at {raised}")
                elif failure:
                    run.problems.append(
                        f"{where}: the code prints, but no Output block follows it: add an "
                        'empty ```text title="Output"``` block after it, then run make outputs'
                    )
                continue
            block = Block(page=page, code=printed_by(example))
            block.shown = _normalise(evaluator.expected or "")
            _locate(document, evaluator.output, block)
            if raised:
                block.problem = f"the code raised an error at {raised}"
            else:
                block.printed = evaluator.printed
            run.blocks.append(block)
        elif evaluator is orphan_output:
            run.problems.append(f"{where}: an Output block with no Python block right before it")
        elif failure or raised:
            run.problems.append(
                f"{where}: a >>> example fails (make outputs rewrites Output blocks only): "
                f"{(failure or raised or '').strip()}"
            )
    return run


def _normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def collect(root: Path, pages: Sequence[str]) -> list[PageRun]:
    """Run ``pages`` of ``root`` in this process (the working directory must be ``root``)."""
    return [run_page(root, page) for page in pages]


def _worker(root: Path, out: Path, pages: Sequence[str]) -> None:
    runs = collect(root, pages)
    out.write_text(json.dumps([asdict(r) for r in runs]), encoding="utf-8")


def _load(path: Path) -> list[PageRun]:
    runs = []
    for raw in json.loads(path.read_text(encoding="utf-8")):
        run = PageRun(raw["page"], [Block(**b) for b in raw["blocks"]], raw["problems"])
        runs.append(run)
    return runs


def run_twice(root: Path, pages: Sequence[str]) -> tuple[list[PageRun], list[PageRun]]:
    """Run the pages in two processes at once, with different hash seeds."""
    with tempfile.TemporaryDirectory() as tmp:
        outs = [Path(tmp) / f"run{i}.json" for i in (1, 2)]
        procs = []
        for seed, out in zip(("1", "2"), outs, strict=True):
            env = {
                **os.environ,
                "PYTHONHASHSEED": seed,
                "PYTHONPATH": os.pathsep.join([str(root), str(TESTBED_PARENT)]),
            }
            command = [sys.executable, "-m", "testbed.outputs", "--worker", str(out), *pages]
            procs.append(subprocess.Popen(command, cwd=root, env=env, stderr=subprocess.PIPE))
        errors = [p.communicate()[1].decode(errors="replace") for p in procs]
        for proc, error in zip(procs, errors, strict=True):
            if proc.returncode != 0:
                raise RuntimeError(f"running the pages failed:\n{error}")
        first, second = _load(outs[0]), _load(outs[1])
    return first, second


# --- Deciding what to rewrite --------------------------------------------------------------


def content_prefix(opening: str) -> str:
    """The prefix of the lines inside a fence opened by ``opening`` (list markers as spaces)."""
    match = FENCE.match(opening)
    prefix = match["indent"] if match else ""
    return re.sub(r"[-*+]|\d+[.)]", lambda m: " " * len(m.group()), prefix)


def fill(lines: list[str], open_line: int, close_line: int, prefix: str, text: str) -> list[str]:
    """``lines`` with the content of the fence on lines ``open_line``..``close_line`` replaced."""
    new = [f"{prefix}{line}" if line else prefix.rstrip() for line in text.split("\n")]
    return [*lines[:open_line], *(new if text else []), *lines[close_line - 1 :]]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def changed_lines(root: Path, file: str) -> set[int] | None:
    """Lines of ``file`` (1-based, as it is now) that differ from git's HEAD.

    None when there is no git repository (no guard then); every line when the file is
    not in HEAD.
    """
    try:
        known = subprocess.run(
            ["git", "cat-file", "-e", f"HEAD:{file}"], cwd=root, capture_output=True
        )
        if known.returncode != 0:
            inside = subprocess.run(
                ["git", "rev-parse", "--is-inside-work-tree"], cwd=root, capture_output=True
            )
            if inside.returncode != 0:
                return None
            count = len((root / file).read_text(encoding="utf-8").split("\n"))
            return set(range(1, count + 1))
        diff = subprocess.run(
            ["git", "diff", "--no-ext-diff", "--no-color", "-U0", "HEAD", "--", file],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    lines: set[int] = set()
    for match in re.finditer(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", diff, re.MULTILINE):
        start, count = int(match[1]), int(match[2] or 1)
        lines.update(range(start, start + max(count, 1) + (0 if count else 1)))
    return lines


@dataclass
class Rewrite:
    block: Block
    old: str
    new: str


@dataclass
class Outcome:
    counts: dict[str, tuple[int, int]]  #: page -> (blocks checked, blocks rewritten)
    rewrites: list[Rewrite]
    problems: list[str]


def plan(
    root: Path, first: list[PageRun], second: list[PageRun], *, force: bool
) -> tuple[list[Rewrite], list[str], dict[str, list[Block]]]:
    """Which blocks to rewrite, and what cannot be fixed (nothing is written here)."""
    problems: list[str] = []
    stale: dict[tuple[str, int], list[Block]] = {}
    by_page: dict[str, list[Block]] = {}
    for one, two in zip(first, second, strict=True):
        problems.extend(one.problems)
        by_page[one.page] = one.blocks
        for block, again in zip(one.blocks, two.blocks, strict=True):
            if block.problem is None and block.printed != again.printed:
                block.problem = (
                    f"its output varies between runs; one run printed:\n{_indent(block.printed)}"
                    f"\nanother printed:\n{_indent(again.printed)}"
                )
            if block.problem is not None:
                problems.append(f"{block.where}: {block.problem} ({block.code}, on {block.page})")
            elif block.printed != block.shown:
                stale.setdefault((block.file, block.open_line), []).append(block)
    record = _read_record(root)
    rewrites: list[Rewrite] = []
    refused_files: set[str] = set()
    for _place, blocks in sorted(stale.items()):
        printed = {b.printed for b in blocks}
        block = blocks[0]
        if len(printed) > 1:
            pages = ", ".join(b.page for b in blocks)
            problems.append(f"{block.where}: the pages that include it ({pages}) print differently")
            continue
        rewrites.append(Rewrite(block, block.shown, block.printed or ""))
    if not force:
        for rewrite in rewrites:
            block = rewrite.block
            edited = changed_lines(root, block.file)
            if not edited or not rewrite.old or _digest(rewrite.old) in record.get(block.file, []):
                continue
            if edited & set(range(block.open_line, block.close_line + 1)):
                refused_files.add(block.file)
                problems.append(
                    f"{block.where}: this stale block has uncommitted edits, maybe by hand; "
                    f"{block.file} is left as it is. Commit or undo the edit "
                    "(git diff shows it), or run `make outputs FORCE=1` to overwrite it"
                )
    kept = [r for r in rewrites if r.block.file not in refused_files]
    return kept, problems, by_page


def _indent(text: str | None) -> str:
    return "\n".join(f"    {line}" for line in (text or "(nothing)").split("\n"))


def _read_record(root: Path) -> dict[str, list[str]]:
    try:
        data = json.loads((root / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def apply(root: Path, rewrites: list[Rewrite]) -> list[str]:
    """Write the rewrites, bottom up in each file; return the problems met."""
    problems: list[str] = []
    record = _read_record(root)
    by_file: dict[str, list[Rewrite]] = {}
    for rewrite in rewrites:
        by_file.setdefault(rewrite.block.file, []).append(rewrite)
    for file, items in sorted(by_file.items()):
        path = root / file
        with path.open(encoding="utf-8", newline="") as handle:
            text = handle.read()
        lines = text.split("\n")
        done: list[Rewrite] = []
        for rewrite in sorted(items, key=lambda r: -r.block.open_line):
            block = rewrite.block
            opening = lines[block.open_line - 1]
            eol = "\r" if opening.endswith("\r") else ""
            prefix = content_prefix(opening.rstrip("\r"))
            current = [line.rstrip("\r") for line in lines[block.open_line : block.close_line - 1]]
            fence = FENCE.match(opening.rstrip("\r"))
            if (
                fence is None
                or not is_output_fence(fence["info"])
                or (_normalise("\n".join(_strip_prefix(x, prefix) for x in current)) != rewrite.old)
            ):
                problems.append(f"{block.where}: the file changed while make outputs ran")
                continue
            new = fill(lines, block.open_line, block.close_line, prefix, rewrite.new)
            if eol:
                span = len(rewrite.new.split("\n")) if rewrite.new else 0
                for i in range(block.open_line, block.open_line + span):
                    new[i] += eol
            lines = new
            done.append(rewrite)
        if done:
            with path.open("w", encoding="utf-8", newline="") as handle:
                handle.write("\n".join(lines))
            ours = record.setdefault(file, [])
            ours.extend(_digest(r.new) for r in done if _digest(r.new) not in ours)
    if rewrites:
        (root / RECORD).parent.mkdir(parents=True, exist_ok=True)
        (root / RECORD).write_text(json.dumps(record, indent=1, sort_keys=True), encoding="utf-8")
    return problems


def _strip_prefix(line: str, prefix: str) -> str:
    return line[len(prefix) :] if line.startswith(prefix) else line.lstrip(" \t>")


# --- Claims ----------------------------------------------------------------------------


def claim_tests(root: Path) -> list[Path]:
    """Test files that check sentences: they import :mod:`testbed.claims` or define ``claim``.

    Only top-level lines count (as in the Makefile's ``CLAIM_TESTS``): a test that
    writes such a line into a string is not a claim test.
    """
    pattern = re.compile(
        r"^(from testbed\.claims import|import testbed\.claims|def claim\()",
        re.M,
    )
    return sorted(
        p
        for p in (root / "tests").glob("test_*.py")
        if pattern.search(p.read_text(encoding="utf-8"))
    )


def sentences(path: Path, test: str) -> list[str]:
    """The string arguments of the ``claim(...)`` calls in test function ``test`` of ``path``.

    Examples
    --------
    >>> import textwrap, tempfile, pathlib
    >>> code = 'def test_a():\\n    claim("x.md", "It grows 4-fold")\\n    claim(f"v {1}")\\n'
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "t.py"); _ = path.write_text(code)
    ...     sentences(path, "test_a")
    ['It grows 4-fold', 'v {…}']
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = test.split("[")[0]
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            for call in ast.walk(node):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Name | ast.Attribute)
                    and _called(call.func) == "claim"
                    and call.args
                ):
                    found.append(_literal(call.args[-1]))
    return found


def _called(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def _literal(node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{…}" for v in node.values)
    return ast.unparse(node)


def run_claim_tests(
    root: Path, files: Sequence[Path], options: Sequence[str], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """Run pytest quietly on the claim test ``files`` in a fresh interpreter at ``root``.

    ``options`` go before the files; ``env`` is added to this process's environment.
    The caller reads what it needs: the exit status, the output, or a report file.
    """
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--no-header",
            *options,
            *[str(f.relative_to(root)) for f in files],
        ],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    )


def failing_claims(root: Path) -> tuple[list[str], list[str]]:
    """Run the claim tests: the claims now false, and the claim tests that could not run.

    One entry per failing test, with its sentences and message. A test whose assertion
    failed says a sentence is now false; a test that stopped on any other exception
    (a NameError, a missing file, an error in a fixture) checked nothing, and is listed
    apart, so that a true sentence is not blamed for a broken test.
    """
    files = claim_tests(root)
    if not files:
        return [], []
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "claims.xml"
        run_claim_tests(
            root,
            files,
            ["-p", "no:randomly", f"--junitxml={report}", "-o", "addopts=-p no:doctest"],
            {"PYTHONPATH": os.pathsep.join([str(root), str(TESTBED_PARENT)])},
        )
        if not report.exists():
            return [], ["the claim tests could not be run (pytest wrote no report)"]
        tree = ET.parse(report)
    false: list[str] = []
    broken: list[str] = []
    for case in tree.iter("testcase"):
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        if failure is None:
            continue
        module = case.get("classname", "").replace(".", "/") + ".py"
        test = case.get("name", "")
        said = sentences(root / module, test) if (root / module).is_file() else []
        message = (failure.get("message") or "").strip().split("\n")[0][:300]
        lines = [f"{module}::{test}: {message}"]
        lines += [f"    claims: {s!r}" for s in said]
        asserted = failure.tag == "failure" and message.startswith(("AssertionError", "assert "))
        (false if asserted else broken).append("\n".join(lines))
    return false, broken


# --- The report --------------------------------------------------------------------------


def _colour(line: str, tty: bool) -> str:
    if not tty:
        return line
    code = {"-": "31", "+": "32"}.get(line[:1])
    return f"\033[{code}m{line}\033[0m" if code else line


def side_by_side(old: list[str], new: list[str], width: int) -> list[str] | None:
    """Old and new lines in two columns (``|`` marks a changed row), or None if too wide.

    Examples
    --------
    >>> for row in side_by_side(["a 1", "b 2"], ["a 1", "b 3", "c 4"], 80):
    ...     print(row)
      was   now
      a 1   a 1
      b 2 | b 3
          | c 4
    """
    column = max(len(x) for x in [*old, *new, "was"])
    if 2 * column + 5 > width:
        return None
    rows = [f"  {'was':<{column}}   now"]
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        left, right = old[a0:a1], new[b0:b1]
        mark = "   " if tag == "equal" else " | "
        for k in range(max(len(left), len(right))):
            a = left[k] if k < len(left) else ""
            b = right[k] if k < len(right) else ""
            rows.append(f"  {a:<{column}}{mark}{b}".rstrip())
    return rows


def render_diff(rewrite: Rewrite, tty: bool = False, width: int = 100) -> list[str]:
    """The old and new text of one block: side by side if it fits, else ``-`` old, ``+`` new."""
    block = rewrite.block
    head = f"{block.file} line {block.open_line}: {block.code}"
    old, new = rewrite.old.split("\n") if rewrite.old else [], rewrite.new.split("\n")
    columns = side_by_side(old, new, width)
    if columns is not None:
        return [head, *columns]
    body = [
        line
        for line in difflib.unified_diff(old, new, lineterm="", n=max(len(old), len(new)))
        if not line.startswith(("---", "+++", "@@"))
    ]
    return [head, *(_colour(f"  {line[0]} {line[1:]}", tty) for line in body)]


def main(argv: Sequence[str] | None = None, root: Path | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make outputs", description=__doc__.split("\n")[0])
    parser.add_argument("--force", action="store_true", help="overwrite hand-edited blocks")
    parser.add_argument("--no-claims", action="store_true", help="skip the claim tests")
    parser.add_argument("--worker", metavar="OUT", help=argparse.SUPPRESS)
    parser.add_argument("pages", nargs="*", help="pages to run (default: every page)")
    args = parser.parse_args(argv)
    root = (root or Path.cwd()).resolve()
    if args.worker:
        _worker(root, Path(args.worker), args.pages)
        return 0
    pages = args.pages or find_pages(root)
    first, second = run_twice(root, pages)
    rewrites, problems, by_page = plan(root, first, second, force=args.force)
    problems += apply(root, rewrites)
    tty = sys.stdout.isatty()
    rewritten = {(r.block.file, r.block.open_line) for r in rewrites}
    print("make outputs: Output blocks checked and rewritten, per page")
    for page, blocks in by_page.items():
        mine = sum((b.file, b.open_line) in rewritten for b in blocks)
        print(f"  {page}: {len(blocks)} checked, {mine} rewritten")
    if rewrites:
        print(
            f"\nRewritten ({len(rewrites)}), old text beside new: review it before "
            "committing (git diff shows it too)"
        )
        width = shutil.get_terminal_size((100, 24)).columns
        for rewrite in rewrites:
            print("\n".join(render_diff(rewrite, tty, width)))
    else:
        print("\nNothing to rewrite: every Output block shows what its code prints.")
    claims, broken = ([], []) if args.no_claims else failing_claims(root)
    if claims:
        print(
            f"\nClaims that no longer hold ({len(claims)}): make outputs cannot rewrite prose;"
            " reword each sentence (and its test) to the new numbers"
        )
        for entry in claims:
            print(f"  {entry}")
    if broken:
        print(
            f"\nClaim tests that could not run ({len(broken)}): they checked nothing, so their"
            " sentences may still be true; fix the error first"
        )
        for entry in broken:
            print(f"  {entry}")
    if problems:
        print(f"\nNot fixed ({len(problems)}):")
        for problem in problems:
            print(f"  {problem}")
    return 1 if problems or claims or broken else 0


if __name__ == "__main__":
    sys.exit(main())
