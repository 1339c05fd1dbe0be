"""``make claims PAGE=docs/attention.md``: every claim sentence of a page, with its test.

A contributor about to edit a page's prose sees which of its sentences are claims (a
test recomputes what they say and finds them on the page) and which test checks each
one. The claim tests run once, with :func:`testbed.claims.claim` recording every
sentence it is asked to find (``CLAIMS_RECORD``); a test that fails is listed with its
message, since the sentences it checks after the failing line were not reached.

Examples
--------
>>> page_key("docs/attention.md"), page_key("attention.md"), page_key("README.md")
('attention.md', 'attention.md', 'README.md')
>>> lines = listing([{"page": "a.md", "sentence": "It is 3.", "test": "tests/t.py::test_x"},
...                  {"page": "b.md", "sentence": "No.", "test": "tests/t.py::test_y"}], "a.md")
>>> print("\\n".join(lines))
tests/t.py::test_x
    It is 3.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from testbed.outputs import claim_tests, run_claim_tests

ROOT = Path(__file__).resolve().parent.parent


def page_key(page: str) -> str:
    """The page as claim tests name it: its path under ``docs/``, or ``README.md``."""
    path = Path(page)
    return path.relative_to("docs").as_posix() if path.parts[:1] == ("docs",) else path.as_posix()


def listing(records: Sequence[dict[str, str]], page: str) -> list[str]:
    """Lines grouping the recorded sentences of ``page`` by test, in the order they ran."""
    by_test: dict[str, list[str]] = {}
    for record in records:
        if record["page"] == page and record["sentence"] not in by_test.get(record["test"], []):
            by_test.setdefault(record["test"], []).append(record["sentence"])
    lines: list[str] = []
    for test, said in by_test.items():
        lines.append(test)
        lines += [f"    {sentence}" for sentence in said]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("page", help="a page, e.g. docs/attention.md (or README.md)")
    args = parser.parse_args(argv)
    page = page_key(args.page)
    source = ROOT / page if page == "README.md" else ROOT / "docs" / page
    if not source.is_file():
        print(f"no page {args.page!r}: give a path such as docs/attention.md", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "claims.jsonl"
        record.touch()
        run = run_claim_tests(
            ROOT, claim_tests(ROOT), ["-rf", "--tb=line"], {"CLAIMS_RECORD": str(record)}
        )
        records = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    lines = listing(records, page)
    count = sum(not line.startswith(" ") for line in lines)
    print("\n".join(lines))
    print(f"\n{len(lines) - count} claim sentences of {page}, checked by {count} tests.")
    failed = [line for line in run.stdout.splitlines() if line.startswith("FAILED")]
    if failed:
        print("\nThese claim tests fail (their later sentences may be missing above):")
        print("\n".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
