"""Unit tests of the benchmark's pure helpers (bench/): statistics, formatting, budgets.

No timing is asserted here: timings belong to `make bench`, never to pass/fail tests.
"""

from __future__ import annotations

import doctest
import importlib
import json
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from bench import build, kernel, machine, report, site, stats
from testbed import budgets, pageweight, serve

ROOT = Path(__file__).resolve().parents[1]


# testbed's modules (budgets, pageweight, serve) are doctested by Sybil (conftest.py).
MODULES = [stats, report, kernel, machine, site, build]


@pytest.mark.parametrize("name", [m.__name__ for m in MODULES])
def test_docstring_examples(name: str) -> None:
    mod = importlib.import_module(name)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{mod.__name__} has no doctest examples"
    assert result.failed == 0


def test_summarize_odd_and_even_counts() -> None:
    assert stats.summarize([5.0, 1.0, 3.0])["median"] == 3.0
    even = stats.summarize([4.0, 1.0, 2.0, 3.0])
    assert (even["median"], even["min"], even["max"], even["runs"]) == (2.5, 1.0, 4.0, 4)


def test_summarize_refuses_no_samples() -> None:
    with pytest.raises(ValueError, match="at least one sample"):
        stats.summarize([])


def test_time_call_counts_calls_and_repeats() -> None:
    calls = []
    summary = stats.time_call(lambda: calls.append(1), repeat=4, warmup=2, min_sample=0)
    # min_sample=0: one call per sample, 4 samples, after 2 warm-up calls.
    assert summary["runs"] == 4 and summary["calls_per_run"] == 1
    assert len(calls) == 2 + 4
    assert summary["min"] <= summary["median"] <= summary["max"]


def test_ratio() -> None:
    assert stats.ratio({"median": 6.0}, {"median": 4.0}) == 1.5
    assert stats.ratio({"median": 1.0}, {"median": 0.0}) is None
    assert stats.ratio({"median": 1.0}, None) is None


def test_formatting_units() -> None:
    assert report.fmt_seconds(1.0) == "1.00 s"
    assert report.fmt_seconds(0.5) == "500 ms"
    assert report.fmt_seconds(0.000_001_5) == "1.50 µs"
    assert report.fmt_bytes(1023) == "1023 B"
    assert report.fmt_bytes(1024) == "1.0 KiB"
    assert report.fmt_bytes(1536 * 1024) == "1.50 MiB"


def test_table_rejects_ragged_rows() -> None:
    with pytest.raises(ValueError, match="every row needs 2 cells"):
        report.table(["a", "b"], [[1]])


def test_table_columns_line_up() -> None:
    lines = report.table(["x", "value"], [["long name", 1], ["y", 22]]).splitlines()
    assert len({len(line) for line in lines}) == 1
    assert lines[1].startswith("| ---------")


def test_budget_check_names_page_budget_and_excess() -> None:
    b = {
        "third_party_requests": 0,
        "pages": {"/attention/": {"bytes": 2000, "transfer": 800, "requests": 20}},
    }
    got = {
        "bytes": 2500,
        "transfer": 1000,
        "requests": 23,
        "third_party": ["https://cdn.example/x.js"],
    }
    problems = budgets.check("attention/", got, b)
    assert problems == [
        "page /attention/: first load 2500 bytes > budget 2000 bytes, over by 500 bytes (+25.0%)",
        "page /attention/: transferred 1000 transfer bytes > budget 800 transfer bytes, "
        "over by 200 transfer bytes (+25.0%)",
        "page /attention/: requests 23 requests > budget 20 requests, over by 3 requests (+15.0%)",
        "page /attention/: 1 third-party requests > budget 0: ['https://cdn.example/x.js']",
    ]


def test_budget_check_at_the_limit_passes_and_missing_page_fails() -> None:
    b = {"pages": {"/": {"bytes": 100, "transfer": 40, "requests": 3}}}
    at_limit = {"bytes": 100, "transfer": 40, "requests": 3, "third_party": []}
    assert budgets.check("", at_limit, b) == []
    (problem,) = budgets.check("new/", {**at_limit, "bytes": 1}, b)
    assert "page /new/: no budget" in problem and "--update-budgets" in problem


