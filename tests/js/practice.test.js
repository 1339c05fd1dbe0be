// The practice runner's pure helpers (docs/javascripts/practice/lib.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  STORAGE_PREFIX,
  TIERS,
  crashText,
  deepestNesting,
  limitsOf,
  manifestProblem,
  recursionLimitLine,
  reportProblem,
  startFailureText,
  tamperedText,
  unreadableCharacter,
  unreadableText,
  verdictText,
  formatMB,
  manifestPath,
  printedView,
  progressFraction,
  progressText,
  storageKeys,
  summaryText,
  tierButtonText,
  timeoutText,
} from "../../docs/javascripts/practice/lib.js";

test("storage keys are per step and reject anything that is not a step id", () => {
  assert.deepEqual(storageKeys("03_softmax"), {
    code: `${STORAGE_PREFIX}03_softmax/code`,
    failed: `${STORAGE_PREFIX}03_softmax/failed`,
  });
  assert.notEqual(storageKeys("01_dot").code, storageKeys("02_scores").code);
  assert.throws(() => storageKeys("softmax"), /not a practice step id: softmax/);
  assert.throws(() => storageKeys("01_dot/../x"), /not a practice step id/);
});

test("each lesson has its own manifest, named by the section's data-lesson", () => {
  assert.equal(manifestPath("attention"), "practice/attention/manifest.json");
  assert.equal(manifestPath("self-attention"), "practice/self-attention/manifest.json");
  // An empty attribute (data-lesson with no value), or anything that is not a page
  // slug, fails with a message the page can show.
  assert.throws(() => manifestPath(""), /names no lesson \(data-lesson=""\)/);
  assert.throws(() => manifestPath(undefined), /names no lesson/);
  assert.throws(() => manifestPath("../x"), /names no lesson/);
  assert.throws(() => manifestPath("Attention"), /names no lesson/);
});

test("the widget loader asks for the manifest where manifestPath puts it", () => {
  // The loader's map comes from the site model (site_build/site.py), which names the
  // address from the site's root rather than import lib.js.
  const model = readFileSync(new URL("../../site_build/site.py", import.meta.url), "utf8");
  const [, url] = model.match(/"manifest": \("([^"]+)"/);
  assert.equal(url, manifestPath("x").replace("/x/", "/{lesson}/"));
});

test("megabytes with one decimal, and bad byte counts are refused", () => {
  assert.equal(formatMB(8647684), "8.6 MB");
  assert.equal(formatMB(0), "0.0 MB");
  assert.throws(() => formatMB(-1), /not a byte count/);
  assert.throws(() => formatMB(NaN), /not a byte count/);
});

test("progress text and fraction stay within the total", () => {
  assert.equal(progressText(3_100_000, 12_200_000), "Loading Python in your browser: 3.1 MB of 12.2 MB");
  assert.equal(progressText(12_199_999, 12_200_000), "Loading Python in your browser: 12.2 MB of 12.2 MB");
  assert.equal(progressText(13_000_000, 12_200_000), "Downloaded; starting Python…");
  assert.equal(progressFraction(5, 10), 0.5);
  assert.equal(progressFraction(20, 10), 1);
  assert.equal(progressFraction(-1, 10), 0);
  assert.equal(progressFraction(5, 0), 0);
});

test("summary counts the passed checks", () => {
  assert.equal(summaryText({ passed: 3, total: 10 }), "3 of 10 checks passed.");
  assert.equal(summaryText({ passed: 10, total: 10 }), "All 10 checks passed.");
  assert.equal(summaryText({ passed: 0, total: 0 }), "0 of 0 checks passed.");
});

test("the time-out message names the limit and the restart", () => {
  assert.match(timeoutText(5000), /^Stopped after 5 seconds/);
  assert.match(timeoutText(3000), /after 3 seconds.*endless loop.*restarted/s);
});

test("printed output is shown as the harness kept it, with a note when cut", () => {
  assert.equal(printedView({ text: "", total: 0, cut: 0, limit: 400 }), null);
  assert.equal(printedView(null), null);
  assert.deepEqual(printedView({ text: "hi\n", total: 3, cut: 0, limit: 400 }), { text: "hi", note: "" });
  assert.deepEqual(printedView({ text: "x".repeat(400), total: 451, cut: 51, limit: 400 }), {
    text: "x".repeat(400),
    note: "Only the first 400 characters are shown (51 more were printed).",
  });
});

test("the three tiers of help are offered in order", () => {
  assert.deepEqual(TIERS, ["a nudge", "the failing call", "a solution"]);
  assert.equal(tierButtonText(0), "Show a hint (1 of 3)");
  assert.equal(tierButtonText(1), "Show the failing call (2 of 3)");
  assert.equal(tierButtonText(2), "Show a solution (3 of 3)");
  assert.throws(() => tierButtonText(3), /no hint tier 3/);
});

// --- a result is believed only when it names the step's checks ---------------------------

