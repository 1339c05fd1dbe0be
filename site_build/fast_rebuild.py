"""The contributor's loop: what makes a rebuild under ``mkdocs serve`` quicker.

Two things MkDocs does on every rebuild that a rebuild does not need to repeat:

* :func:`cache_templates`: MkDocs makes a new Jinja environment for every build, so the
  theme's templates are compiled again each time (about 0.1 s). Compiled templates are
  kept in ``.cache/jinja/``, keyed by Jinja on each template's source (a changed
  template is compiled again) and on Jinja's and Python's versions. ``make build``
  profits too; the pages are the same.
* :func:`poll_every`: ``mkdocs serve`` notices an edit by polling the watched folders
  every 0.5 s, so an edit waits 0.25 s on average before its rebuild starts. The server
  is given a watcher that polls more often (every 0.1 s, as the hook asks).

``hooks/fast_rebuild.py`` wires both into MkDocs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import jinja2
from mkdocs.livereload import LiveReloadServer
from watchdog.observers.polling import PollingObserver


def cache_templates(env: jinja2.Environment, cache_dir: Path) -> jinja2.Environment:
    """Give ``env`` a bytecode cache in ``cache_dir`` (created if missing).

    Parameters
    ----------
    env : jinja2.Environment
        The environment MkDocs renders the theme with.
    cache_dir : Path
        Where compiled templates are kept between builds.

    Returns
    -------
    jinja2.Environment
        ``env`` itself.
    """
    cache_dir.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = jinja2.FileSystemBytecodeCache(str(cache_dir))
    return env


def poll_every(server: LiveReloadServer, seconds: float, watched: Sequence[str]) -> bool:
    """Make ``server``'s file watcher poll every ``seconds``, keeping what it watches.

    Must be called before the server starts. The ``watched`` paths are unwatched, the
    watcher is replaced by one with the new interval, and the same paths are watched
    again with the server's own :meth:`~LiveReloadServer.watch`, so the server's
    bookkeeping stays whole; paths watched later use the new watcher too.

    Parameters
    ----------
    server : LiveReloadServer
        The server ``mkdocs serve`` hands to the ``on_serve`` event.
    seconds : float
        The new polling interval (MkDocs' own is 0.5 s).
    watched : sequence of str
        Every path the server watches so far: ``mkdocs serve`` watches the docs folder
        and the config file before the first ``on_serve`` handler runs.

    Returns
    -------
    bool
        False, and nothing changed, if the watcher has started or watches more than
        ``watched`` (another path it does not know how to watch again).

    Raises
    ------
    ValueError
        If ``seconds`` is not positive.
    """
    if not seconds > 0:
        raise ValueError(f"the polling interval must be positive, got {seconds!r}")
    old = server.observer
    if old.is_alive():
        return False
    for path in watched:
        server.unwatch(path)
    if old.emitters:  # watches something else too: put everything back as it was
        for path in watched:
            server.watch(path)
        return False
    server.observer = PollingObserver(timeout=seconds)
    for path in watched:
        server.watch(path)
    return True
