"""The check runner shared by every practice step, in CPython and in Pyodide alike.

Plain Python only (no numpy), so the very same file runs in the reader's browser.
A step's ``checks.py`` describes *what* to check; this module runs the reader's
code, calls their function on each case, compares the answer with the expected
value, and explains a failure: the call, what came back, what was expected, the
tolerance, and a hint aimed at the mistake that most likely produced that answer.

How a hint is chosen, in order (a hint id names a text in the step's own ``HINTS``
or, for what every step shares, in :data:`COMMON_HINTS`):

1. the code does not compile or crashes while loading: the line of the error;
2. the call raised: the step's ``explain_exception`` (e.g. ``OverflowError`` from
   ``math.exp`` means the maximum was not subtracted), else a generic hint;
3. the answer is wrong: each of the step's model ``MISTAKES`` (an edited solution) is
   computed on the same arguments; if the reader's answer equals one of them, its
   hint is given; else the step's ``explain_answer``, which reads the answer itself
   (a NaN that no formula's answer can equal, as ``nan != nan``); otherwise the step's
   ``FALLBACK_HINT``.

A result is plain data (:class:`Result`, a dict for the browser); this module checks
and does not format, but for the one text report of the command line
(:func:`report_text`). The page renders the same data itself
(``docs/javascripts/practice/render.js``); :func:`tiers` only says which facts of a
failure the page holds back until asked (a nudge, then the failing call). What the
reader's code prints while it runs is captured, capped at ``LIMITS.print_chars``
characters (:func:`run_capturing`). The limits are declared once, in :data:`LIMITS`:
the build copies them into each lesson's manifest, which the page reads.

Run the checks of a step on any file with ``python checks.py ANSWER.py`` (the step's
checks next to this file, as the page's downloads are), or, from anywhere,
``python _harness.py path/to/checks.py ANSWER.py``.

After the cases come the step's ``properties`` (most are :meth:`Runner.relation`
checks: call twice, change the input, compare) and one check every step shares: the
reader's function must leave the lists it is given unchanged.

Examples
--------
>>> compare([1.0, 2.0], [1.0, 2.0000001], tol=1e-6) is None
True
>>> compare([1.0, 2.1], [1.0, 2.0], tol=1e-6)
'item [1] is 2.1, expected 2'
>>> show_call("dot", ("a", "b"), ([1, 0], [0.5, 2]))
'dot(a=[1, 0], b=[0.5, 2])'
"""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import io
import json
import math
import random
import signal
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from types import CodeType, ModuleType, SimpleNamespace
from typing import Any

#: The file name the reader's code is compiled under (error lines refer to it).
ANSWER_FILE = "answer.py"


@dataclass(frozen=True)
class Limits:
    """The practice runner's limits, declared here only: the command line uses them, and
    the build writes them into every lesson's manifest (``limits``), which the page reads.

    ``print_chars``: how much of what the reader's code prints is kept and shown.
    ``run_ms``: how long the code may run: each call on the command line, one whole run
    in the browser (whose worker is stopped then, as WebAssembly cannot be interrupted).
    ``start_stall_ms``: how long the page's start-up of Python may go without progress (no
    byte arrives, or Python does not finish starting). 60 s is twenty times the cold start
    measured on a quiet 2-core machine with the files served locally (about 3 s, download
    included) and about twice the 33 s measured on the same machine loaded fifteen-fold
    (most of it compiling the wasm, when no byte arrives); the clock restarts whenever
    bytes arrive, so a slow download that keeps moving is never cut.
    """

    print_chars: int = 400
    run_ms: int = 5000
    start_stall_ms: int = 60000


LIMITS = Limits()

#: The hints the harness itself gives, by id: the code does not load or crashes, or it
#: breaks a rule every step shares. Each step's ``checks.py`` holds the hints about its
#: own mistakes in its own ``HINTS``, and each of its ``MISTAKES`` names the id it earns.
COMMON_HINTS: dict[str, str] = {
    "syntax": "Python could not read your code. Look at the line shown (and the one above it): "
    "a missing colon, bracket or quote, or an indentation that does not line up.",
    "load-error": "Your file crashed before any check could run. Code at the top level runs as "
    "soon as the file is loaded: keep only definitions (def, import) there.",
    "missing-function": "Define the function with exactly the name and parameters of the starter.",
    "not-implemented": "This function still raises NotImplementedError: replace that line with "
    "your own code.",
    "returned-none": "Your function returned None: did you forget the `return` line?",
    "exception": "Your code raised an error on this input. The line shown is where it happened.",
    "system-exit": "Your function stopped Python itself (sys.exit(), exit(), or raising "
    "SystemExit or KeyboardInterrupt). A function hands its answer back with `return`; "
    "remove that line.",
    "timeout": "Your code was still running after several seconds: look for a loop that never "
    "ends (a while loop whose condition never becomes false).",
    "mutated-input": "Your function changed the lists it was given (the call shows them as "
    "they were before, `why` says what changed). Build new lists for your results instead: "
    "the caller, the next step for one, uses the same lists again afterwards.",
    "permutation": "Attention does not care about the order of the items: shuffling the keys "
    "and values together (each value stays with its key) must give the same output.",
}


