"""Benchmarks of the lesson: `make bench` (= ``python -m bench``), never part of `make test`.

Each module measures one thing and returns plain dicts that ``bench.__main__`` stores in
``bench/results.json`` and prints as a table:

- :mod:`bench.kernel`: ``attention_ref`` against the two-matmul floor, the loop oracle and torch;
- :mod:`bench.site`: page weight, requests and Lighthouse scores, against a plain Material page;
- :mod:`bench.widgets`: one explorer recompute and one heatmap row focus in Chromium;
- :mod:`bench.practice`: Pyodide cold start and warm re-run;
- :mod:`bench.build`: ``mkdocs build`` cold and warm, the baseline's build, ``make test``.

The pure helpers (statistics, tables) live in :mod:`bench.stats` and :mod:`bench.report`,
and are unit-tested in ``tests/test_bench.py``. What the benchmarks share with the tests
(the static server, page weight, budgets, Chromium's flags, the loop oracle) lives in
:mod:`testbed`, which imports neither ``bench`` nor ``tests``.
"""
