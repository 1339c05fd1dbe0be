// Unit tests of the heatmap's pure maths (docs/javascripts/lib/heatmap-math.js).
// Oracles: hand-made tiny fixtures whose answers are worked out in the comments.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  defaultHead, describeChange, fromUnits, keptIndices, lightness, restrict, scaleOf, scalePosition,
  strongestKey, tokenIndex,
} from "../../docs/javascripts/lib/heatmap-math.js";

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const close = (a, b, tol = 1e-12) =>
  assert.ok(Math.abs(a - b) <= tol, `${a} is not within ${tol} of ${b}`);

// Four tokens, one layer of rows in units of 1/100.
const TOKENS = ["[CLS]", "it", "animal", "[SEP]"];
const UNITS = [
  [40, 20, 30, 10],
  [50, 10, 25, 15], // "it": half its weight on [CLS], a quarter on "animal"
  [10, 10, 70, 10],
  [25, 25, 25, 25],
];

test("fromUnits divides by the scale", () => {
  assert.deepEqual(fromUnits([[1, 3]], 4), [[0.25, 0.75]]);
  assert.throws(() => fromUnits([[1]], 0), /scale must be a positive number, got 0/);
});

test("hiding [CLS] and [SEP] keeps the other tokens in order", () => {
  assert.deepEqual(keptIndices(TOKENS, false), [0, 1, 2, 3]);
  assert.deepEqual(keptIndices(TOKENS, true), [1, 2]);
});

test("renormalised rows without special tokens sum to 1, by hand", () => {
  const m = fromUnits(UNITS, 100);
  const { matrix, removed } = restrict(m, keptIndices(TOKENS, true));
  // "it" keeps 0.10 and 0.25 of its weight: 0.10/0.35 and 0.25/0.35.
  close(matrix[0][0], 0.1 / 0.35);
  close(matrix[0][1], 0.25 / 0.35);
  // "animal" keeps 0.10 and 0.70: 1/8 and 7/8.
  close(matrix[1][0], 0.125);
  close(matrix[1][1], 0.875);
  for (const row of matrix) close(sum(row), 1);
  close(removed[0], 0.65); // 0.50 on [CLS] + 0.15 on [SEP]
  close(removed[1], 0.2);
});

test("restricting to every token changes nothing", () => {
  const m = fromUnits(UNITS, 100);
  const { matrix, removed } = restrict(m, [0, 1, 2, 3]);
  matrix.forEach((row, i) => row.forEach((w, j) => close(w, m[i][j])));
  removed.forEach((r) => close(r, 0));
});

test("restrict refuses a row with nothing left", () => {
  // Row 1 puts all its weight on token 0, which is dropped.
  assert.throws(() => restrict([[1, 0], [1, 0]], [1]), /row 1 has no weight left/);
  assert.throws(() => restrict([[1]], []), /keep at least one token/);
});

test("strongest key: the largest weight, the first one on ties", () => {
  assert.equal(strongestKey([0.1, 0.6, 0.3]), 1);
  assert.equal(strongestKey([0.4, 0.2, 0.4]), 0);
  assert.throws(() => strongestKey([]), /empty row/);
});

test("tokenIndex finds a token and refuses a missing or repeated one", () => {
  assert.equal(tokenIndex(TOKENS, "animal"), 2);
  assert.throws(() => tokenIndex(TOKENS, "street"), /token "street" is not among/);
  assert.throws(() => tokenIndex(["the", "x", "the"], "the"), /occurs more than once/);
});

test("default head: where 'it' gives 'animal' the most weight, by hand", () => {
  const row = (a) => [[0, 0, 0, 0], [0, 0, a, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
  // 2 layers x 3 heads; the it->animal units are 10 20 5 / 40 7 40.
  const att = [
    [row(10), row(20), row(5)],
    [row(40), row(7), row(40)],
  ];
  // Largest is 40, first reached at layer 1, head 0 (layer-then-head order).
  assert.deepEqual(defaultHead(att, TOKENS, "it", "animal"), { layer: 1, head: 0, value: 40 });
  // The query/key pair matters: it -> [CLS] is 0 everywhere, so the first head wins.
  assert.deepEqual(defaultHead(att, TOKENS, "it", "[CLS]"), { layer: 0, head: 0, value: 0 });
  assert.throws(() => defaultHead(att, TOKENS, "it", "street"), /"street" is not among/);
});

test("describeChange says what the shown numbers say", () => {
  assert.equal(describeChange("it", "street", 0.05, 0.121), "“it” → “street” rises from 0.050 to 0.121");
  assert.equal(describeChange("it", "animal", 0.677, 0.281), "“it” → “animal” falls from 0.677 to 0.281");
  assert.equal(describeChange("it", "x", 0.1231, 0.1229), "“it” → “x” stays at 0.123");
});

// Two scales as the stylesheet might carry them: darker with weight, and lighter.
const LIGHT = { hue: 231, sat: 48, zero: 97, one: 24 };
const DARK = { hue: 231, sat: 42, zero: 17, one: 82 };

test("colour scale: the square root of the weight, between the scale's two ends", () => {
  // sqrt(1/4) = 1/2: halfway, 97 + (24 - 97) / 2 = 60.5; sqrt(0.01) = 0.1: 97 - 7.3 = 89.7.
  assert.equal(lightness(0.25, LIGHT), 60.5);
  assert.equal(lightness(0.01, LIGHT), 89.7);
  assert.equal(lightness(0, LIGHT), 97);
  assert.equal(lightness(1, DARK), 82);
  // Out of range is clipped; the position itself is the square root.
  assert.equal(lightness(-1, LIGHT), 97);
  assert.equal(lightness(2, DARK), 82);
  assert.equal(scalePosition(0.81), 0.9);
  for (const scale of [LIGHT, DARK]) {
    const ls = Array.from({ length: 1001 }, (_, i) => lightness(i / 1000, scale));
    const dir = Math.sign(scale.one - scale.zero);
    for (let i = 1; i < ls.length; i += 1) {
      assert.ok(dir * (ls[i] - ls[i - 1]) >= 0, `lightness not monotonic at ${i / 1000}`);
    }
    // Distinguishable: a weight of 0.05 already differs from 0 by several percent.
    assert.ok(Math.abs(lightness(0.05, scale) - scale.zero) >= 5);
  }
  assert.throws(() => lightness(0.5, { zero: 97 }), /the scale needs numbers zero and one/);
  assert.throws(() => lightness(NaN, LIGHT), /finite number/);
});

test("scaleOf reads the four custom properties, and names a missing one", () => {
  const style = (props) => ({ getPropertyValue: (name) => props[name] ?? "" });
  const css = { "--heat-hue": " 231", "--heat-sat": "48%", "--heat-zero": "97%", "--heat-one": " 24%" };
  assert.deepEqual(scaleOf(style(css)), LIGHT);
  assert.throws(
    () => scaleOf(style({ ...css, "--heat-one": "" })),
    /colour scale: --heat-one is "", not a number \(stylesheet missing\?\)/,
  );
});