def hints_of(step: ModuleType) -> dict[str, str]:
    """Every hint a step can give: the harness's own, then the step's ``HINTS``."""
    return {**COMMON_HINTS, **getattr(step, "HINTS", {})}


@dataclass(frozen=True)
class Case:
    """One fixed or seeded call: arguments and the expected answer."""

    name: str
    args: tuple[Any, ...]
    expected: Any
    tol: float = 1e-6


class Mistake:
    """A typical wrong answer, written once: the hint it earns and an edit of the solution.

    Each edit is a pair ``(old, new)`` of text: ``old`` must stand exactly once in the
    step's solution (after the edits before it), and is replaced by ``new``.
    :func:`mistakes` applies the edits: ``source`` is then the wrong answer as a reader
    would write it (the tests run it as one), and ``compute`` its function, the formula
    the harness compares a reader's wrong answer with. ``model=False`` leaves a mistake
    out of that comparison: it earns its hint another way (an exception, a NaN, a
    changed input, a property), and its answers model nothing.

    >>> solution = Solution("01_dot", "def dot(a, b):\\n    return a[0] * b[0]\\n")
    >>> found = mistakes(solution, "dot", {"sum": Mistake("dot-sums", ("] * b", "] + b"))})
    >>> found["sum"].compute([2], [3])
    5
    >>> mistakes(solution, "dot", {"typo": Mistake("x", ("a[1]", "a[0]"))})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: practice step 01_dot, mistake 'typo': the text 'a[1]' stands 0 times in the ...
    """

    def __init__(self, hint: str, *edits: tuple[str, str], model: bool = True) -> None:
        self.hint = hint
        self.edits = edits
        self.model = model
        self.source = ""
        self.compute: Callable[..., Any] | None = None

    def __repr__(self) -> str:
        return f"Mistake({self.hint!r}, {len(self.edits)} edits, model={self.model})"


@dataclass(frozen=True)
class Solution:
    """A step's solution, as its mistakes edit it: the step's folder name and the text."""

    step: str
    text: str


def solution_of(checks_file: str) -> Solution:
    """The solution next to a step's ``checks.py``, in the repository. (The build writes
    the text in its place, as ``Solution(step, text)``, in every file it publishes.)"""
    path = Path(checks_file).resolve().with_name("solution.py")
    return Solution(path.parent.name, path.read_text(encoding="utf-8"))


def edited(solution: Solution, name: str, edits: Iterable[tuple[str, str]]) -> str:
    """The solution's text with ``edits`` applied in order, each ``old`` found once."""
    text = solution.text
    for old, new in edits:
        found = text.count(old) if old else 0
        if found != 1:
            raise ValueError(
                f"practice step {solution.step}, mistake {name!r}: the text {old!r} stands "
                f"{found} times in the solution, not exactly once"
            )
        text = text.replace(old, new)
    if text == solution.text:
        raise ValueError(f"practice step {solution.step}, mistake {name!r}: no edit")
    return text


def mistakes(solution: Solution, function: str, declared: dict[str, Mistake]) -> dict[str, Mistake]:
    """``declared`` with each mistake's ``source`` (the edited solution) and, for a model,
    ``compute`` (its ``function``, from that source) filled in.

    Raises
    ------
    ValueError
        If an edit's text does not stand exactly once, naming the step, mistake and text,
        or if an edited solution does not define ``function``.
    """
    for name, mistake in declared.items():
        mistake.source = edited(solution, name, mistake.edits)
        if not mistake.model:
            continue
        namespace: dict[str, Any] = {"__name__": f"mistake_{name}"}
        exec(compile(mistake.source, f"<{solution.step} mistake {name}>", "exec"), namespace)
        compute = namespace.get(function)
        if not callable(compute):
            raise ValueError(
                f"practice step {solution.step}, mistake {name!r}: the edited solution "
                f"defines no function {function!r}"
            )
        mistake.compute = compute
    return declared


def models(step: Any) -> list[Mistake]:
    """The step's mistakes whose answers a reader's wrong answer is compared with."""
    found = getattr(step, "MISTAKES", {})
    listed = found.values() if isinstance(found, dict) else found
    return [m for m in listed if getattr(m, "model", True) and m.compute is not None]


@dataclass
class Result:
    """The outcome of one check; ``as_dict`` is what the browser receives."""

    name: str
    passed: bool
    call: str = ""
    expected: str = ""
    actual: str = ""
    tolerance: str = ""
    error: str = ""
    line: int | None = None
    code: str = ""
    hint: str = ""
    detail: str = ""
    hint_text: str = ""  # the words of ``hint``, filled in by :func:`run`

    def as_dict(self) -> dict[str, Any]:
        """The result as the browser receives it: its fields, and its :func:`tiers`."""
        return {**asdict(self), "tiers": tiers(self)}


#: The facts of a failure the page holds back as its second tier of help, in order.
CALL_TIER = ("call", "actual", "expected", "tolerance", "detail")


