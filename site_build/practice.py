"""The practice section's generated files: the exercise manifest and the downloadable checks.

Each step folder ``snippets/practice/NN_name/`` holds ``starter.py``, ``solution.py``,
``checks.py`` and ``mistakes/``. The browser needs the starter, the solution (shown
only after a failed attempt), the checks and the shared harness: they travel in one
JSON manifest (``practice/manifest.json``). The starter, the checks and the harness
are also published as plain ``.py`` files so a reader can download them and run the
checks offline (``python checks.py answer.py``).

``hooks/practice.py`` adds the returned files to the MkDocs build; this module only
reads the sources and returns text, so it is unit-tested without MkDocs.

Examples
--------
>>> step_constants('TITLE = "Step 1"\\nFUNCTION = "dot"\\nPARAMS = ("a", "b")\\n')
{'TITLE': 'Step 1', 'FUNCTION': 'dot', 'PARAMS': ['a', 'b']}
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from site_build.vendor import PYODIDE_DEST, PYODIDE_FILES

#: Where the generated files go in the site.
MANIFEST_PATH = "practice/manifest.json"
FILES_DIR = "practice/files"
HARNESS = "_harness.py"
STEP_DIR = re.compile(r"^\d\d_[a-z0-9_]+$")
REQUIRED = ("starter.py", "solution.py", "checks.py")
CONSTANTS = ("TITLE", "FUNCTION", "PARAMS")


@dataclass(frozen=True)
class Step:
    """One exercise as the browser receives it."""

    id: str
    title: str
    function: str
    params: list[str]
    starter: str
    solution: str
    checks: str


def step_constants(source: str) -> dict[str, object]:
    """Read ``TITLE``, ``FUNCTION`` and ``PARAMS`` from a checks file without running it.

    Raises
    ------
    ValueError
        If one of them is missing or not a literal.
    """
    found: dict[str, object] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in CONSTANTS:
                value = ast.literal_eval(node.value)
                found[target.id] = list(value) if isinstance(value, tuple) else value
    missing = [name for name in CONSTANTS if name not in found]
    if missing:
        raise ValueError(f"checks.py does not define {', '.join(missing)} as literals")
    return {name: found[name] for name in CONSTANTS}


def read_steps(practice_dir: Path) -> list[Step]:
    """Every step folder (``NN_name``) of ``practice_dir``, in order.

    Raises
    ------
    FileNotFoundError
        If the folder, or a required file of a step, is missing (naming it).
    ValueError
        If there is no step, or a checks file lacks its constants.
    """
    if not practice_dir.is_dir():
        raise FileNotFoundError(f"practice folder not found: {practice_dir}")
    steps = []
    for folder in sorted(p for p in practice_dir.iterdir() if p.is_dir()):
        if not STEP_DIR.match(folder.name):
            continue
        for name in REQUIRED:
            if not (folder / name).is_file():
                raise FileNotFoundError(f"practice step {folder.name} has no {name}")
        text = {name: (folder / name).read_text(encoding="utf-8") for name in REQUIRED}
        try:
            constants = step_constants(text["checks.py"])
        except ValueError as exc:
            raise ValueError(f"{folder.name}/checks.py: {exc}") from exc
        steps.append(
            Step(
                id=folder.name,
                title=str(constants["TITLE"]),
                function=str(constants["FUNCTION"]),
                params=[str(p) for p in constants["PARAMS"]],  # type: ignore[attr-defined]
                starter=text["starter.py"],
                solution=text["solution.py"],
                checks=text["checks.py"],
            )
        )
    if not steps:
        raise ValueError(f"no practice step (a folder named like 01_name) in {practice_dir}")
    return steps


def pyodide_info(pyodide_dir: Path) -> dict[str, object]:
    """Pyodide's version and the bytes the worker downloads (the sum of its files)."""
    package = json.loads((pyodide_dir / "package.json").read_text(encoding="utf-8"))
    sizes = {name: (pyodide_dir / name).stat().st_size for name in PYODIDE_FILES}
    return {
        "version": package["version"],
        "index": PYODIDE_DEST + "/",
        "bytes": sum(sizes.values()),
        "files": sizes,
    }


def site_files(practice_dir: Path, pyodide_dir: Path) -> dict[str, str]:
    """The generated files, as ``{site path: text}``.

    ``practice/manifest.json`` carries the harness and every step; ``practice/files/``
    holds ``_harness.py`` and each step's ``starter.py`` and ``checks.py`` for download.
    """
    steps = read_steps(practice_dir)
    harness = (practice_dir / HARNESS).read_text(encoding="utf-8")
    manifest = {
        "pyodide": pyodide_info(pyodide_dir),
        "harness": harness,
        "files": FILES_DIR + "/",
        "steps": [asdict(step) for step in steps],
    }
    files = {
        MANIFEST_PATH: json.dumps(manifest, ensure_ascii=False, sort_keys=True, indent=1) + "\n",
        f"{FILES_DIR}/{HARNESS}": harness,
    }
    for step in steps:
        files[f"{FILES_DIR}/{step.id}/starter.py"] = step.starter
        files[f"{FILES_DIR}/{step.id}/checks.py"] = step.checks
    return files
