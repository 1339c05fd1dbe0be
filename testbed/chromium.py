"""Debian's Chromium and the flags every launch of it uses, tests and benchmarks alike.

The browser tests drive :data:`HEADLESS_SHELL`; Lighthouse (``make bench``) drives
:data:`CHROMIUM`. Run as root in a container, Chromium needs ``--no-sandbox``; the other
flags keep it from reaching the network at start (component updates, sync, QUIC probes) and from
running out of ``/dev/shm`` in small containers. Playwright adds its own headless flag;
Lighthouse launches Chromium itself and needs :data:`CHROME_FLAGS`.

Examples
--------
>>> "--no-sandbox" in CHROMIUM_ARGS and "--headless=new" not in CHROMIUM_ARGS
True
>>> CHROME_FLAGS[0], CHROME_FLAGS[1:] == CHROMIUM_ARGS
('--headless=new', True)
"""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
"""The browser binary (``CHROMIUM`` in the environment, else Debian's), for Lighthouse."""

HEADLESS_SHELL = os.environ.get("HEADLESS_SHELL", "/usr/bin/chromium-headless-shell")
"""Debian's Chromium headless shell (``HEADLESS_SHELL`` in the environment), which the
browser tests drive: the same Blink and V8 as :data:`CHROMIUM` without the browser's own
interface (the tab strip's and other WebUI renderers that ``chromium --headless`` starts
for every window). Playwright's own headless mode is this shell. On 2 cores it spent about
a fifth less CPU than Chromium on the same pages (``tests/browser/test_explorer.py``:
91 CPU-seconds against 112)."""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
"""Flags for a Playwright launch (``chromium.launch(args=CHROMIUM_ARGS)``)."""

CHROME_FLAGS = ["--headless=new", *CHROMIUM_ARGS]
"""Flags for a launch by another program (Lighthouse's ``--chrome-flags``)."""
