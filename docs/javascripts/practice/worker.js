// The practice runner's Web Worker: Pyodide (self-hosted, classic worker) runs the
// reader's code and the hidden checks here, never on the page's main thread, so an
// endless loop cannot freeze the page; the page terminates this worker when a run
// takes too long, or when a run changed what the checks rely on, and starts a fresh
// one for the next run.
//
// Messages in:  {type: "init", index, total, files, harness, steps: [{id, checks}]}
//               {type: "run", id, step, source}
// Messages out: {type: "progress", loaded, total}, {type: "ready", ms, secret},
//               {type: "error", reason, file, status, loaded, expected, message},
//               {type: "result", id, secret, report, log, ms}
//
// The reader's code runs in this worker's Python and can reach this worker's globals
// (`import js`). So everything the runner relies on is held in this closure, taken
// before any reader's code has run: the original postMessage, JSON.parse, the
// harness's Guard (snapshot and restore of the interpreter, snapshot/_harness.py), and
// a secret made here, handed to the page once with "ready", never to Python, and sent
// with every result: the page accepts a result only with it, so a result posted from
// the reader's code (js.postMessage) is recognised as not the runner's.
"use strict";

(() => {
  const post = self.postMessage.bind(self);
  const parse = JSON.parse;
  const now = performance.now.bind(performance);
  const originalFetch = self.fetch.bind(self);
  const ownKeys = Object.getOwnPropertyNames;
  const describe = Object.getOwnPropertyDescriptor;
  const secret = Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(16)).join("-");
  const MAX_LOG = 200;

  let booting = null; // Promise of the Guard's run method (a PyProxy), once init has arrived
  let log = []; // what Python wrote to the real stdout/stderr (Pyodide's own messages)
  let globalsAtReady = null; // this worker's own global properties, once Python is ready
  let failed = false;
  const never = new Promise(() => {});

  const fail = (detail) => {
    if (failed) return;
    failed = true;
    post({ type: "error", ...detail });
  };

  // `onmessage` and `close` live on the worker's prototype, not on `self`, so the
  // snapshot of own globals below cannot see `js.onmessage = None` or `js.close()`. The
  // handler is compared after each run, and `close` becomes this worker's own function,
  // which records the call instead of closing: either marks the run as tampered, and
  // the page gives the next run a fresh worker.
  let closeCalled = false;
  self.close = function close() {
    closeCalled = true;
  };

  const handler = (event) => {
    const msg = event.data;
    if (msg.type === "init" && !booting) {
      booting = boot(msg);
      booting.catch((err) => fail({ reason: "exception", message: String((err && err.message) || err) }));
    } else if (msg.type === "run") {
      run(msg);
    }
  };
  self.onmessage = handler; // synchronously, before any await

  // What this worker's globals hold: a run that changes them (js.onmessage = ...) would
  // carry over to the next run, so it does not count and the page restarts the worker.
  function globalsNow() {
    const seen = new Map();
    for (const key of ownKeys(self)) {
      const d = describe(self, key);
      seen.set(key, d && ("value" in d ? d.value : d.get));
    }
    return seen;
  }

  function changedGlobals() {
    if (!globalsAtReady) return [];
    const after = globalsNow();
    const changed = [];
    for (const [key, value] of after) {
      if (!globalsAtReady.has(key) || !Object.is(globalsAtReady.get(key), value)) changed.push(`js.${key}`);
    }
    for (const key of globalsAtReady.keys()) if (!after.has(key)) changed.push(`js.${key}`);
    return changed;
  }

  // Count the bytes Pyodide downloads (the wasm, the standard library, the lock file) to
  // show real progress, and turn a failed download into a message naming the file: a
  // missing or short file otherwise leaves Pyodide waiting forever.
  function watchDownloads(total, alreadyLoaded, expected) {
    let loaded = alreadyLoaded;
    let last = 0;
    const report = (force) => {
      const t = Date.now();
      if (force || t - last > 100) {
        last = t;
        post({ type: "progress", loaded: Math.min(loaded, total), total });
      }
    };
    report(true);
    self.fetch = async (input, init) => {
      const url = String((input && input.url) || input);
      const file = url.split("?")[0].split("/").pop();
      let response;
      try {
        response = await originalFetch(input, init);
      } catch (err) {
        fail({ reason: "network", file, message: String((err && err.message) || err) });
        return never; // the page stops this worker: Pyodide need not go on with nothing
      }
      if (!response.ok) {
        fail({ reason: "http", file, status: response.status });
        return never;
      }
      if (!response.body) return response;
      const reader = response.body.getReader();
      let received = 0;
      const body = new ReadableStream({
        async pull(controller) {
          let chunk;
          try {
            chunk = await reader.read();
          } catch (err) {
            fail({ reason: "broken", file, loaded: received, expected: expected[file] });
            controller.error(err);
            return;
          }
          if (chunk.done) {
            if (expected[file] && received < expected[file]) {
              fail({ reason: "short", file, loaded: received, expected: expected[file] });
              return never; // not handed on: Pyodide would fail on it in its own words
            }
            report(true);
            controller.close();
            return;
          }
          received += chunk.value.byteLength;
          loaded += chunk.value.byteLength;
          report(false);
          controller.enqueue(chunk.value);
        },
      });
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    };
  }

  async function boot({ index, total, loaderBytes, files, harness, steps }) {
    const t0 = now();
    try {
      importScripts(index + "pyodide.js");
    } catch {
      // The browser's words name the address and the API; the reader's name the file.
      fail({ reason: "loader", file: "pyodide.js" });
      return null;
    }
    watchDownloads(total, loaderBytes || 0, files || {});
    const write = (line) => {
      if (log.length < MAX_LOG) log.push(line);
    };
    const pyodide = await self.loadPyodide({ indexURL: index, stdout: write, stderr: write });
    if (failed) return null;
    post({ type: "progress", loaded: total, total }); // downloaded and started: the page's clock restarts
    // The Guard comes from a private copy of the harness (never in sys.modules), with
    // its own copy of the built-ins; it compiles the harness and the checks for the runs.
    const make = pyodide.runPython(
      [
        "import builtins, sys, types",
        "def _make_guard(harness, checks):",
        "    module = types.ModuleType('_harness_guard')",
        "    module.__dict__['__builtins__'] = dict(builtins.__dict__)",
        "    sys.modules['_harness_guard'] = module",
        "    try:",
        "        exec(compile(harness, '/practice/_harness.py', 'exec'), module.__dict__)",
        "    finally:",
        "        del sys.modules['_harness_guard']",
        "    return module.Guard(harness, dict(checks))",
        "_make_guard",
      ].join("\n"),
      { globals: pyodide.toPy({}) },
    );
    const checks = pyodide.toPy(steps.map((s) => [s.id, s.checks]));
    const guard = make(harness, checks);
    checks.destroy();
    make.destroy();
    const guardRun = guard.run; // a bound method: later edits to the class do not reach it
    // One run before any reader's code, so that what the harness imports on first use
    // is imported now and counted as part of the clean state.
    guardRun(steps[0].id, "raise ValueError('warm-up')\n");
    globalsAtReady = globalsNow();
    log = [];
    post({ type: "ready", ms: Math.round(now() - t0), secret });
    return guardRun;
  }

  async function run({ id, step, source }) {
    if (!booting) {
      post({ type: "error", reason: "exception", message: "the runner was asked to run before it was started" });
      return;
    }
    const guardRun = await booting;
    if (!guardRun) return;
    log = [];
    const t0 = now();
    let report;
    try {
      report = parse(guardRun(step, source));
    } catch (err) {
      // The interpreter itself failed (Pyodide's fatal errors: the stack overflowed).
      const message = String((err && err.message) || err).split("\n")[0].slice(0, 300);
      report = { fatal: message, restart: true };
    }
    const changed = changedGlobals();
    if (self.onmessage !== handler) changed.push("js.onmessage");
    if (closeCalled) changed.push("js.close");
    if (changed.length) report = { tampered: [...(report.tampered || []), ...changed], line: report.line ?? null, restart: true };
    post({ type: "result", id, secret, report, log: log.slice(0, MAX_LOG), ms: Math.round(now() - t0) });
  }
})();
