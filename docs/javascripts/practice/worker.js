// The practice runner's Web Worker: Pyodide (self-hosted, classic worker) runs the
// reader's code and the hidden checks here, never on the page's main thread, so an
// endless loop cannot freeze the page; the page terminates this worker when a run
// takes too long and starts a fresh one for the next run.
//
// Messages in:  {type: "init", index, total, harness, steps: [{id, checks}]}
//               {type: "run", id, step, source}
// Messages out: {type: "progress", loaded, total}, {type: "ready", ms},
//               {type: "result", id, report, printed, ms}, {type: "error", message}
"use strict";

let booting = null; // Promise of the harness module (a PyProxy), once init has arrived
let printed = [];
const MAX_PRINTED = 200;

self.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === "init" && !booting) {
    booting = boot(msg);
    booting.catch((err) => self.postMessage({ type: "error", message: String(err && err.message || err) }));
  } else if (msg.type === "run") {
    run(msg);
  }
};

// Count the bytes Pyodide downloads (the wasm, the standard library, the lock file) to
// show real progress: every fetch response is passed through a counting stream.
function countDownloads(total, alreadyLoaded) {
  const original = self.fetch.bind(self);
  let loaded = alreadyLoaded;
  let last = 0;
  const report = (force) => {
    const now = Date.now();
    if (force || now - last > 100) {
      last = now;
      self.postMessage({ type: "progress", loaded: Math.min(loaded, total), total });
    }
  };
  report(true);
  self.fetch = async (input, init) => {
    const response = await original(input, init);
    if (!response.ok || !response.body) return response;
    const counter = new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        report(false);
        controller.enqueue(chunk);
      },
      flush() {
        report(true);
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

async function boot({ index, total, loaderBytes, harness, steps }) {
  const t0 = performance.now();
  importScripts(index + "pyodide.js");
  countDownloads(total, loaderBytes || 0);
  const write = (line) => {
    if (printed.length < MAX_PRINTED) printed.push(line);
  };
  const pyodide = await self.loadPyodide({ indexURL: index, stdout: write, stderr: write });
  const fs = pyodide.FS;
  fs.mkdirTree("/practice");
  fs.writeFile("/practice/_harness.py", harness);
  for (const step of steps) {
    fs.mkdirTree(`/practice/${step.id}`);
    fs.writeFile(`/practice/${step.id}/checks.py`, step.checks);
  }
  pyodide.runPython("import sys\nif '/practice' not in sys.path:\n    sys.path.insert(0, '/practice')");
  const module = pyodide.pyimport("_harness");
  self.postMessage({ type: "ready", ms: Math.round(performance.now() - t0) });
  return module;
}

async function run({ id, step, source }) {
  if (!booting) {
    self.postMessage({ type: "error", message: "the runner was asked to run before it was started" });
    return;
  }
  const harness = await booting;
  printed = [];
  const t0 = performance.now();
  try {
    const json = harness.run_json(`/practice/${step}/checks.py`, source);
    self.postMessage({
      type: "result",
      id,
      report: JSON.parse(json),
      printed,
      ms: Math.round(performance.now() - t0),
    });
  } catch (err) {
    // The harness catches the reader's errors itself; this is a failure of the runner.
    self.postMessage({ type: "result", id, crash: String(err && err.message || err), printed });
  }
}
