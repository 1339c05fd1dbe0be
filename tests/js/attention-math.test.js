// Unit tests of the explorer's pure maths (docs/javascripts/lib/attention-math.js).
// Oracles: hand-worked values, closed forms, and literal draws of the generator
// computed by an independent Python implementation (tests/seeded_normals.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  attend, dot, drawSample, entropy, mulberry32, normals, saturation, scaleScores, scores,
  softmax, weightedSum,
} from "../../docs/javascripts/lib/attention-math.js";

const close = (actual, expected, tol = 1e-12) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${actual} is not within ${tol} of ${expected}`);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

// A small example worked by hand (the lesson's own is checked against attention_ref's
// export in explorer.test.js): scores 2, 0, 2 over sqrt(2), weights e^√2, 1, e^√2 over
// 1 + 2e^√2.
const HAND = { q: [2, 0], keys: [[1, 0], [0, 1], [1, 1]], values: [[1, 0], [0, 1], [1, 1]] };

test("dot, scores and scaling by hand", () => {
  assert.equal(dot([1, 2, 3], [4, 5, 6]), 32);
  assert.deepEqual(scores(HAND.q, HAND.keys), [2, 0, 2]);
  assert.deepEqual(scaleScores([2, 0, 1], 4), [1, 0, 0.5]);
  assert.deepEqual(scaleScores([3, -6], 9), [1, -2]);
});

test("bad input gets a clear error", () => {
  assert.throws(() => dot([1, 2], [1]), /lengths? \(2 and 1\)/);
  assert.throws(() => scores([1], []), /no keys/);
  assert.throws(() => scaleScores([1], 0), /d_k must be a positive integer, got 0/);
  assert.throws(() => softmax([0, NaN]), /got NaN/);
  assert.throws(() => softmax([0, Infinity]), /got Infinity/);
  assert.throws(() => weightedSum([1], [[1], [2]]), /1 weights for 2 values/);
});

test("softmax matches exp(x)/sum(exp(x)) and sums to 1", () => {
  const x = [1, 0, 0.5];
  const e = x.map(Math.exp);
  const p = softmax(x);
  p.forEach((v, i) => close(v, e[i] / sum(e), 1e-15));
  close(sum(p), 1, 1e-15);
  close(p[0], 0.506480391055654, 1e-12); // e / (e + 1 + sqrt(e))
});

test("softmax is stable for logits of ±1e4", () => {
  for (const x of [[1e4, 0], [-1e4, 0], [1e4, 1e4 - 1], [-1e4, -1e4, -1e4], [1e4, -1e4, 5]]) {
    const p = softmax(x);
    assert.ok(p.every(Number.isFinite), `non-finite weight for ${x}: ${p}`);
    close(sum(p), 1, 1e-15);
  }
  assert.deepEqual(softmax([1e4, 0]), [1, 0]);
  close(softmax([1e4, 1e4 - 1])[0], 1 / (1 + Math.exp(-1)), 1e-15);
  assert.deepEqual(softmax([-1e4, -1e4]), [0.5, 0.5]);
});

test("softmax gives -Infinity exactly 0, and a row of only -Infinity all zeros", () => {
  assert.deepEqual(softmax([0, -Infinity, 0]), [0.5, 0, 0.5]);
  assert.deepEqual(softmax([-Infinity, 3]), [0, 1]);
  assert.deepEqual(softmax([-Infinity, -Infinity]), [0, 0]);
});

test("weighted sum, and attention from start to end by hand", () => {
  assert.deepEqual(weightedSum([0.5, 0.5], [[10, 0], [0, 4]]), [5, 2]);
  const r = attend(HAND.q, HAND.keys, HAND.values);
  assert.deepEqual(r.scores, [2, 0, 2]);
  r.scaled.forEach((s, j) => close(s, [Math.SQRT2, 0, Math.SQRT2][j], 1e-15));
  const e = Math.exp(Math.SQRT2);
  const z = 1 + 2 * e;
  r.weights.forEach((w, j) => close(w, [e / z, 1 / z, e / z][j]));
  r.output.forEach((o, i) => close(o, [2 * e / z, (1 + e) / z][i]));
});

test("entropy: log n for an even spread, 0 for one-hot", () => {
  close(entropy([0.25, 0.25, 0.25, 0.25]), Math.log(4), 1e-15);
  assert.equal(entropy([1, 0, 0]), 0);
  close(entropy([0.5, 0.5, 0]), Math.log(2), 1e-15);
});

test("mulberry32 and Box–Muller reproduce the independent Python implementation", () => {
  const u = mulberry32(1);
  assert.deepEqual([u(), u(), u(), u()],
    [0.6270739405881613, 0.002735721180215478, 0.5274470399599522, 0.9810509674716741]);
  const big = mulberry32(4294967295);
  assert.deepEqual([big(), big()], [0.8964226141106337, 0.189478256739676]);
  const z = normals(mulberry32(42));
  const got = [z(), z(), z(), z()];
  [-1.2848381576290195, 0.43278026787558976, -0.9453528099747296, -1.7128042818055647]
    .forEach((v, i) => close(got[i], v, 1e-15));
});

test("the generator is deterministic and its normals have mean ≈ 0, variance ≈ 1", () => {
  const a = drawSample(7, 16, 3);
  const b = drawSample(7, 16, 3);
  assert.deepEqual(a, b);
  assert.notDeepEqual(drawSample(8, 16, 3), a);
  assert.equal(a.q.length, 16);
  assert.equal(a.keys.length, 3);
  const z = normals(mulberry32(2026));
  const N = 200_000;
  const xs = Array.from({ length: N }, z);
  const mean = sum(xs) / N;
  const variance = sum(xs.map((x) => (x - mean) ** 2)) / (N - 1);
  // Standard errors: mean 1/sqrt(N) ≈ 0.0022, variance sqrt(2/N) ≈ 0.0032; allow 4 of them.
  assert.ok(Math.abs(mean) < 0.009, `mean ${mean}`);
  assert.ok(Math.abs(variance - 1) < 0.013, `variance ${variance}`);
  const uniform = mulberry32(3);
  const us = Array.from({ length: N }, uniform);
  assert.ok(us.every((v) => v >= 0 && v < 1));
  close(sum(us) / N, 0.5, 0.003);
});

test("without the scale softmax saturates as d_k grows; with it, it stays spread", () => {
  // Averages over 100 seeds (one sample can be an exception either way).
  const mean = (dk, kind, stat) => {
    let total = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const { q, keys } = drawSample(seed, dk, 8);
      total += saturation(q, keys)[kind][stat];
    }
    return total / 100;
  };
  assert.ok(mean(1024, "raw", "max") > 0.9, "unscaled: the largest weight is near 1 at d_k = 1024");
  assert.ok(mean(1024, "raw", "entropy") < 0.2, "unscaled: entropy near 0 at d_k = 1024");
  for (const dk of [4, 64, 1024]) {
    assert.ok(mean(dk, "scaled", "max") < 0.45, `scaled: tame at d_k = ${dk}`);
    assert.ok(mean(dk, "scaled", "entropy") > 1.5, `scaled: spread at d_k = ${dk}`);
  }
  assert.ok(mean(16, "raw", "max") < mean(1024, "raw", "max"));
  const one = drawSample(1, 1, 8);
  const same = saturation(one.q, one.keys);
  assert.deepEqual(same.raw, same.scaled); // d_k = 1: the scale is 1
});