def test_make_budgets_adds_headroom() -> None:
    made = budgets.make_budgets(
        {"/": {"bytes": 200_000, "transfer": 60_000, "requests": 20}}, headroom=0.15
    )
    assert made["pages"]["/"]["bytes"] == 230_000
    assert made["pages"]["/"]["transfer"] == 69_000
    assert made["pages"]["/"]["requests"] == 23
    assert made["third_party_requests"] == 0


def test_committed_budget_file_is_well_formed() -> None:
    path = ROOT / "tests" / "budgets.json"
    if not path.exists():
        pytest.skip("tests/budgets.json not written yet (python -m bench --update-budgets)")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["third_party_requests"] == 0
    assert "/attention/" in data["pages"]
    for key, limits in data["pages"].items():
        assert key.startswith("/") and key.endswith("/"), key
        assert limits["bytes"] >= limits["measured_bytes"] > 0
        assert limits["requests"] >= limits["measured_requests"] > 0
        # Served compressed, text shrinks: a page transfers less than it decodes to.
        assert limits["bytes"] > limits["transfer"] >= limits["measured_transfer"] > 0


def test_weights_bytes_by_hand() -> None:
    # 1 batch x 4 heads x 128 x 128 float64 entries.
    assert kernel.weights_bytes(128, 128, 8) == 4 * 128 * 128 * 8


def test_floor_computes_the_two_products() -> None:
    q, k, v = kernel.make_inputs(8, "float64")
    out = kernel.floor_fn(q, k, v)()
    expected = np.einsum("bhij,bhjd->bhid", np.einsum("bhid,bhjd->bhij", q, k), v)
    np.testing.assert_allclose(out, expected, rtol=1e-12)


def test_peak_extra_bytes_sees_a_temporary() -> None:
    def make_temporary() -> np.ndarray:
        tmp = np.ones(1_000_000)  # 8 MB, freed before returning
        return np.array([tmp.sum()])

    extra = kernel.peak_extra_bytes(make_temporary)
    assert 8_000_000 <= extra < 9_000_000


def test_the_kernel_table_shows_the_tiled_path_where_measured() -> None:
    def s(x: float) -> dict[str, float]:
        return {"median": x, "min": x, "max": x, "runs": 3}

    row = {"dtype": "float32", "n": 512, "attention_ref": s(0.002), "floor": s(0.001),
           "peak_extra_bytes": 2**20, "weights_bytes": 2**22, "tiled": s(0.005),
           "tiled_peak_extra_bytes": 3 * 2**20}  # fmt: skip
    merged = kernel.merge({"rows": [row, {k: v for k, v in row.items() if "tiled" not in k}]}, {})
    assert merged[0]["tiled_to_attention_ref"] == 2.5  # 5 ms / 2 ms
    assert "tiled_to_attention_ref" not in merged[1]  # an older attention_ref: no column
    text = report.kernel_table({"what": "x", "rows": merged})  # type: ignore[typeddict-item]
    assert "| 5.00 ms" in text and "| 2.50×" in text and "| 3.00 MiB" in text
    assert "tiled 64×64" in text.splitlines()[0]
    # A record with no tiled measurement at all (made before tiled_attention): no columns.
    older = report.kernel_table({"what": "x", "rows": merged[1:]})  # type: ignore[typeddict-item]
    assert "tiled" not in older
    assert older.splitlines()[0].endswith("peak extra (weights matrices) |")


def test_pageweight_totals_and_lazy_assets() -> None:
    entries = [
        {"url": "http://127.0.0.1:8/attention/", "type": "document", "bytes": 100, "transfer": 30},
        {"url": "http://127.0.0.1:8/vendor/pyodide/pyodide.js", "type": "script", "bytes": 40},
        {"url": "http://127.0.0.1:8/a.css", "type": "stylesheet", "bytes": 7, "transfer": 5},
    ]
    got = pageweight.totals(entries)
    assert (got["bytes"], got["transfer"], got["requests"]) == (147, 75, 3)
    assert got["by_type"]["script"] == {"bytes": 40, "transfer": 40, "requests": 1}
    assert got["lazy_assets_loaded"] == ["pyodide"]
    assert got["third_party"] == []


