"""The practice sections' generated files: one exercise manifest per lesson and the downloads.

``snippets/practice/<lesson>/NN_name/`` holds a step (``starter.py``, ``solution.py``,
``checks.py``) of a lesson of :data:`site_build.site.LESSONS`; ``_harness.py`` is shared.
The browser gets them in ``practice/<lesson>/manifest.json``; ``practice/files/<step>/``
holds the starters, checks and harness for download. Every published file has the worked
example's values written in, so it needs nothing beside the harness.

Examples
--------
>>> step_constants('TITLE = "Step 1"\\nFUNCTION = "dot"\\nPARAMS = ("a", "b")\\n')
('Step 1', 'dot', ['a', 'b'])
"""

from __future__ import annotations

import ast
import functools
import json
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from site_build import site
from site_build.site import LESSON_DIR, STEP_DIR, manifest_path
from site_build.vendor import PYODIDE_DEST, PYODIDE_FILES
from site_build.worked_example import PLACEHOLDER, WorkedExample, practice_text, read

#: Where the generated files go in the site.
FILES_DIR = "practice/files"
HARNESS = "_harness.py"
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
    #: The names of the step's checks, in order, as the solution meets them: the page
    #: believes an "all passed" only from a report that names exactly these.
    check_names: list[str] = field(default_factory=list)


def step_constants(source: str) -> tuple[str, str, list[str]]:
    """Read ``TITLE``, ``FUNCTION`` and ``PARAMS`` from a checks file without running it.

    Raises ``ValueError`` if one of them is missing or not a literal.
    """
    found: dict[str, Any] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in CONSTANTS:
                found[target.id] = ast.literal_eval(node.value)
    missing = [name for name in CONSTANTS if name not in found]
    if missing:
        raise ValueError(f"checks.py does not define {', '.join(missing)} as literals")
    return str(found["TITLE"]), str(found["FUNCTION"]), [str(p) for p in found["PARAMS"]]


def _published(folder: Path, name: str, example: Callable[[], WorkedExample]) -> str:
    """File ``name`` of a step, with the worked example's values written in if it uses any."""
    if not (folder / name).is_file():
        raise FileNotFoundError(f"practice step {folder.name} has no {name}")
    text, where = (folder / name).read_text(encoding="utf-8"), f"{folder.name}/{name}"
    if "_worked_example" not in text and not PLACEHOLDER.search(text):
        return text
    done = practice_text(text, example(), where)
    if "_worked_example" in done:
        raise ValueError(
            f"{where}: import the worked example with one line, exactly "
            "`from _worked_example import Q, K, V` (any of the three, `as` allowed): "
            "the build writes the values in its place"
        )
    return done


#: The line of a step's checks.py that reads the solution its mistakes edit; published
#: files have the solution written in instead (:func:`with_solution`).
SOLUTION_LINE = "SOLUTION = h.solution_of(__file__)"
QUOTES = "'" * 3


def with_solution(checks: str, step: str, solution: str) -> str:
    r"""``checks`` with the solution its mistakes edit written in (no ``solution.py`` beside it).

    >>> print(with_solution("SOLUTION = h.solution_of(__file__)\n", "01_dot", "def dot(a, b):\n"))
    SOLUTION = h.Solution(
        "01_dot",
        '''\
    def dot(a, b):
    ''',
    )
    <BLANKLINE>
    >>> with_solution("TITLE = 'no mistakes'\n", "01_dot", "")
    "TITLE = 'no mistakes'\n"

    Raises ``ValueError`` if the line stands twice, or the solution holds a backslash or
    three single quotes.
    """
    found = [line for line in checks.splitlines() if line == SOLUTION_LINE]
    if not found:
        return checks
    if len(found) > 1 or "\\" in solution or QUOTES in solution:
        raise ValueError(
            f"{step}/checks.py: `{SOLUTION_LINE}` must stand once, and solution.py must hold "
            f"no backslash and no {QUOTES} (the build writes it in as a string)"
        )
    literal = f'h.Solution(\n    "{step}",\n    {QUOTES}\\\n{solution}{QUOTES},\n)'
    return checks.replace(SOLUTION_LINE, "SOLUTION = " + literal, 1)


def read_steps(lesson_dir: Path, example: WorkedExample | None = None) -> list[Step]:
    """Every step folder (``NN_name``) of one lesson's folder, in order, as published.

    ``example``: the worked example written into the files (default: read if one needs it).
    Raises ``FileNotFoundError`` for a missing folder or file, ``ValueError`` if there is
    no step, a checks file lacks its constants, or the worked example cannot be written in.
    """
    if not lesson_dir.is_dir():
        raise FileNotFoundError(f"practice folder not found: {lesson_dir}")
    worked = functools.cache(read) if example is None else lambda: example  # read if needed
    steps = []
    for folder in sorted(p for p in lesson_dir.iterdir() if p.is_dir() and STEP_DIR.match(p.name)):
        starter, solution, checks = (_published(folder, name, worked) for name in REQUIRED)
        checks = with_solution(checks, folder.name, solution)
        try:
            title, function, params = step_constants(checks)
        except ValueError as exc:
            raise ValueError(f"{folder.name}/checks.py: {exc}") from exc
        steps.append(Step(folder.name, title, function, params, starter, solution, checks))
    if not steps:
        raise ValueError(f"no practice step (a folder named like 01_name) in {lesson_dir}")
    return steps


