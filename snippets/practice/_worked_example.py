"""Lesson 1's worked example for the practice checks: ``Q``, ``K`` and ``V`` as plain lists.

Their one source is ``snippets/worked_example.py`` (its ``data`` section). In the
repository a step's checks import them from here, with this exact line::

    from _worked_example import Q, K, V

(any of the three, each optionally renamed: ``K as WORKED_K``). The site never ships
this file: in every copy it publishes (the page's editor, the downloads) the build
writes the values in place of that line (``site_build/practice.py``), so that a
reader's download runs on its own, with plain Python.
"""

import runpy
from pathlib import Path

_SOURCE = Path(__file__).resolve().parent.parent / "worked_example.py"
_example = runpy.run_path(str(_SOURCE))  # run by a tool, the snippet prints nothing

Q = _example["q"].tolist()  # (d_k,): the query
K = _example["K"].tolist()  # (n_k, d_k): the keys
V = _example["V"].tolist()  # (n_k, d_v): the values
