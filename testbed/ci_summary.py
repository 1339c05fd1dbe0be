"""The CI job's summary: examples per page, Output blocks changed, how to open the site.

``python -m testbed.ci_summary [BASE]`` prints Markdown (CI appends it to
``$GITHUB_STEP_SUMMARY``):

- the Sybil examples collected on each page (parsed as the doc tests parse them);
- which pages' Output blocks the change touched: the lines ``git diff BASE`` changes,
  matched with the lines where each page's Output blocks are written (partials
  included, so a block in a partial names every page that shows it); BASE defaults
  to ``HEAD^1``, the base branch of a pull request's merge commit;
- where the built site is and how to open it.

Examples
--------
>>> touched("@@ -3,2 +3,4 @@\\n@@ -10 +12,0 @@\\n")
{3, 4, 5, 6, 12}
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from testbed.outputs import find_pages
from testbed.sybil_docs import PythonWithOutput, RenderedMarkdownDocument, line_of, page_parsers

ROOT = Path(__file__).resolve().parent.parent


def touched(diff: str) -> set[int]:
    """Lines of the new file that a ``git diff -U0`` of one file adds or borders a removal."""
    lines: set[int] = set()
    for match in re.finditer(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", diff, re.MULTILINE):
        start, count = int(match[1]), int(match[2] if match[2] is not None else 1)
        lines.update(range(start, start + count) if count else {start})
    return lines


def output_blocks(root: Path, page: str) -> tuple[int, list[tuple[str, int, int]]]:
    """The page's example count, and (file, first line, last line) of each Output block."""
    document = RenderedMarkdownDocument.parse(str(root / page), *page_parsers())
    assert isinstance(document, RenderedMarkdownDocument)
    examples = list(document)
    blocks = []
    for example in examples:
        evaluator = example.region.evaluator
        if isinstance(evaluator, PythonWithOutput) and evaluator.output is not None:
            start, end = evaluator.output
            first = line_of(document.text, start)
            last = first + document.text[start:end].rstrip("\n").count("\n")
            opening, closing = document.origin(first), document.origin(last)
            if opening and closing and opening.file == closing.file:
                blocks.append((opening.file, opening.line, closing.line))
    return len(examples), blocks


def changed_lines(root: Path, base: str, file: str) -> set[int]:
    done = subprocess.run(
        ["git", "diff", "--no-ext-diff", "--no-color", "-U0", base, "--", file],
        cwd=root,
        capture_output=True,
        text=True,
    )
    return touched(done.stdout) if done.returncode == 0 else set()


def summary(root: Path, base: str, env: dict[str, str]) -> str:
    rows, changed = [], []
    cache: dict[str, set[int]] = {}
    for page in find_pages(root):
        count, blocks = output_blocks(root, page)
        rows.append(f"| `{page}` | {count} | {len(blocks)} |")
        hits = []
        for file, first, last in blocks:
            if file not in cache:
                cache[file] = changed_lines(root, base, file)
            if cache[file] & set(range(first, last + 1)):
                hits.append(f"`{file}` line {first}")
        if hits:
            changed.append(f"- `{page}`: {len(hits)} block(s): {', '.join(hits)}")
    run = "{}/{}/actions/runs/{}".format(
        env.get("GITHUB_SERVER_URL", "https://github.com"),
        env.get("GITHUB_REPOSITORY", "OWNER/REPO"),
        env.get("GITHUB_RUN_ID", "RUN"),
    )
    artifact = env.get("SITE_ARTIFACT_URL") or f"{run}#artifacts"
    parts = [
        "## Doc tests",
        "",
        "| page | Sybil examples | Output blocks |",
        "|---|---:|---:|",
        *rows,
        "",
        f"## Output blocks changed (against `{base}`)",
        "",
        *(changed or ["None: no Output block changed."]),
        "",
        "Read these in the pull request's diff: every number in them is new to readers.",
        "",
        "## Open the built site",
        "",
        f"Download the artifact `site` ([this run's artifacts]({artifact})), unzip it, then "
        "serve it and open <http://127.0.0.1:8000/>:",
        "",
        "```bash",
        "unzip site.zip -d site && python3 -m http.server --directory site 8000",
        "```",
    ]
    return "\n".join(parts) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    base = args[0] if args else "HEAD^1"
    sys.stdout.write(summary(ROOT, base, dict(os.environ)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