def read_lessons(
    practice_dir: Path, lessons: Sequence[str], example: WorkedExample | None = None
) -> dict[str, list[Step]]:
    """The steps of each of ``lessons`` (page slugs), from its folder in ``practice_dir``.

    Raises ``FileNotFoundError`` for a missing folder, ``ValueError`` if there is no lesson,
    a folder is no lesson's, or two lessons share a step id (their downloads would collide).
    """
    if not practice_dir.is_dir():
        raise FileNotFoundError(f"practice folder not found: {practice_dir}")
    if not lessons:
        raise ValueError("no lesson to read the practice of")
    strays = sorted(
        p.name
        for p in practice_dir.iterdir()
        if p.is_dir() and LESSON_DIR.match(p.name) and p.name not in lessons
    )  # (_harness's __pycache__ and the like are not named like a lesson)
    if strays:
        raise ValueError(
            f"{practice_dir.name}/{strays[0]}/ is the practice of no lesson: add the lesson "
            "to LESSONS in site_build/site.py, or rename the folder after its page"
        )
    found: dict[str, list[Step]] = {}
    owner: dict[str, str] = {}
    for lesson in lessons:
        manifest_path(lesson)  # a name the site can publish
        steps = read_steps(practice_dir / lesson, example)
        for step in steps:
            if step.id in owner:
                raise ValueError(
                    f"practice step id {step.id} is in lessons {owner[step.id]} and "
                    f"{lesson}: step ids must be unique across lessons"
                )
            owner[step.id] = lesson
        found[lesson] = steps
    return found


@contextmanager
def _registered(name: str, module: types.ModuleType) -> Iterator[None]:
    """``module`` in ``sys.modules`` as ``name`` for the time of the block."""
    previous = sys.modules.get(name)
    sys.modules[name] = module
    try:
        yield
    finally:
        if previous is None:
            del sys.modules[name]
        else:
            sys.modules[name] = previous


def load_harness(practice_dir: Path) -> types.ModuleType:
    """A fresh copy of ``_harness.py`` (not cached: ``mkdocs serve`` sees edits)."""
    path = practice_dir / HARNESS
    module = types.ModuleType("_harness")
    module.__file__ = str(path)
    with _registered("_harness", module):  # dataclasses look their module up while defined
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    return module


def check_names(harness: types.ModuleType, step: Step) -> list[str]:
    """The names of ``step``'s checks, in order, from a run of its solution with ``harness``.

    Raises ``ValueError`` if the checks cannot be loaded or run (naming the step).
    """
    module = types.ModuleType(f"practice_checks_{step.id}")
    module.__file__ = f"{step.id}/checks.py"
    try:
        with _registered("_harness", harness), _registered(module.__name__, module):
            exec(compile(step.checks, module.__file__, "exec"), module.__dict__)
            results = harness.run(module, step.solution)
    except Exception as exc:
        raise ValueError(f"practice step {step.id}: its checks could not run: {exc}") from exc
    return [str(r.name) for r in results]


def site_files(
    practice_dir: Path,
    pyodide_dir: Path,
    example: WorkedExample | None = None,
    lessons: Sequence[str] | None = None,
) -> dict[str, str]:
    """The generated files of ``lessons`` (by default the site model's), ``{site path: text}``.

    Each manifest carries the harness, its ``LIMITS`` (declared in ``_harness.py`` only)
    and the lesson's steps; ``practice/files/`` the harness, starters and checks.
    """
    if lessons is None:
        lessons = [lesson.slug for lesson in site.LESSONS]
    by_lesson = read_lessons(practice_dir, lessons, read() if example is None else example)
    harness = (practice_dir / HARNESS).read_text(encoding="utf-8")
    runner = load_harness(practice_dir)
    package = json.loads((pyodide_dir / "package.json").read_text(encoding="utf-8"))
    sizes = {name: (pyodide_dir / name).stat().st_size for name in PYODIDE_FILES}
    pyodide = {  # Pyodide's version and the bytes the worker downloads
        "version": package["version"],
        "index": PYODIDE_DEST + "/",
        "bytes": sum(sizes.values()),
        "files": sizes,
    }
    files = {f"{FILES_DIR}/{HARNESS}": harness}
    for lesson, steps in by_lesson.items():
        steps = [replace(step, check_names=check_names(runner, step)) for step in steps]
        manifest = {
            "lesson": lesson,
            "limits": asdict(runner.LIMITS),
            "pyodide": pyodide,
            "harness": harness,
            "files": FILES_DIR + "/",
            "steps": [asdict(step) for step in steps],
        }
        text = json.dumps(manifest, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
        files[manifest_path(lesson)] = text
        for step in steps:
            files[f"{FILES_DIR}/{step.id}/starter.py"] = step.starter
            files[f"{FILES_DIR}/{step.id}/checks.py"] = step.checks
    return files
