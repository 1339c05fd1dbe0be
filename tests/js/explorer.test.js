// The explorer's maths against the data the build exports (site_build/widget_data.py,
// computed by attention_ref): the JS recomputes the worked example from the exported
// inputs and must land on the exported scores, scaled scores, weights and output.
// The fixture is produced by the same export function the build uses, run in the
// project's Python (PYTHON, default .venv/bin/python).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { attend, fixed, saturation, drawSample } from "../../docs/javascripts/lib/attention-math.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PYTHON = process.env.PYTHON || `${ROOT}.venv/bin/python`;

// The export, and the worked example's own variables from a run of its snippet (the
// one source of its inputs), in one Python process.
const BOTH = `
import json, runpy
from site_build.widget_data import data_files
ran = runpy.run_path("snippets/worked_example.py")  # run by a tool, it prints nothing
print(json.dumps({"export": json.loads(data_files()["assets/data/explorer.json"]),
                  "snippet": {name: ran[name].tolist() for name in ("q", "K", "V")}}))
`;

function exported() {
  assert.ok(existsSync(PYTHON), `no Python at ${PYTHON}: run \`make install\` or set PYTHON`);
  return JSON.parse(execFileSync(PYTHON, ["-c", BOTH], { cwd: ROOT, encoding: "utf8" }));
}

const { export: data, snippet } = exported();

test("the exported worked example is the lesson's", () => {
  const W = data.worked_example;
  assert.deepEqual(W.q, snippet.q);
  assert.deepEqual(W.keys, snippet.K);
  assert.deepEqual(W.values, snippet.V);
  assert.equal(W.d_k, snippet.q.length);
});

test("the JS maths reproduces attention_ref's exported steps", () => {
  const W = data.worked_example;
  const r = attend(W.q, W.keys, W.values);
  for (const step of ["scores", "scaled", "weights", "output"]) {
    assert.equal(r[step].length, W[step].length, step);
    r[step].forEach((v, i) => {
      assert.ok(Math.abs(v - W[step][i]) <= 1e-12, `${step}[${i}]: JS ${v}, attention_ref ${W[step][i]}`);
    });
  }
});

test("the d_k slider settings are usable by the widget", () => {
  const D = data.dk_slider;
  assert.deepEqual(D.d_k, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
  assert.ok(D.d_k.includes(D.default_d_k));
  assert.ok(Number.isInteger(D.seed) && D.seed >= 0 && D.seed < 2 ** 32);
  assert.ok(D.n_keys >= 3);
  const { q, keys } = drawSample(D.seed, D.default_d_k, D.n_keys);
  const s = saturation(q, keys);
  for (const side of [s.raw, s.scaled]) {
    assert.ok(Math.abs(side.weights.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  }
  const C = data.query_controls;
  assert.ok(C.min < 0 && C.max > 0 && C.step > 0);
  assert.ok(data.worked_example.q.every((v) => v >= C.min && v <= C.max));
});

test("numbers are shown with the exported precision, a true minus sign and no -0", () => {
  const P = data.precision;
  assert.equal(P.weights, 3);
  assert.equal(P.output, 2);
  assert.equal(fixed(0.30719, P.weights), "0.307");
  assert.equal(fixed(5.67919, P.output), "5.68");
  assert.equal(fixed(-0.0001, 3), "0.000");
  assert.equal(fixed(-1.25, 1), "\u22121.3"); // toFixed rounds the exact binary value
  assert.equal(fixed(-2, 0), "\u22122");
});