def tiers(result: Any) -> dict[str, Any]:
    """What a failure reveals, tier by tier, as plain data: ``nudge``, the hint's words;
    ``call``, the names of the fields (of :data:`CALL_TIER`) the second tier shows. Python's
    own error and line are not held back. The third tier, the solution, is the step's.

    >>> tiers(Result("x", False, call="f(1)", actual="2", expected="3", hint_text="Add."))
    {'nudge': 'Add.', 'call': ['call', 'actual', 'expected']}
    >>> tiers(Result("y", True))
    {'nudge': '', 'call': []}
    """
    if result.passed:
        return {"nudge": "", "call": []}
    return {"nudge": result.hint_text, "call": [f for f in CALL_TIER if getattr(result, f)]}


# --- seeded random inputs ----------------------------------------------------------------


def vector(rng: random.Random, n: int, lo: float = -3.0, hi: float = 3.0) -> list[float]:
    """``n`` random numbers with two decimals (readable in a failure message).

    >>> vector(random.Random(0), 3)
    [2.07, 1.55, -0.48]
    """
    return [round(rng.uniform(lo, hi), 2) for _ in range(n)]


def matrix(
    rng: random.Random, rows: int, cols: int, lo: float = -3.0, hi: float = 3.0
) -> list[list[float]]:
    """``rows`` random vectors of width ``cols``."""
    return [vector(rng, cols, lo, hi) for _ in range(rows)]


# --- showing values ----------------------------------------------------------------------


def show(x: Any) -> str:
    """A short, readable form of a value: floats to 6 significant digits.

    >>> show([0.50648, 1 / 3, 2])
    '[0.50648, 0.333333, 2]'
    >>> show([[1.0, 2.5], [3, 4]])
    '[[1, 2.5], [3, 4]]'
    """
    if isinstance(x, bool):
        return repr(x)
    if isinstance(x, float):
        return format(x, ".6g")
    if isinstance(x, (list, tuple)):
        inner = ", ".join(show(v) for v in x)
        return f"[{inner}]" if isinstance(x, list) else f"({inner}{',' if len(x) == 1 else ''})"
    text = repr(x)
    return text if len(text) <= 200 else text[:200] + "..."


def show_call(function: str, params: Iterable[str], args: tuple[Any, ...]) -> str:
    """The call as the reader would type it, with parameter names."""
    parts = [f"{p}={show(a)}" for p, a in zip(params, args, strict=False)]  # optional last
    return f"{function}({', '.join(parts)})"


# --- comparing ----------------------------------------------------------------------------


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def as_list(x: Any) -> list[Any] | None:
    """The reader's sequence as a list (tuples, generators, array-likes), or None."""
    if isinstance(x, (list, tuple)):
        return list(x)
    if isinstance(x, (str, bytes, dict)) or _is_number(x) or x is None:
        return None
    try:
        return list(x)
    except TypeError:
        return None


def compare(actual: Any, expected: Any, tol: float, where: str = "") -> str | None:
    """Why ``actual`` differs from ``expected``, or None when they agree within ``tol``.

    Numbers agree when ``|a - e| <= tol * max(1, |e|)`` (absolute near 0, relative
    for large values). Lists are compared item by item, lengths first. An expected
    ``True`` or ``False`` (a mask) is met by that bool only, not by 1 or 0.

    >>> compare(1.0000001, 1.0, 1e-6) is None
    True
    >>> compare([[True, False]], [[True, True]], 0.0)
    'item [0][1] is False, expected True'
    >>> compare([1, 0], [True, False], 0.0)
    'item [0] is 1, expected True'
    >>> compare([1, 2, 3], [1, 2], 1e-6)
    'the answer has 3 items, expected 2'
    >>> compare(float("nan"), 1.0, 1e-6)
    'the answer is nan, expected 1'
    """
    label = f"item {where}" if where else "the answer"
    if isinstance(expected, bool):
        if isinstance(actual, bool) and actual == expected:
            return None
        return f"{label} is {show(actual)}, expected {expected}"
    if _is_number(expected):
        if not _is_number(actual):
            kind = "a list" if as_list(actual) is not None else type(actual).__name__
            return f"{label} is {kind}, expected one number"
        a = float(actual)
        if not math.isnan(a) and abs(a - expected) <= tol * max(1.0, abs(expected)):
            return None
        return f"{label} is {show(actual)}, expected {show(expected)}"
    items = as_list(actual)
    if items is None:
        kind = "a number" if _is_number(actual) else type(actual).__name__
        return f"{label} is {kind}, expected a list of {len(expected)} items"
    if len(items) != len(expected):
        return f"{label} has {len(items)} items, expected {len(expected)}"
    for i, (a, e) in enumerate(zip(items, expected, strict=True)):
        reason = compare(a, e, tol, f"{where}[{i}]")
        if reason is not None:
            return reason
    return None


def tolerance_text(tol: float) -> str:
    return f"±{tol:g} (relative for values larger than 1)"


# --- running the reader's code ---------------------------------------------------------------