const NAMES = ["case 1", "case 2", "your function leaves its input lists unchanged"];
const row = (name, passed) => ({ name, passed });

test("a pass must name exactly the step's checks; counts must add up", () => {
  const good = { passed: 3, total: 3, results: NAMES.map((n) => row(n, true)) };
  assert.equal(reportProblem(good, NAMES), null);
  // The review's forged result: 11 checks claimed passed where the step has 16.
  const fewer = { passed: 2, total: 2, results: NAMES.slice(0, 2).map((n) => row(n, true)) };
  assert.equal(reportProblem(fewer, NAMES), "the result does not name this step's 3 checks");
  const renamed = { passed: 3, total: 3, results: ["a", "b", "c"].map((n) => row(n, true)) };
  assert.match(reportProblem(renamed, NAMES), /does not name/);
  const reordered = { passed: 3, total: 3, results: [...NAMES].reverse().map((n) => row(n, true)) };
  assert.match(reportProblem(reordered, NAMES), /does not name/);
  const miscounted = { passed: 3, total: 3, results: [row("case 1", true), row("case 2", false), row(NAMES[2], true)] };
  assert.equal(reportProblem(miscounted, NAMES), "the result miscounts its checks");
  assert.equal(reportProblem({ passed: 9, total: 9 }, NAMES), "the result holds no checks");
  assert.equal(reportProblem({ passed: 1, total: 1, results: [{ passed: true }] }, NAMES), "the result holds a check without a name");
  // A failing report is shown as it is (it can stop early: a syntax error is one check).
  const syntax = { passed: 0, total: 1, results: [row("your code compiles", false)] };
  assert.equal(reportProblem(syntax, NAMES), null);
});