def test_baseline_config_keeps_theme_drops_custom_dir() -> None:
    cfg = site.baseline_config(
        {
            "site_description": "about",
            "theme": {"name": "material", "custom_dir": "x", "font": False, "features": ["a"]},
        }
    )
    assert cfg == {
        "site_name": "Baseline",
        "site_description": "about",
        "theme": {"name": "material", "font": False, "features": ["a"]},
    }


def _results() -> dict[str, object]:
    def s(x: float) -> dict[str, float]:
        return {"median": x, "min": x, "max": x, "runs": 3}

    row = {
        "dtype": "float32",
        "n": 2048,
        "attention_ref": s(0.12),
        "floor": s(0.1),
        "torch": s(0.05),
        "ratio_to_floor": 1.2,
        "ratio_to_torch": 2.4,
        "peak_extra_bytes": 1000,
        "weights_bytes": 2000,
        "peak_extra_in_weights": 0.5,
    }
    scores = {c: s(100.0) for c in report.TARGET_SCORES}
    scores["performance"] = s(97.0)
    lesson = {
        "bytes": 1000,
        "requests": 10,
        "katex_bytes": 300,
        "third_party": [],
        "lazy_assets_loaded": [],
        "lighthouse": {
            "scores": scores,
            "metrics": {
                "total-blocking-time": s(120.0),
                "largest-contentful-paint": s(2600.0),
                "cumulative-layout-shift": s(0.0),
            },
        },
    }
    baseline = {**lesson, "bytes": 500, "katex_bytes": 0}
    return {
        "date": "2026-01-01",
        "kernel": {"what": "x", "rows": [row]},
        "site": {"bytes_are": "b", "pages": {"attention/": lesson}, "baseline": baseline},
        "build": {"timings": {"warm build (figures cached)": s(3.0), "baseline build": s(1.0)}},
    }


def test_targets_verdicts_by_hand() -> None:
    verdicts = {t.what: (t.measured, t.verdict) for t in report.targets(_results())}
    assert verdicts["attention_ref ÷ two-matmul floor (n=2048, float32, 4 heads)"] == (
        "1.20×",
        "met",
    )
    assert verdicts["attention_ref ÷ torch SDPA on CPU (same case, same threads)"][1] == "missed"
    # Performance 97 >= 90 and TBT 120 ms, but LCP 2.6 s > 2.5 s: missed.
    assert verdicts["/attention/ Lighthouse mobile: performance, TBT, LCP, CLS"] == (
        "97 · TBT 120 ms · LCP 2.60 s · CLS 0",
        "missed",
    )
    goals = {t.what: t.goal for t in report.targets(_results())}
    assert goals["/attention/ Lighthouse mobile: performance, TBT, LCP, CLS"] == (
        "≥ 90 · ≤ 300 ms · ≤ 2.50 s · ≤ 0"
    )
    assert goals["attention_ref ÷ two-matmul floor (n=2048, float32, 4 heads)"] == "≤ 1.50×"
    assert verdicts["/attention/ Lighthouse: accessibility · best practices · SEO"] == (
        "100 · 100 · 100",
        "met",
    )
    # 1.5 x 500 + 300 = 1050 bytes allowed, 1000 used.
    assert verdicts["lesson page first load vs baseline"] == ("1000 B", "met")
    assert not any("markup" in name for name in verdicts)  # no build-time math measured
    # Sections not measured are named with the command that measures them.
    missing = {t.what: (t.how, t.verdict) for t in report.targets({"date": "2026-01-01"})}
    assert missing["attention_ref ÷ floor and ÷ torch"] == (
        "python -m bench --only kernel",
        "not measured",
    )
    assert missing["warm build vs baseline build"][1] == "not measured"


def test_the_installed_wheel_has_its_own_goals() -> None:
    results = _results()
    results["kernel_wheel"] = results["kernel"]  # 1.20x the floor, 2.40x torch
    verdicts = {t.what: (t.goal, t.verdict) for t in report.targets(results)}  # type: ignore[arg-type]
    floor = verdicts[
        "attention_ref ÷ two-matmul floor (n=2048, float32, 4 heads) (installed wheel)"
    ]
    assert floor == ("≤ 1.25×", "met")
    torch = verdicts[
        "attention_ref ÷ torch SDPA on CPU (same case, same threads) (installed wheel)"
    ]
    assert torch == ("≤ 1.50×", "missed")