class TookTooLong(Exception):
    """Raised into the reader's code when it runs past its time limit."""


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Interrupt the reader's code after ``seconds`` (None: never), where signals allow.

    The command line passes ``LIMITS.run_ms``; the browser passes None and stops the
    whole worker instead.
    """
    if seconds is None or not hasattr(signal, "setitimer"):
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise TookTooLong(f"still running after {seconds:g} seconds")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _source_line(source: str, line: int | None) -> str:
    lines = source.splitlines()
    if line is None or not 1 <= line <= len(lines):
        return ""
    return lines[line - 1].strip()


def unreadable_character(source: str) -> tuple[int, str] | None:
    """The first (line, character) Python cannot compile: a lone surrogate or a NUL.

    >>> unreadable_character("x = 1\\ny = '\\ud800'\\n")
    (2, '\\ud800')
    >>> unreadable_character("print('ok')") is None
    True
    """
    for number, text in enumerate(source.split("\n"), start=1):
        for char in text:
            if char == "\0" or "\ud800" <= char <= "\udfff":
                return number, char
    return None


def learner_line(exc: BaseException, filename: str = ANSWER_FILE) -> int | None:
    """The line of the reader's file where ``exc`` was raised (innermost), or None."""
    line = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename == filename:
            line = lineno
    return line


def describe_exception(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):
        return f"SystemExit: {exc.code!r}" if exc.code is not None else "SystemExit"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def load(source: str, seconds: float | None = None) -> tuple[dict[str, Any], Result | None]:
    """Compile and execute the reader's code (for at most ``seconds``); a failure comes
    back as a Result."""
    unreadable = unreadable_character(source)
    if unreadable is not None:
        line, char = unreadable
        return {}, Result(
            "your code compiles",
            False,
            error=f"line {line} holds the character U+{ord(char):04X}, which Python cannot read "
            "in source code (a lone half of a surrogate pair, or a NUL)",
            line=line,
            code=_source_line(source, line).encode("ascii", "backslashreplace").decode(),
            hint="syntax",
        )
    try:
        code = compile(source, ANSWER_FILE, "exec")
    except SyntaxError as exc:
        return {}, Result(
            "your code compiles",
            False,
            error=f"{type(exc).__name__}: {exc.msg}",
            line=exc.lineno,
            code=_source_line(source, exc.lineno),
            hint="syntax",
        )
    except (RecursionError, MemoryError) as exc:  # CPython's guard against deep nesting
        return {}, Result(
            "your code compiles",
            False,
            error=f"{type(exc).__name__}: the code nests too deeply for Python to read",
            hint="syntax",
        )
    namespace: dict[str, Any] = {"__name__": "answer", "__file__": ANSWER_FILE}
    try:
        with time_limit(seconds):
            exec(code, namespace)
    except BaseException as exc:  # SystemExit and KeyboardInterrupt too: it is the reader's
        line = learner_line(exc)
        return {}, Result(
            "your code loads",
            False,
            error=describe_exception(exc),
            line=line,
            code=_source_line(source, line),
            hint="timeout" if isinstance(exc, TookTooLong) else "load-error",
        )
    return namespace, None