test("a run that changed what the checks rely on is told in one line that does not pass", () => {
  const dumps = tamperedText(["json.dumps"], 2);
  assert.equal(dumps, "Your code changed json.dumps (line 2), which the checks rely on, so this run does not count. " +
    "Python was restarted, so the next run starts clean.");
  assert.match(tamperedText(["js.postMessage"], null), /^Your code sent the page a message of its own \(js\.postMessage\)/);
  assert.match(tamperedText(["sys.modules"], 3), /emptied or replaced entries of sys\.modules \(line 3\)/);
  assert.match(tamperedText(["a", "b", "c", "d"], null), /changed a and b and 2 more,/);
  assert.match(tamperedText(["the report: x"], null), /did not come from this step's checks \(the report: x\)/);
  for (const text of [dumps, tamperedText([], null), tamperedText(["sys.modules"], 1)]) {
    assert.ok(text.includes("does not count") && text.length < 300 && !text.includes("\n"));
  }
});

test("characters Python cannot read are found with their line", () => {
  assert.deepEqual(unreadableCharacter("a\nb = '\ud800'\n"), { line: 2, code: 0xd800 });
  assert.deepEqual(unreadableCharacter("x\n\ny\udc00"), { line: 3, code: 0xdc00 });
  assert.deepEqual(unreadableCharacter("a\u0000"), { line: 1, code: 0 });
  assert.equal(unreadableCharacter("emoji 😀 and é are fine"), null);
  assert.equal(unreadableText({ line: 2, code: 0xd800 }),
    "Line 2 holds U+D800, half of a surrogate pair, a character on its own that no text can hold: " +
    "Python cannot read it. Delete it and run again.");
});

test("bracket nesting is measured outside strings and comments", () => {
  assert.deepEqual(deepestNesting("x = 1"), { depth: 0, line: 1 });
  assert.deepEqual(deepestNesting("a = [1,\n [2, (3,\n {4})]]"), { depth: 4, line: 3 });
  assert.deepEqual(deepestNesting("s = '((((' # ((((\nt = \"\"\"[[[\n[[\"\"\"\nf(x)"), { depth: 1, line: 4 });
  assert.deepEqual(deepestNesting("x = " + "[".repeat(300) + "]".repeat(300)), { depth: 300, line: 1 });
  assert.equal(recursionLimitLine("import sys\n# sys.setrecursionlimit(5)\nsys.setrecursionlimit(10**6)\n"), 3);
  assert.equal(recursionLimitLine("def f(): pass"), null);
});

test("a crash of Python itself reads as a crash, in one line naming the reader's line", () => {
  const fatal = { fatal: "Maximum call stack size exceeded" };
  assert.match(crashText(fatal, "import sys\nsys.setrecursionlimit(100000)\n"),
    /^Your code recursed deeper than Python in the browser can go: sys\.setrecursionlimit on line 2 /);
  assert.match(crashText(fatal, "x = 1\ny = " + "(".repeat(60) + ")".repeat(60)),
    /^The code nests too deeply \(60 brackets, line 2\) for Python in the browser\./);
  assert.match(crashText(fatal, "def f(): return f()"), /its stack overflowed/);
  assert.match(crashText({ crash: "MemoryError: x\nmore", line: 4 }, ""), /^Python crashed while running your code on line 4 \(MemoryError: x\)\./);
  for (const text of [crashText(fatal, ""), crashText({ crash: "x".repeat(5000) }, "")]) {
    assert.ok(text.length < 300 && !text.includes("\n"), text);
  }
});

test("stopping Python from the reader's function is a one-line verdict naming the line", () => {
  const report = (error, hint, line) => ({ passed: 0, total: 2, results: [{ name: "c", passed: false, error, hint, line }, { name: "d", passed: false }] });
  assert.equal(verdictText(report("SystemExit: 3", "system-exit", 3)),
    "Your function called sys.exit() (or raised SystemExit) on line 3, which stops Python rather than returning an answer. 0 of 2 checks passed.");
  assert.match(verdictText(report("KeyboardInterrupt", "system-exit", 2)), /^Your function raised KeyboardInterrupt on line 2,/);
  assert.match(verdictText(report("SystemExit", "load-error", 1)), /^Your code called sys\.exit\(\)/);
  assert.equal(verdictText(report("ValueError: x", "exception", 2)), "0 of 2 checks passed.");
});

// --- start-up ends in a message ----------------------------------------------------------

test("every start-up failure names what failed, in a learner's words, and says Retry", () => {
  const cases = [
    [{ reason: "http", file: "pyodide.asm.wasm", status: 404 },
      "Python could not start: Python itself (pyodide.asm.wasm) could not be downloaded (the server answered HTTP 404). Check the connection, then press Retry."],
    [{ reason: "http", file: "python_stdlib.zip", status: 404 }, /standard library \(python_stdlib\.zip\) could not be downloaded/],
    [{ reason: "http", file: "pyodide-lock.json", status: 500 }, /package list \(pyodide-lock\.json\).*HTTP 500/],
    [{ reason: "short", file: "pyodide.asm.wasm", loaded: 3_600_000, expected: 8_647_684 }, /Python itself \(pyodide\.asm\.wasm\) arrived incomplete \(3\.6 MB of 8\.6 MB\)/],
    [{ reason: "broken", file: "python_stdlib.zip" }, /the download of Python's standard library \(python_stdlib\.zip\) broke off/],
    [{ reason: "stalled", ms: 30000, loaded: 3_600_000, total: 12_300_000 }, /the download stopped: no data for 30 s, at 3\.6 MB of 12\.3 MB/],
    [{ reason: "stalled", ms: 30000, loaded: 12_300_000, total: 12_300_000 }, /it downloaded, but did not finish starting within 30 s/],
    [{ reason: "manifest", problem: "the list of exercises (m.json) is empty" }, "Python could not start: the list of exercises (m.json) is empty. Press Retry to load it again."],
    [{ reason: "exception", message: "boom\nat x" }, "Python could not start: boom. Check the connection, then press Retry."],
  ];
  for (const [detail, want] of cases) {
    const text = startFailureText(detail);
    if (typeof want === "string") assert.equal(text, want);
    else assert.match(text, want);
    assert.ok(text.startsWith("Python could not start: ") && !/undefined|NaN/.test(text), text);
  }
});

test("a manifest that cannot drive the page is named, not read as undefined", () => {
  const good = {
    pyodide: { index: "vendor/pyodide/", bytes: 10, files: {} },
    harness: "x",
    limits: { print_chars: 400, run_ms: 5000, start_stall_ms: 60000 },
    steps: [{ id: "01_dot", checks: "c", starter: "s" }],
  };
  assert.equal(manifestProblem(good, "p.json"), null);
  assert.equal(manifestProblem({}, "p.json"), "the list of exercises (p.json) is empty");
  assert.equal(manifestProblem(null, "p.json"), "the list of exercises (p.json) is not an object");
  assert.equal(manifestProblem([], "p.json"), "the list of exercises (p.json) is not an object");
  assert.match(manifestProblem({ ...good, pyodide: undefined }), /does not say where Python is/);
  assert.match(manifestProblem({ ...good, steps: [] }), /has no exercise/);
  assert.match(manifestProblem({ ...good, steps: [{ id: "01_dot" }] }), /without its code or checks/);
  assert.match(manifestProblem({ ...good, harness: "" }), /no check runner/);
  assert.match(manifestProblem({ ...good, limits: undefined }), /does not give the runner's limits/);
  assert.match(manifestProblem({ ...good, limits: { run_ms: 5000 } }), /does not give the runner's limits/);
});

test("the limits come from the manifest only, and a bad one is refused", () => {
  assert.deepEqual(limitsOf({ limits: { run_ms: 2000, start_stall_ms: 500, print_chars: 9 } }), { runMs: 2000, startStallMs: 500 });
  assert.equal(limitsOf({}), null);
  assert.equal(limitsOf(null), null);
  assert.equal(limitsOf({ limits: { run_ms: -1, start_stall_ms: 500 } }), null);
  assert.equal(limitsOf({ limits: { run_ms: 2000, start_stall_ms: "x" } }), null);
});
