"""Debian's Chromium and the flags every launch of it uses, tests and benchmarks alike.

Run as root in a container, Chromium needs ``--no-sandbox``; the other flags keep it
from reaching the network at start (component updates, sync, QUIC probes) and from
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
"""The browser binary (``CHROMIUM`` in the environment, else Debian's)."""

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