class Runner:
    """Calls the reader's function and turns every outcome into a :class:`Result`.

    A step's ``properties(run)`` receives one of these, so property checks report
    errors exactly like the fixed cases do. Each call may take ``seconds`` (None: no
    limit).
    """

    def __init__(
        self,
        step: ModuleType | SimpleNamespace,
        fn: Callable[..., Any],
        source: str,
        seconds: float | None = None,
    ) -> None:
        self.step = step
        self.fn = fn
        self.source = source
        self.seconds = seconds

    def call_text(self, args: tuple[Any, ...]) -> str:
        return show_call(self.step.FUNCTION, self.step.PARAMS, args)

    def call(self, name: str, args: tuple[Any, ...]) -> tuple[Any, Result | None]:
        """Call the function on a copy of ``args``: (answer, None) or (None, failure)."""
        try:
            with time_limit(self.seconds):
                value = self.fn(*copy.deepcopy(args))
        except RecursionError as exc:
            return None, self._error(name, args, exc, "exception")
        except (SystemExit, KeyboardInterrupt) as exc:  # the reader's, not the runner's
            return None, self._error(name, args, exc, "system-exit")
        except Exception as exc:
            explain = getattr(self.step, "explain_exception", None)
            hint = explain(exc, args) if explain else None
            if isinstance(exc, TookTooLong):
                hint = "timeout"
            elif hint is None:
                hint = "not-implemented" if isinstance(exc, NotImplementedError) else "exception"
            return None, self._error(name, args, exc, hint)
        if value is None:
            return None, Result(name, False, call=self.call_text(args), hint="returned-none")
        return value, None

    def _error(self, name: str, args: tuple[Any, ...], exc: BaseException, hint: str) -> Result:
        line = learner_line(exc)
        return Result(
            name,
            False,
            call=self.call_text(args),
            error=describe_exception(exc),
            line=line,
            code=_source_line(self.source, line),
            hint=hint,
        )

    def diagnose(self, args: tuple[Any, ...], actual: Any, expected: Any, tol: float) -> list[str]:
        """The hints of every known mistake whose answer equals the reader's, in order."""
        hints: list[str] = []
        listed = getattr(self.step, "MODELS", None)  # a plan's; a checks module's otherwise
        for mistake in models(self.step) if listed is None else listed:
            try:
                wrong = mistake.compute(*copy.deepcopy(args))
            except Exception:
                continue
            if compare(wrong, expected, tol) is not None and compare(actual, wrong, tol) is None:
                if mistake.hint not in hints:
                    hints.append(str(mistake.hint))
        return hints

    def check_case(self, case: Case) -> tuple[Result, list[str]]:
        """The result of one case and the mistakes that explain a wrong answer."""
        actual, failure = self.call(case.name, case.args)
        if failure is not None:
            failure.expected = show(case.expected)
            return failure, []
        reason = compare(actual, case.expected, case.tol)
        result = Result(
            case.name,
            reason is None,
            call=self.call_text(case.args),
            expected=show(case.expected),
            actual=show(actual),
            tolerance=tolerance_text(case.tol),
        )
        if reason is None:
            return result, []
        result.detail = reason
        candidates = self.diagnose(case.args, actual, case.expected, case.tol)
        if not candidates:
            candidates = self.read_answer(case.args, actual)
        result.hint = candidates[0] if candidates else str(self.step.FALLBACK_HINT)
        return result, candidates

    def read_answer(self, args: tuple[Any, ...], actual: Any) -> list[str]:
        """The hint the step's ``explain_answer(actual, args)`` reads in a wrong answer
        that no known mistake explains (a NaN, say), as a list of at most one."""
        explain = getattr(self.step, "explain_answer", None)
        if explain is None:
            return []
        try:
            hint = explain(actual, args)
        except Exception:  # the answer can be anything: a step's reading must not crash
            return []
        return [str(hint)] if hint else []

    def relation(
        self,
        name: str,
        args: tuple[Any, ...],
        changed: tuple[Any, ...],
        *,
        expected: str,
        hint: str,
        predict: Callable[[Any], Any] = lambda answer: answer,
        part: Callable[[Any], Any] = lambda answer: answer,
        tol: float = 1e-9,
    ) -> Result:
        """A property check: call twice, change the input, compare the two answers.

        The function is called on ``args``, then on ``changed``. ``part`` picks what
        is compared from each answer (all of it by default); the part of the second
        answer must equal ``predict`` applied to the part of the first (the same, by
        default). ``expected`` describes that target for the reader.

        Examples
        --------
        >>> step = ModuleType("step")
        >>> step.FUNCTION, step.PARAMS = "first", ("xs",)
        >>> run = Runner(step, lambda xs: xs[0], "")
        >>> run.relation("reversing", ([1, 2],), ([2, 1],), expected="the same",
        ...              hint="x").passed
        False
        >>> run.relation("reversing", ([1, 2],), ([2, 1],), expected="the last item",
        ...              hint="x", predict=lambda first: 2).passed
        True
        """
        before, failure = self.call(name, args)
        if failure is None:
            after, failure = self.call(name, changed)
        if failure is not None:
            return failure
        try:
            target, got = predict(part(before)), part(after)
        except Exception:  # an answer of the wrong shape: say so below
            target, got = before, after
        reason = compare(got, target, tol)
        return self.check(
            name,
            changed,
            ok=reason is None,
            actual=after,
            expected=f"{expected}: {show(target)}",
            hint=hint,
            tol=tol,
            detail=reason or "",
        )

    def unchanged_by(
        self, name: str, args: tuple[Any, ...], changed: tuple[Any, ...], tol: float = 1e-9
    ) -> Result:
        """The answer for ``changed`` equals the answer for ``args`` (:meth:`relation`).

        Used for "shuffling keys (or weights) and values together changes nothing".
        """
        return self.relation(
            name,
            args,
            changed,
            expected="the output before shuffling",
            hint="permutation",
            tol=tol,
        )

    def leaves_input_alone(self, case: Case) -> Result | None:
        """A check every step gets: the function does not change the lists it is given.

        None when the call raises: the cases report that error already.
        """
        name = "your function leaves its input lists unchanged"
        given = copy.deepcopy(case.args)
        try:
            with time_limit(self.seconds):
                self.fn(*given)
        except (Exception, SystemExit, KeyboardInterrupt):
            return None
        changed = [
            f"{param} became {show(after)}"
            for param, before, after in zip(self.step.PARAMS, case.args, given, strict=True)
            if after != before  # exact: the same items, the same structure
        ]
        return Result(
            name,
            not changed,
            call=self.call_text(case.args),
            expected="the same lists after the call as before it",
            actual="; ".join(changed) or "unchanged",
            tolerance="none: every item as it was",
            detail="; ".join(changed),
            hint="mutated-input" if changed else "",
        )

    def check(
        self,
        name: str,
        args: tuple[Any, ...],
        *,
        ok: bool,
        actual: Any,
        expected: str,
        hint: str,
        tol: float | None = None,
        detail: str = "",
    ) -> Result:
        """A property check's result (``ok`` computed by the step)."""
        return Result(
            name,
            ok,
            call=self.call_text(args),
            expected=expected,
            actual=show(actual),
            tolerance=tolerance_text(tol) if tol is not None else "",
            detail="" if ok else detail,
            hint="" if ok else hint,
        )


class Printed(io.TextIOBase):
    """A text stream that keeps the first ``limit`` characters written and counts the rest.

    >>> out = Printed(limit=5)
    >>> print("hello world", file=out)
    >>> out.shown, out.total, out.cut
    ('hello', 12, 7)
    """

    def __init__(self, limit: int = LIMITS.print_chars) -> None:
        super().__init__()
        self.limit = limit
        self.shown = ""
        self.total = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        self.total += len(text)
        room = self.limit - len(self.shown)
        if room > 0:
            self.shown += text[:room]
        return len(text)

    @property
    def cut(self) -> int:
        """How many characters were printed beyond the limit (not kept)."""
        return self.total - len(self.shown)

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.shown, "total": self.total, "cut": self.cut, "limit": self.limit}


