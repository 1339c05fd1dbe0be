"""What the tests and the benchmarks share, so that neither imports the other.

``tests/`` and ``bench/`` both import from here; this package imports neither of them
(nor the build code in ``site_build/`` beyond what a piece needs), and is never packaged:
the dev venv imports it from the checkout, like ``bench`` and ``site_build``.

- :mod:`testbed.site`: the site built strictly into a folder, as ``make build`` does;
- :mod:`testbed.serve`: the built site on 127.0.0.1, compressed as GitHub Pages sends it;
- :mod:`testbed.pageweight`: what a page's first load fetched, from Chromium's own counts;
- :mod:`testbed.budgets`: the per-page budget file ``tests/budgets.json`` and its check;
- :mod:`testbed.chromium`: Debian's Chromium and the flags every launch uses;
- :mod:`testbed.oracle`: the plain-loop attention that ``attention_ref`` is checked against;
- :mod:`testbed.sybil_docs`: Sybil glue that tests the pages as rendered.
"""
