"""The helpers of the "prose edit under serve" benchmark (bench/build.py), without a server.

No timing is asserted here: timings belong to `make bench`.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bench.build import (
    REBUILD_FAILED,
    REBUILDING,
    REBUILT,
    ServeLog,
    edit_marker,
    free_port,
    prose_edit,
    rebuild_seconds,
    restore,
)

SERVE_LOG = f"""INFO    -  Serving on http://127.0.0.1:8000/
INFO    -  [12:00:01] Detected file changes
INFO    -  {REBUILDING}
INFO    -  Documentation built in 0.50 seconds
INFO    -  [12:00:02] {REBUILT}
"""


def test_the_log_is_read_up_to_the_line_asked_for() -> None:
    log = ServeLog(io.StringIO(SERVE_LOG))
    assert log.wait_for("Serving on", timeout=5)[-1][1].endswith("/127.0.0.1:8000/")
    lines = log.wait_for(REBUILT, timeout=5)
    assert [line for _, line in lines][1:] == SERVE_LOG.splitlines()[2:]
    assert rebuild_seconds(lines) >= 0
    times = [when for when, _ in lines]
    assert times == sorted(times)


def test_a_failed_rebuild_is_an_error_not_a_wait() -> None:
    log = ServeLog(io.StringIO(f"INFO - {REBUILDING}\nERROR - {REBUILD_FAILED}.\n"))
    with pytest.raises(RuntimeError, match="error happened"):
        log.wait_for(REBUILT, timeout=5)


def test_a_missing_line_times_out_with_the_log_tail() -> None:
    log = ServeLog(io.StringIO("INFO - Building documentation...\n"))
    with pytest.raises(TimeoutError, match="Building documentation"):
        log.wait_for(REBUILT, timeout=0.2)


def test_an_edit_that_made_two_rebuilds_is_refused() -> None:
    twice = [(0.0, REBUILDING), (0.5, REBUILT), (0.6, REBUILDING), (1.0, REBUILT)]
    with pytest.raises(RuntimeError, match="exactly one rebuild"):
        rebuild_seconds(twice)


def test_the_edit_is_a_paragraph_the_page_can_be_searched_for() -> None:
    assert prose_edit(7).strip() == edit_marker(7)
    assert edit_marker(7) != edit_marker(8)


def test_restore_puts_the_text_back_and_leaves_no_file(tmp_path: Path) -> None:
    page = tmp_path / "attention.md"
    page.write_text("# Attention\n" + prose_edit(0), encoding="utf-8")
    restore(page, "# Attention\n")
    assert page.read_text(encoding="utf-8") == "# Attention\n"
    assert [p.name for p in tmp_path.iterdir()] == ["attention.md"]


def test_free_port_is_a_port() -> None:
    assert 0 < free_port() < 65536