def run_capturing(
    step: ModuleType, source: str, seconds: float | None = None
) -> tuple[list[Result], Printed]:
    """:func:`run`, with what the reader's code printed (stdout and stderr) captured."""
    printed = Printed()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        results = run(step, source, seconds)
    return results, printed


def run(step: ModuleType, source: str, seconds: float | None = None) -> list[Result]:
    """Run every check of ``step`` (a checks module) against the reader's ``source``,
    each call of the reader's code stopped after ``seconds`` (None: never)."""
    texts = hints_of(step)  # before the reader's code runs, as every part of the step
    results = _run(step, source, seconds)
    for result in results:
        result.hint_text = texts.get(result.hint, result.hint)
    return results


def plan_of(step: ModuleType) -> SimpleNamespace:
    """What a run needs from a step's checks module, taken before the reader's code runs.

    The cases (with their expected values), the known mistakes, the hints and the
    property checks are read once, up front: code that later edits the checks module
    (through ``sys.modules``, say) cannot change the checks of the run it is part of.
    """
    return SimpleNamespace(
        TITLE=getattr(step, "TITLE", ""),
        FUNCTION=step.FUNCTION,
        PARAMS=tuple(step.PARAMS),
        FALLBACK_HINT=step.FALLBACK_HINT,
        MODELS=tuple(models(step)),
        HINTS=dict(getattr(step, "HINTS", {})),
        explain_exception=getattr(step, "explain_exception", None),
        explain_answer=getattr(step, "explain_answer", None),
        properties=getattr(step, "properties", None),
        cases=tuple(step.cases()),
    )


def _run(module: ModuleType, source: str, seconds: float | None) -> list[Result]:
    step = plan_of(module)
    namespace, failure = load(source, seconds)
    if failure is not None:
        return [failure]
    fn = namespace.get(step.FUNCTION)
    if not callable(fn):
        params = ", ".join(step.PARAMS)
        return [
            Result(
                f"a function {step.FUNCTION}({params}) exists",
                False,
                error=f"no function named {step.FUNCTION!r} in your code",
                hint="missing-function",
            )
        ]
    runner = Runner(step, fn, source, seconds)  # type: ignore[arg-type]
    cases = step.cases
    checked = []
    for case in cases:
        checked.append(runner.check_case(case))
        if checked[-1][0].hint == "timeout":
            break  # one endless loop is enough: do not wait for it on every case
    # A wrong answer can match several known mistakes on one case (√n_k equals d_k when
    # there are as many keys as dimensions): give each case the hint that explains the
    # most cases overall, so the reader gets one consistent story.
    votes: dict[str, int] = {}
    for _, candidates in checked:
        for hint in candidates:
            votes[hint] = votes.get(hint, 0) + 1
    results = []
    for result, candidates in checked:
        if len(candidates) > 1:
            result.hint = max(candidates, key=lambda hint: votes[hint])
        results.append(result)
    properties: Callable[[Runner], Iterator[Result]] | None = getattr(step, "properties", None)
    if not any(r.hint == "timeout" for r in results):
        if properties is not None:
            results.extend(properties(runner))
        untouched = runner.leaves_input_alone(cases[0])
        if untouched is not None:
            results.append(untouched)
    return results


# --- entry points: the command line and the browser ------------------------------------------


def load_step(path: str | Path) -> ModuleType:
    """Import a step's ``checks.py`` under a unique module name (cached)."""
    path = Path(path).resolve()
    name = "practice_checks_" + path.parent.name
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import checks from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


#: The command line's label of each field of a failed result, in the order shown.
CLI_LABELS = (
    ("call", "call"),
    ("actual", "got"),
    ("expected", "expected"),
    ("tolerance", "tolerance"),
    ("detail", "why"),
    ("error", "error"),
    ("line", "line"),
    ("hint_text", "hint"),
)


def report_text(title: str, rows: list[dict[str, Any]], printed: dict[str, Any]) -> str:
    """The command line's report, from the plain data the page receives too: ``rows`` as
    :meth:`Result.as_dict` gives them, ``printed`` as :meth:`Printed.as_dict`.

    >>> rows = [Result("adds", True).as_dict(),
    ...         Result("big", False, call="f(9)", actual="1", line=2, code="return 1",
    ...                hint_text="Add.").as_dict()]
    >>> print(report_text("Step 9", rows, {"text": "hi", "total": 5, "cut": 3, "limit": 2}))
    PASS  adds
    FAIL  big
          call:      f(9)
          got:       1
          line:      2: return 1
          hint:      Add.
    <BLANKLINE>
    Step 9: 1 of 2 checks passed (not yet)
    <BLANKLINE>
    Your code printed (at most 2 characters):
    hi
    ... (3 more characters not shown)
    """
    lines = []
    for row in rows:
        lines.append(("PASS  " if row["passed"] else "FAIL  ") + row["name"])
        if row["passed"]:
            continue
        for field, label in CLI_LABELS:
            value = row[field]
            if field == "line":
                value = f"{value}: {row['code']}" if value else ""
            if value:
                lines.append(f"      {label + ':':<10} {value}")
    passed = sum(row["passed"] for row in rows)
    verdict = "all checks passed" if passed == len(rows) else "not yet"
    lines.append(f"\n{title}: {passed} of {len(rows)} checks passed ({verdict})")
    if printed["total"]:
        lines.append(f"\nYour code printed (at most {printed['limit']} characters):")
        cut = printed["cut"]
        lines.append(printed["text"] + (f"\n... ({cut} more characters not shown)" if cut else ""))
    return "\n".join(lines)


