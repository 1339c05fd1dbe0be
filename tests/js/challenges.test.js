// Unit tests of the explorer challenges' conditions (lib/attention-math.js), against
// values worked by hand on the lesson's keys and values; then against attention_ref's
// numbers as the build exports them (site_build/widget_data.py). The keys and values
// come from the export too, that is from their one source, snippets/worked_example.py;
// the hand-worked cases rest on the scores and outputs they give, checked first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

import {
  allEqual, challenges, distance, isScaledCopy, scores, weightedSum, winner,
} from "../../docs/javascripts/lib/attention-math.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PYTHON = process.env.PYTHON || `${ROOT}.venv/bin/python`;
const data = JSON.parse(execFileSync(
  PYTHON,
  [
    "-c",
    "from site_build.widget_data import data_files; "
      + "print(data_files()['assets/data/explorer.json'], end='')",
  ],
  { cwd: ROOT, encoding: "utf8" },
));
const { keys: K, values: V } = data.worked_example;

// What the hand-worked cases below assume of the lesson's keys and values, as formulas:
// q scores q1 + q3, q2 + q4 and q1; weights a blend the values into
// [10 a1 + 2 a3, 5 a2 + 2 a3]. A change to the worked example that breaks them fails
// here first: work the cases again, and look at the challenges the explorer sets.
const HAND = {
  scores: (q) => [q[0] + q[2], q[1] + q[3], q[0]],
  blend: (a) => [10 * a[0] + 2 * a[2], 5 * a[1] + 2 * a[2]],
};
const SPEC = { win: 2, near: { value: 1, within: 0.25 }, double: { base: data.worked_example.q, factor: 2 } };
const close = (actual, expected, tol = 1e-12) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${actual} is not within ${tol} of ${expected}`);
/** softmax of scores / sqrt(4), written out by hand. */
const byHand = (s) => {
  const e = s.map((x) => Math.exp(x / 2));
  const total = e[0] + e[1] + e[2];
  return e.map((x) => x / total);
};

test("the lesson's keys and values give the scores and blends the cases are worked for", () => {
  for (const q of [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [0.3, -2, 1.5, 4]]) {
    assert.deepEqual(scores(q, K), HAND.scores(q), `the scores of ${q}: work the cases again`);
  }
  for (const a of [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0.2, 0.5, 0.3]]) {
    weightedSum(a, V).forEach((x, i) => close(x, HAND.blend(a)[i]));
  }
  // The doubling case starts from the worked query, whose scores are 2, 0 and 1.
  assert.deepEqual(scores(data.worked_example.q, K), [2, 0, 1], "the worked query: work the cases again");
});

test("winner: the single largest weight, or -1 for a shared top", () => {
  assert.equal(winner([0.5, 0.3, 0.2]), 0);
  assert.equal(winner([0.1, 0.2, 0.7]), 2);
  assert.equal(winner([0.4, 0.4, 0.2]), -1);
  assert.equal(winner([0.2, 0.4, 0.4 + 1e-12]), -1); // float noise is no win
  assert.equal(winner([0.2, 0.4, 0.4 + 1e-6]), 2);
});

test("allEqual, distance and isScaledCopy by hand", () => {
  assert.ok(allEqual([1 / 3, 1 / 3, 1 / 3]));
  assert.ok(!allEqual([0.34, 0.33, 0.33]));
  assert.ok(!allEqual([1 / 3 + 1e-6, 1 / 3, 1 / 3 - 1e-6]));
  assert.equal(distance([0, 0], [3, 4]), 5);
  assert.throws(() => distance([0], [1, 2]), /dimension \(1 and 2\)/);
  assert.ok(isScaledCopy([2, 0, 2, 0], [1, 0, 1, 0], 2));
  assert.ok(!isScaledCopy([2, 0, 2, 0.1], [1, 0, 1, 0], 2));
  assert.ok(!isScaledCopy([1, 0, 1, 0], [1, 0, 1, 0], 2));
  assert.ok(!isScaledCopy([0, 0, 0, 0], [0, 0, 0, 0], 2), "zero is no query to double");
});

test("k3 wins when q3 < 0 and q1 > q2 + q4 (scores q1+q3, q2+q4, q1)", () => {
  assert.equal(challenges([1, 0, 1, 0], K, V, SPEC).win.solved, false); // k1 wins: 2, 0, 1
  const c = challenges([1, 0, -0.1, 0], K, V, SPEC).win; // scores 0.9, 0, 1
  assert.equal(c.solved, true);
  c.scores.forEach((s, j) => close(s, [0.9, 0, 1][j]));
  byHand([0.9, 0, 1]).forEach((w, j) => close(c.weights[j], w));
  assert.equal(challenges([1, 0, 0, 0], K, V, SPEC).win.solved, false); // k1 and k3 tie at 1
  assert.equal(challenges([1, 0.6, -1, 0.6], K, V, SPEC).win.solved, false); // k2: 1.2 > 1
  assert.equal(challenges([1, 0.6, -1, 0.3], K, V, SPEC).win.solved, true); // 0, 0.9, 1
});

test("equal weights need equal scores: q3 = 0 and q2 + q4 = q1", () => {
  const zero = challenges([0, 0, 0, 0], K, V, SPEC).equal;
  assert.equal(zero.solved, true);
  zero.weights.forEach((w) => close(w, 1 / 3, 1e-15));
  // 0.3 + 0.7 is 0.9999999999999999 in doubles: still equal, as the reader meant.
  assert.equal(challenges([1, 0.3, 0, 0.7], K, V, SPEC).equal.solved, true);
  assert.equal(challenges([1, 0, 0, 1], K, V, SPEC).equal.solved, true);
  assert.equal(challenges([1, 0, 0.1, 1], K, V, SPEC).equal.solved, false);
  assert.equal(challenges([1, 0, 1, 0], K, V, SPEC).equal.solved, false);
});

test("the output only approaches v2: close at the corner, never exact", () => {
  const start = challenges([1, 0, 1, 0], K, V, SPEC).near;
  assert.equal(start.solved, false);
  close(start.distance, Math.hypot(5.675, 1.555 - 5), 0.01); // output ≈ [5.68, 1.55]
  // q = [-3, 3, -3, 3]: scores -6, 6, -3; by hand w = softmax(-3, 3, -1.5).
  const c = challenges([-3, 3, -3, 3], K, V, SPEC).near;
  const [a1, a2, a3] = byHand([-6, 6, -3]);
  const out = HAND.blend([a1, a2, a3]);
  close(c.output[0], out[0]);
  close(c.output[1], out[1]);
  close(c.distance, Math.hypot(out[0], out[1] - 5));
  assert.equal(c.solved, true);
  assert.equal(c.exact, false);
  assert.ok(c.distance > 0.06 && c.distance < 0.07, `${c.distance}`);
  assert.ok(c.others.every((w) => w > 0.002), "v1 and v3 still pull");
  close(c.weight, a2);
  // One step back from the corner on q2 is still close; the middle of the box is not.
  assert.equal(challenges([-3, 2, -3, 3], K, V, SPEC).near.solved, true);
  assert.equal(challenges([-3, 0, -3, 0], K, V, SPEC).near.solved, false);
  // q2 = q4 = 1: scores -6, 2, -3, output about [0.31, 4.69], 0.44 away: not close yet.
  const mid = challenges([-3, 1, -3, 1], K, V, SPEC).near;
  close(mid.distance, 0.44, 0.01);
  assert.equal(mid.solved, false);
});

test("doubling the worked query doubles the scores and sharpens the weights", () => {
  const c = challenges([2, 0, 2, 0], K, V, SPEC).double;
  assert.equal(c.solved, true);
  assert.deepEqual(c.after.scores, [4, 0, 2]);
  assert.deepEqual(c.before.scores, [2, 0, 1]);
  close(c.after.max, Math.exp(2) / (Math.exp(2) + 1 + Math.E)); // 0.665
  close(c.before.max, Math.E / (Math.E + 1 + Math.sqrt(Math.E))); // 0.506
  assert.ok(c.after.entropy < c.before.entropy);
  assert.equal(challenges([2, 0, 2, 0.1], K, V, SPEC).double.solved, false);
  assert.equal(challenges([3, 0, 3, 0], K, V, SPEC).double.solved, false); // tripled
  assert.equal(challenges([1, 0, 1, 0], K, V, SPEC).double.solved, false);
});

test("the conditions agree with attention_ref's exported numbers", () => {
  const W = data.worked_example;
  const ch = data.challenges;
  const spec = { win: ch.win, near: ch.near, double: ch.double };
  const nearest = ch.near.closest;
  const c = challenges(nearest.q, W.keys, W.values, spec);
  close(c.near.distance, nearest.distance);
  c.near.output.forEach((o, i) => close(o, nearest.output[i]));
  assert.ok(c.near.solved && !c.near.exact);
  const d = challenges(W.q.map((x) => ch.double.factor * x), W.keys, W.values, spec).double;
  assert.ok(d.solved);
  d.after.weights.forEach((w, j) => close(w, ch.double.weights[j]));
  d.before.weights.forEach((w, j) => close(w, ch.double.base_weights[j]));
});
