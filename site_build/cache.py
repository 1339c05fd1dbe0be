"""The build's content-hash cache: every cache under ``.cache/`` uses it.

An entry is named ``<name>-<key>`` (``key``: :func:`content_key` of all it is made from, so
a changed input is a miss): files ``<name>-<key><suffix>``, each written atomically, or
one folder another program fills. Storing an entry removes its name's other keys.

Examples
--------
>>> import tempfile
>>> cache = ContentCache(Path(tempfile.mkdtemp()))
>>> key = content_key(meta={"n": 1})
>>> cache.load("demo", key, (".txt",)) is None
True
>>> cache.get("demo", key, (".txt",), lambda: {".txt": b"one"})
{'.txt': b'one'}
>>> cache.get("demo", key, (".txt",), lambda: {".txt": b"not made again"})
{'.txt': b'one'}
>>> new = content_key(meta={"n": 2})
>>> cache.store("demo", new, {".txt": b"two"})
>>> cache.load("demo", key, (".txt",)) is None, [p.name[:5] for p in cache.entries("demo")]
(True, ['demo-'])
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

#: How many hex digits of the SHA-256 name an entry (80 bits: no collision in practice).
KEY_CHARS = 20
#: What gives an entry's files by suffix, on a miss.
Make = Callable[[], Mapping[str, bytes]]


def content_key(
    *, meta: object = None, files: Iterable[Path] = (), data: Iterable[bytes] = ()
) -> str:
    """SHA-256 of ``meta`` (JSON, keys sorted), the files' names and bytes and ``data``,
    each part length-prefixed so that no two inputs run together.

    Examples
    --------
    >>> a = content_key(meta={"x": 1, "y": 2})
    >>> a == content_key(meta={"y": 2, "x": 1}), len(a)
    (True, 64)
    >>> content_key(data=[b"ab", b"c"]) == content_key(data=[b"a", b"bc"])
    False
    """
    digest = hashlib.sha256()
    parts = [json.dumps(meta, sort_keys=True).encode("utf-8")]
    for path in files:
        parts += [path.name.encode("utf-8"), path.read_bytes()]
    for blob in [*parts, *data]:
        digest.update(len(blob).to_bytes(8, "big"))
        digest.update(blob)
    return digest.hexdigest()


@dataclass(frozen=True)
class ContentCache:
    """A cache folder of entries named ``<name>-<key>``."""

    folder: Path

    def path(self, name: str, key: str, suffix: str = "") -> Path:
        """The file (or, with no suffix, the folder) of an entry.

        Examples
        --------
        >>> ContentCache(Path("c")).path("spread", "ab" * 32, "-light.svg").as_posix()
        'c/spread-abababababababababab-light.svg'
        """
        return self.folder / f"{name}-{key[:KEY_CHARS]}{suffix}"

    def entries(self, name: str) -> list[Path]:
        """Every file or folder of the entries named ``name``, whatever their key."""
        if not self.folder.is_dir():
            return []
        pattern = re.compile(rf"{re.escape(name)}-[0-9a-f]{{{KEY_CHARS}}}(?![0-9a-f])")
        return sorted(p for p in self.folder.iterdir() if pattern.match(p.name))

    def load(self, name: str, key: str, suffixes: Sequence[str]) -> dict[str, bytes] | None:
        """The entry's files by suffix, or None unless every one of them is there."""
        paths = {suffix: self.path(name, key, suffix) for suffix in suffixes}
        if not all(p.is_file() for p in paths.values()):
            return None
        return {suffix: p.read_bytes() for suffix, p in paths.items()}

    def store(self, name: str, key: str, contents: Mapping[str, bytes]) -> None:
        """Write the entry's files (each atomically), then prune the name's other keys."""
        self.folder.mkdir(parents=True, exist_ok=True)
        for suffix, blob in contents.items():
            path = self.path(name, key, suffix)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_bytes(blob)
            tmp.replace(path)
        self.prune(name, keep=[self.path(name, key, suffix) for suffix in contents])

    def get(self, name: str, key: str, suffixes: Sequence[str], make: Make) -> dict[str, bytes]:
        """The entry's files by suffix; on a miss ``make()`` gives them and they are stored."""
        found = self.load(name, key, suffixes)
        if found is None:
            found = dict(make())
            self.store(name, key, found)
        return found

    def folder_for(self, name: str, key: str) -> Path:
        """An entry that is a folder (created) for a program to fill; prunes the rest.

        Examples
        --------
        >>> import tempfile
        >>> cache = ContentCache(Path(tempfile.mkdtemp()))
        >>> old = cache.folder_for("notebook", "a" * 64)
        >>> new = cache.folder_for("notebook", "b" * 64)
        >>> old.exists(), new.is_dir()
        (False, True)
        """
        path = self.path(name, key)
        path.mkdir(parents=True, exist_ok=True)
        self.prune(name, keep=[path])
        return path

    def prune(self, name: str, keep: Iterable[Path]) -> None:
        """Remove every file or folder of the entries named ``name`` but ``keep``."""
        for path in set(self.entries(name)).difference(keep):
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)