def main(step: ModuleType | None, argv: list[str]) -> int:
    """The command line: print each check, exit 0 only if all pass (2: a usage error).

    ``python checks.py ANSWER.py`` runs a step's checks module as a script: it passes
    itself as ``step``. ``python _harness.py CHECKS.py ANSWER.py`` passes None, and the
    checks are imported from ``CHECKS.py``. Each call of the reader's code may take
    ``LIMITS.run_ms``.
    """
    usage = "python checks.py ANSWER.py" if step else "python _harness.py CHECKS.py ANSWER.py"
    if len(argv) != (2 if step else 3):
        print(f"usage: {usage}", file=sys.stderr)
        return 2
    try:
        if step is None:
            step = load_step(argv[1])
        source = Path(argv[-1]).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    results, printed = run_capturing(step, source, LIMITS.run_ms / 1000)
    rows = [r.as_dict() for r in results]
    print(report_text(str(step.TITLE), rows, printed.as_dict()))
    return 0 if all(r.passed for r in results) else 1


# --- the browser's runner: every run on a clean slate ------------------------------------------

#: The modules whose contents a verdict relies on: a run whose code changes one of them
#: (``json.dumps``, ``math.exp``, ``builtins.print``...) does not count.
WATCHED_MODULES = (
    "builtins",
    "collections.abc",
    "contextlib",
    "copy",
    "dataclasses",
    "io",
    "json",
    "json.decoder",
    "json.encoder",
    "math",
    "random",
    "sys",
    "traceback",
    "types",
    "typing",
)
#: Entries of a watched module that Python itself changes while running.
VOLATILE = frozenset({"last_exc", "last_type", "last_value", "last_traceback", "_"})
#: The fields of a :class:`Result` that the page receives, in order.
FIELDS = (
    "name",
    "passed",
    "call",
    "expected",
    "actual",
    "tolerance",
    "error",
    "line",
    "code",
    "hint",
    "detail",
    "hint_text",
)
_MISSING = object()


