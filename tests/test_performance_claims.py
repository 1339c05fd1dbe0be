"""docs/performance.md: its tables are the bench record's, and its own numbers are the code's.

The page's tables (and the lines around them) are ``bench/results.md``, included whole.
``make bench`` measures and writes the record ``bench/results.json``, then the tables
from it; ``python -m bench --write-page`` rewrites them from the record alone. The
measured figures are the record's: no test can recompute a timing, and
``attention_ref`` computes none of them. What a test can hold is that the committed
tables are exactly what the writer makes of the committed record, so that no figure
is edited by hand and none is left from an older record. ``tests/test_numerals.py``
then lets the figures inside the included tables stand, by their place on the page.

The page's own prose states how the bench measures (4 heads, ``d_k = 64``, loops of 50
events, ``--nice -10``) and what a budget failure says: each sentence is checked here
against the bench's code, the record, or the budget checker.
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

import bench.__main__ as bench_main
from bench import kernel, widgets
from bench.schema import Results
from testbed import budgets
from testbed.claims import claim

ROOT = Path(__file__).resolve().parent.parent
PAGE = "performance.md"
RECORD = ROOT / "bench" / "results.json"
TABLES = ROOT / "bench" / "results.md"


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORD.read_text(encoding="utf-8"))
    return data


def stale_lines(committed: str, written: str) -> list[str]:
    """The lines of ``committed`` that differ from ``written``, as a short unified diff.

    Examples
    --------
    >>> stale_lines("| a | 1.13× |\\n", "| a | 1.13× |\\n")
    []
    >>> stale_lines("| a | 1.12× |\\n", "| a | 1.13× |\\n")[-2:]
    ['-| a | 1.12× |', '+| a | 1.13× |']
    """
    diff = difflib.unified_diff(
        committed.splitlines(), written.splitlines(), "committed", "written", lineterm="", n=0
    )
    return list(diff)


def write_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[int]]:
    """What ``python -m bench --write-page`` writes, into ``tmp_path``; and the nice it asked.

    The real entry point, with its two effects on the machine redirected: the table goes
    to a temporary file, and the priority it would raise is recorded instead.
    """
    asked: list[int] = []

    def record_priority(increment: int) -> str:
        asked.append(increment)
        return "not raised (a test)"

    monkeypatch.setattr(bench_main, "PAGE_TABLE", tmp_path / "results.md")
    monkeypatch.setattr(bench_main, "raise_priority", record_priority)
    assert bench_main.main(["--write-page"]) == 0
    return (tmp_path / "results.md").read_text(encoding="utf-8"), asked


def test_the_committed_tables_are_what_the_writer_makes_of_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    written, _ = write_page(tmp_path, monkeypatch)
    capsys.readouterr()  # the writer prints the tables too
    stale = stale_lines(TABLES.read_text(encoding="utf-8"), written)
    assert not stale, (
        "bench/results.md is not what `python -m bench --write-page` writes from "
        "bench/results.json (a figure edited by hand, or the writer changed since): run it, "
        "review the diff and commit both files. Differences:\n" + "\n".join(stale[:20])
    )
    # The page includes that file, whole, once.
    source = (ROOT / "docs" / PAGE).read_text(encoding="utf-8")
    assert source.count('--8<-- "bench/results.md"') == 1


def test_a_figure_edited_by_hand_is_named(record: dict[str, Any]) -> None:
    # The kernel's ratio to the floor, as the writer formats it, changed in the file only.
    from bench import report

    written = report.markdown(cast(Results, record))
    ratio = report.fmt_ratio(record["kernel"]["rows"][0]["ratio_to_floor"])
    assert ratio in written
    edited = written.replace(ratio, "9.99×", 1)
    stale = stale_lines(edited, written)
    assert [line[0] for line in stale[2:]] == ["@", "-", "+"], stale
    assert "9.99×" in stale[3] and ratio in stale[4] and "9.99×" not in stale[4]


def test_the_kernel_is_4_heads_of_width_64_in_both_dtypes(record: dict[str, Any]) -> None:
    # The bench's shapes, as its inputs are made, and as the record says it measured them.
    q, k, v = kernel.make_inputs(3, "float32")
    assert q.shape == k.shape == v.shape == (1, 4, 3, 64)  # batch, heads, n, d_k
    assert kernel.DTYPES == ("float32", "float64")
    for section in ("kernel", "kernel_1thread"):
        assert "batch 1 × 4 heads × n × d_k = 64" in record[section]["what"], section
        assert {row["dtype"] for row in record[section]["rows"]} == {"float32", "float64"}
    claim(
        PAGE,
        "attention_ref.scaled_dot_product_attention, forward only, on one batch of 4 heads "
        "with d_k = 64 and n queries and keys, in float32 and float64.",
    )


def test_peak_memory_is_counted_in_weights_matrices_of_4_heads(record: dict[str, Any]) -> None:
    assert kernel.weights_bytes(3, 5, 8) == 4 * 3 * 5 * 8  # by hand: 4 heads, batch 1
    for section in ("kernel", "kernel_1thread"):
        for row in record[section]["rows"]:
            n, itemsize = row["n"], np.dtype(row["dtype"]).itemsize
            assert row["weights_bytes"] == 4 * n * n * itemsize, row
            # The record keeps the ratio at full precision; 1e-9 only absorbs its division.
            got = row["peak_extra_bytes"] / row["weights_bytes"]
            assert abs(row["peak_extra_in_weights"] - got) < 1e-9, row
    claim(
        PAGE,
        "divided by the size of one weights matrix for all heads (4 × n × n × the item size).",
    )


def test_lighthouse_is_the_version_the_record_ran(record: dict[str, Any]) -> None:
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    pinned = {**package.get("dependencies", {}), **package.get("devDependencies", {})}
    assert pinned["lighthouse"] == "12.2.3"
    ran = {e["lighthouse"]["version"] for e in record["site"]["pages"].values()}
    assert ran == {"12.2.3"}, ran
    claim(PAGE, "Lighthouse 12.2.3 (mobile preset, the default")


def test_a_widget_run_is_a_loop_of_50_events(record: dict[str, Any]) -> None:
    assert widgets.EVENTS == 50
    assert record["widgets"]["what"].endswith("each run is the mean of 50 events")
    claim(PAGE, "performance.now() around a loop of 50 events")
    claim(PAGE, "a run is the loop's time divided by 50.")


def test_the_bench_asks_nice_minus_10_and_0_turns_it_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    raise_priority = bench_main.raise_priority  # write_page replaces it
    _, asked = write_page(tmp_path, monkeypatch)
    capsys.readouterr()
    assert asked == [-10], "the default of --nice"

    def refuse(increment: int) -> int:
        raise AssertionError(f"os.nice({increment}) called with --nice 0")

    monkeypatch.setattr(os, "nice", refuse)
    assert raise_priority(0) == "normal (nice 0)"
    claim(PAGE, "(--nice -10, inherited by Chromium and Lighthouse; --nice 0 turns it off)")


#: The example of a budget failure the page gives, worked out by hand: 1052311 - 1000000
#: = 52311 bytes over, and 52311 / 1000000 = 5.2311 %, shown to one decimal.
BUDGET_EXAMPLE = (
    "for example page /attention/: first load 1052311 bytes > budget 1000000 bytes, "
    "over by 52311 bytes (+5.2%)."
)


def test_the_budget_failure_example_is_what_the_check_says() -> None:
    limits = {"pages": {"/attention/": {"bytes": 1000000, "transfer": 10, "requests": 10}}}
    measured = {"bytes": 1052311, "transfer": 10, "requests": 10, "third_party": []}
    (said,) = budgets.check("attention/", measured, limits)
    assert f"for example {said}." == BUDGET_EXAMPLE
    claim(PAGE, BUDGET_EXAMPLE)


def test_budgets_are_the_worst_palette_plus_15_percent() -> None:
    assert budgets.HEADROOM == 0.15
    # 1000 bytes measured: 1150 allowed; 10 requests: 11.5, rounded up to 12.
    page = budgets.make_budgets({"/": {"bytes": 1000, "transfer": 200, "requests": 10}})
    assert (page["pages"]["/"]["bytes"], page["pages"]["/"]["requests"]) == (1150, 12)
    committed = budgets.load()
    assert committed["headroom"] == 0.15
    claim(PAGE, "(the worst palette plus 15 % headroom)")