def test_katex_markup_counts_in_a_second_weight_row() -> None:
    results = _results()
    lesson = results["site"]["pages"]["attention/"]  # type: ignore[index]
    lesson["bytes"], lesson["katex_markup_bytes"] = 1100, 60
    verdicts = {t.what: (t.goal, t.verdict) for t in report.targets(results)}
    # Files only: 1.5 x 500 + 300 = 1050 < 1100; with the markup: 1110 >= 1100.
    assert verdicts["lesson page first load vs baseline"][1] == "missed"
    key = "the same, counting KaTeX's build-time markup in the page as KaTeX too"
    assert verdicts[key] == ("≤ 1.0 KiB + markup 60 B = 1.1 KiB", "met")
    assert verdicts["warm mkdocs build ÷ baseline page's build"][1] == "missed"
    assert verdicts["Pyodide, editor, practice runner on any page's first load"] == ("none", "met")


def test_lazy_asset_on_a_first_load_misses_its_target() -> None:
    results = _results()
    lesson = results["site"]["pages"]["attention/"]  # type: ignore[index]
    lesson["lazy_assets_loaded"] = ["model data", "pyodide"]
    verdicts = {t.what: (t.measured, t.verdict) for t in report.targets(results)}
    assert verdicts["Pyodide, editor, practice runner on any page's first load"] == (
        "pyodide",
        "missed",
    )
    key = "real-model data (heatmap) fetched only where the widget is near the screen"
    assert verdicts[key] == ("/attention/", "met")


def test_markdown_report_has_every_section() -> None:
    text = report.markdown(_results())
    for heading in ("**Targets**", "**attention_ref forward**", "**Pages, first load**"):
        assert heading in text
    assert "| /attention/" in text and "baseline (plain Material)" in text


def test_serve_compresses_text_like_github_pages(tmp_path: Path) -> None:
    import gzip
    import urllib.request

    page = "<!doctype html><p>" + "attention " * 500 + "</p>"
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(page, encoding="utf-8")
    (tmp_path / "f.woff2").write_bytes(b"\x00" * 4000)

    def get(base: str, path: str, encoding: str | None) -> tuple[bytes, dict[str, str]]:
        headers = {"Accept-Encoding": encoding} if encoding else {}
        with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers)) as r:
            return r.read(), dict(r.headers)

    with serve.serve(tmp_path) as base:
        body, headers = get(base, "a/", "gzip, deflate")
        assert headers["Content-Encoding"] == "gzip"
        assert int(headers["Content-Length"]) == len(body) < len(page) // 10
        assert gzip.decompress(body).decode() == page
        body, headers = get(base, "a/", None)  # a client that does not accept gzip
        assert "Content-Encoding" not in headers and body.decode() == page
        body, headers = get(base, "f.woff2", "gzip")  # fonts go as stored
        assert "Content-Encoding" not in headers and len(body) == 4000
    with serve.serve(tmp_path, gzip=False) as base:
        body, headers = get(base, "a/", "gzip")
        assert "Content-Encoding" not in headers and body.decode() == page


def test_the_ci_section_reads_make_tests_phase_file() -> None:
    from bench.ci import read_phases

    assert read_phases("install\t61250\npytest (not browser)\t120500\n\n") == {
        "install": 61.25,
        "pytest (not browser)": 120.5,
    }


def test_make_test_times_every_phase_it_runs(tmp_path: Path) -> None:
    """The phases `make bench` reports are the ones `make test` runs, in its order."""
    # make -n still runs the lines that call $(MAKE), so their timing goes to a file here,
    # not to the phase file of a `make test` that may be running this very test.
    recipe = subprocess.run(
        ["make", "-n", "--no-print-directory", "test"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "MAKEFLAGS": "", "PHASES": str(tmp_path / "phases.tsv")},
    ).stdout
    named = re.findall(r"printf '%s\\t%s\\n' '([^']+)'", recipe)
    assert named == [
        "install",
        "lint",
        "node tests",
        "build",
        "pytest (not browser)",
        "pytest (browser)",
    ]