def _changed(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The keys whose value is not the very same object (or is new, or gone)."""
    keys = [k for k in before if k not in VOLATILE and after.get(k, _MISSING) is not before[k]]
    keys += [k for k in after if k not in before and k not in VOLATILE]
    return sorted(str(k) for k in keys)


def _put_back(namespace: dict[str, Any], before: dict[str, Any], keys: Iterable[str]) -> None:
    for key in keys:
        if key in before:
            namespace[key] = before[key]
        else:
            namespace.pop(key, None)


def tamper_line(source: str, names: Iterable[str]) -> int | None:
    """The first line of ``source`` that assigns to (or empties) one of ``names``.

    >>> tamper_line("import json\\njson.dumps = str\\n", ["json.dumps"])
    2
    >>> tamper_line("import sys\\nsys.modules.clear()\\n", ["sys.modules"])
    2
    >>> tamper_line("print(1)\\n", ["builtins.print"]) is None
    True
    """
    import re  # only the browser's runner needs it

    for number, text in enumerate(source.splitlines(), start=1):
        for name in names:
            last = re.escape(name.rsplit(".", 1)[-1])
            pattern = (
                rf"(\.|\[['\"]){last}(['\"]\])?\s*=[^=]|{last}\s*\.\s*(clear|pop|update)\(|"
                rf"setattr\([^,]+,\s*['\"]{last}['\"]"
            )
            if re.search(pattern, text):
                return number
    return None


class Guard:
    """The browser worker's runner: one fresh harness and checks module for every run.

    Created once, when Python has started and before any reader's code has run, it
    keeps private references to what it relies on (JSON serialisation, the modules'
    contents, ``builtins``, ``sys.modules``) and compiles the harness and each step's
    checks. :meth:`run` then, for every run:

    1. executes the harness and the step's checks afresh, with a fresh copy of the
       built-ins, so nothing a previous run did to them carries over;
    2. runs the checks (:func:`run_capturing`; their cases are read before the
       reader's code runs);
    3. compares every watched module, the harness, the checks and ``sys.modules`` with
       how they were before: if the reader's code changed any of them, the run does not
       count, whatever it reported;
    4. puts back what was changed (and the recursion limit, ``sys.path``, the standard
       streams), and asks for a fresh interpreter when anything had been tampered with.

    The worker should hold this object in a closure, where the reader's code cannot
    reach it by name. Python cannot be sandboxed within one interpreter: this stops
    accidents and one-line tricks, not a determined effort.
    """

    def __init__(self, harness_source: str, checks: dict[str, str]) -> None:
        self._harness_code = compile(harness_source, "/practice/_harness.py", "exec")
        self._checks = {
            step: compile(text, f"/practice/{step}/checks.py", "exec")
            for step, text in checks.items()
        }
        self._dumps = json.dumps
        self._modules = sys.modules
        self._sys = sys
        self._setlimit = sys.setrecursionlimit
        self._limit = sys.getrecursionlimit()
        self._path = list(sys.path)
        self._stdio = (sys.stdout, sys.stderr)
        self._boot_modules = dict(sys.modules)
        builtins_module = sys.modules["builtins"]
        self._builtins = dict(builtins_module.__dict__)
        self._tiers = tiers

    def _fresh(self, name: str, code: CodeType, run_builtins: dict[str, Any]) -> ModuleType:
        module = ModuleType(name)
        module.__file__ = code.co_filename
        module.__dict__["__builtins__"] = run_builtins
        self._modules[name] = module
        exec(code, module.__dict__)
        return module

    def _namespaces(self, harness: ModuleType, checks: ModuleType) -> dict[str, dict[str, Any]]:
        spaces: dict[str, dict[str, Any]] = {}
        for name in WATCHED_MODULES:
            module = self._modules.get(name)
            if module is not None:
                spaces[name] = module.__dict__
        for label, module in (("_harness", harness), ("checks", checks)):
            spaces[label] = module.__dict__
            for key, value in list(module.__dict__.items()):
                if isinstance(value, type) and value.__module__ == module.__name__:
                    spaces[f"{label}.{key}"] = value.__dict__  # type: ignore[assignment]
        spaces["__builtins__ of this run"] = harness.__dict__["__builtins__"]
        return spaces

    def run(self, step: str, source: str) -> str:
        """Run ``step``'s checks on ``source``: the page's report, as a JSON string.

        The report holds ``passed``, ``total``, ``results`` and ``printed`` in the
        shape of :meth:`Result.as_dict` and :meth:`Printed.as_dict`, or ``crash`` (one
        line) when the harness itself failed; ``tampered`` lists what the reader's code
        changed (then there are no results), and ``restart`` asks for a fresh
        interpreter before the next run.
        """
        run_builtins = dict(self._builtins)
        harness = self._fresh("_harness", self._harness_code, run_builtins)
        checks = self._fresh(f"practice_checks_{step}", self._checks[step], run_builtins)
        spaces = self._namespaces(harness, checks)
        before = {label: dict(space) for label, space in spaces.items()}
        before["__builtins__ of this run"] = self._builtins
        body: dict[str, Any]
        try:
            results, printed = harness.run_capturing(checks, source)
            body = self._report(results, printed)
        except BaseException as exc:  # the harness itself broke: say so in one line
            body = {"crash": describe_exception(exc)[:300], "line": learner_line(exc)}
        tampered = self._tampered(spaces, before)
        self._restore(spaces, before)
        if tampered:
            body = {"tampered": tampered, "line": tamper_line(source, tampered)}
        body["restart"] = bool(tampered) or "crash" in body
        return self._dumps(body)

    def _report(self, results: list[Any], printed: Any) -> dict[str, Any]:
        rows = []
        for result in results:
            row: dict[str, Any] = {}
            for field in FIELDS:
                value = getattr(result, field, "")
                if field == "passed":
                    row[field] = value is True
                elif field == "line":
                    row[field] = value if type(value) is int else None
                else:
                    row[field] = value if type(value) is str else ""
            row["tiers"] = self._tiers(SimpleNamespace(**row))  # type: ignore[arg-type]
            rows.append(row)
        shown = printed.shown if type(printed.shown) is str else ""
        total = printed.total if type(printed.total) is int else len(shown)
        return {
            "passed": sum(row["passed"] for row in rows),
            "total": len(rows),
            "results": rows,
            "printed": {
                "text": shown,
                "total": total,
                "cut": total - len(shown),
                "limit": LIMITS.print_chars,
            },
        }

    def _tampered(self, spaces: dict[str, dict[str, Any]], before: dict[str, Any]) -> list[str]:
        found = []
        for label, space in spaces.items():
            for key in _changed(before[label], space):
                prefix = "builtins" if label == "__builtins__ of this run" else label
                name = f"{prefix}.{key}"
                if name not in found:
                    found.append(name)
        gone = [k for k, m in self._boot_modules.items() if self._modules.get(k) is not m]
        if gone:
            found.append("sys.modules")
        return found

    def _restore(self, spaces: dict[str, dict[str, Any]], before: dict[str, Any]) -> None:
        for label, space in spaces.items():
            if label.startswith(("_harness", "checks", "__builtins__")):
                continue  # fresh for every run anyway
            _put_back(space, before[label], _changed(before[label], space))
        for key, module in self._boot_modules.items():
            if self._modules.get(key) is not module:
                self._modules[key] = module
        self._sys.path[:] = self._path
        self._sys.stdout, self._sys.stderr = self._stdio
        self._setlimit(self._limit)


if __name__ == "__main__":  # python _harness.py CHECKS.py ANSWER.py
    sys.modules.setdefault("_harness", sys.modules[__name__])  # what the checks import
    sys.exit(main(None, sys.argv))
