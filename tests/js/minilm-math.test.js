// The browser model's maths (docs/javascripts/lib/minilm-math.js) against numbers that
// attention_ref computed (tests/js/fixtures/minilm-math.json, from tests/minilm_js_fixture.py;
// erf against Python's math.erf). JS stores float32, so matrices agree to float32 rounding.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";

import {
  encoderLayer, erf, feedForward, gelu, halfToFloat32, halfToNumber, layerNorm, linear, matrix,
  multiHeadAttention, shardsForIds, wordRows,
} from "../../docs/javascripts/lib/minilm-math.js";
import { kernelBytes, simdArena } from "../../docs/javascripts/lib/minilm-simd.js";

const F = JSON.parse(fs.readFileSync(new URL("./fixtures/minilm-math.json", import.meta.url), "utf8"));

const mat = (rows) => matrix(rows.length, rows[0].length, Float32Array.from(rows.flat()));
const vec = (xs) => Float32Array.from(xs);

function assertClose(actual, expected, tol, what) {
  const a = Array.from(actual);
  const e = expected.flat(Infinity);
  assert.equal(a.length, e.length, `${what}: length`);
  let worst = 0;
  let at = -1;
  a.forEach((v, i) => {
    const d = Math.abs(v - e[i]) / Math.max(1, Math.abs(e[i]));
    if (!(d <= worst)) { worst = d; at = i; }
  });
  assert.ok(worst <= tol, `${what}: element ${at} is ${a[at]}, attention_ref ${e[at]} (diff ${worst})`);
}

test("erf equals Python's math.erf to 1e-14 on [-7, 7]", () => {
  F.erf.x.forEach((x, i) => {
    assert.ok(Math.abs(erf(x) - F.erf.y[i]) <= 1e-14, `erf(${x}) = ${erf(x)}, math.erf ${F.erf.y[i]}`);
  });
  assert.ok(Number.isNaN(erf(NaN)));
});

test("gelu equals attention_ref.block.gelu (exact, erf) to float32 rounding", () => {
  assertClose(gelu(matrix(1, F.gelu.x.length, vec(F.gelu.x))).data, F.gelu.y, 1e-6, "gelu");
});

test("float16 bit patterns decode as numpy's float16 does", () => {
  F.half.bits.forEach((b, i) => assert.equal(halfToNumber(b), F.half.values[i], `0x${b.toString(16)}`));
  assert.deepEqual(Array.from(halfToFloat32(Uint16Array.from([0x3c00, 0xc000]))), [1, -2]);
  assert.equal(halfToNumber(0x7c00), Infinity); // exponent all ones, fraction 0 (IEEE 754)
  assert.ok(Number.isNaN(halfToNumber(0x7e00)));
});

test("layerNorm equals attention_ref.block.layer_norm", () => {
  const L = F.layer_norm;
  assertClose(layerNorm(mat(L.x), vec(L.gain), vec(L.bias), L.eps).data, L.y, 2e-6, "layer_norm");
  assert.throws(() => layerNorm(mat(L.x), vec([1]), vec(L.bias), L.eps), /gain and bias need 5 entries, got 1 and 5/);
});

test("feedForward equals attention_ref.block.feed_forward", () => {
  const P = F.feed_forward;
  assertClose(feedForward(mat(P.x), mat(P.w1), vec(P.b1), mat(P.w2), vec(P.b2)).data, P.y, 2e-6, "feed_forward");
});

test("linear on 5 tokens and 3 outputs (past the 4 x 2 blocks), worked by hand", () => {
  const x = mat([[1, 0], [0, 1], [1, 1], [2, 0], [0, 3]]);
  const w = mat([[1, 2], [3, 4], [5, 6]]);
  // row [a, b] -> [a + 2b, 3a + 4b, 5a + 6b] + [0, 0, 1]
  assert.deepEqual(Array.from(linear(x, w, vec([0, 0, 1])).data),
    [1, 3, 6, 2, 4, 7, 3, 7, 12, 2, 6, 11, 6, 12, 19]);
});

/** Numbers in [-1, 1) from a seeded Park-Miller sequence, for random matrices. */
const uniform = (seed) => () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;

/** linear's y = x w^T + b against the oracle y[i][o] = b[o] + sum_k x[i][k] w[o][k], one
 * multiply-add at a time, in float64; `tol(s)` is the error allowed at the oracle's value s. */
function assertLinearIsTheLoop(y, x, w, b, tol) {
  const [n, dIn, dOut] = [x.rows, x.cols, w.rows];
  assert.equal(y.rows, n);
  assert.equal(y.cols, dOut);
  for (let i = 0; i < n; i++) {
    for (let o = 0; o < dOut; o++) {
      let s = b[o];
      for (let k = 0; k < dIn; k++) s += x.data[i * dIn + k] * w.data[o * dIn + k];
      const got = y.data[i * dOut + o];
      assert.ok(Math.abs(got - s) <= tol(s), `${n}x${dIn}x${dOut} [${i}][${o}]: ${got} vs ${s}`);
    }
  }
}

test("linear equals a plain triple loop on every shape from 1 x 1 x 1 to 9 x 7 x 9 (each block edge)", () => {
  const next = uniform(7);
  for (let n = 1; n <= 9; n++) {
    for (let dIn = 1; dIn <= 7; dIn += 3) {
      for (let dOut = 1; dOut <= 9; dOut++) {
        const x = matrix(n, dIn, Float32Array.from({ length: n * dIn }, next));
        const w = matrix(dOut, dIn, Float32Array.from({ length: dOut * dIn }, next));
        const b = Float32Array.from({ length: dOut }, next);
        assertLinearIsTheLoop(linear(x, w, b), x, w, b, (s) => 1e-6 * Math.max(1, Math.abs(s)));
      }
    }
  }
});

test("the SIMD kernel's linear equals a plain triple loop, past every block edge (node has WebAssembly SIMD)", () => {
  assert.ok(WebAssembly.validate(kernelBytes()), "the assembled module is valid WebAssembly");
  const next = uniform(11);
  const arena = simdArena(40 * 1536);
  assert.ok(arena, "node 20 has WebAssembly SIMD");
  for (const [n, dIn, dOut] of [[1, 4, 1], [4, 4, 2], [5, 8, 3], [7, 12, 9], [16, 384, 6], [9, 1536, 5]]) {
    const { offset, data } = arena.alloc(dOut * dIn);
    data.set(Float32Array.from({ length: dOut * dIn }, next));
    const w = Object.assign(matrix(dOut, dIn, data), { arena, offset });
    const x = matrix(n, dIn, Float32Array.from({ length: n * dIn }, next));
    const b = Float32Array.from({ length: dOut }, next);
    // float32 lanes: about 1e-7 of the sum of |terms| per term added
    assertLinearIsTheLoop(linear(x, w, b), x, w, b, () => 1e-5 * Math.max(1, Math.sqrt(dIn)));
  }
  assert.throws(() => arena.alloc(41 * 1536), /do not fit/);
});

test("linear writes into a given output matrix, and refuses one of the wrong shape", () => {
  const x = mat([[1, 2], [3, 4]]);
  const w = mat([[1, 0], [0, 1], [1, 1]]);
  const out = matrix(2, 3);
  assert.equal(linear(x, w, vec([0, 0, 0]), out), out);
  assert.deepEqual(Array.from(out.data), [1, 2, 3, 3, 4, 7]);
  assert.throws(() => linear(x, w, vec([0, 0, 0]), matrix(3, 2)), /out is 3 x 2, expected 2 x 3/);
});

test("linear refuses shapes that do not fit, naming them", () => {
  assert.throws(() => linear(mat([[1, 2]]), mat([[1, 2, 3]]), vec([0])), /x has 2 columns, w expects 3/);
  assert.throws(() => linear(mat([[1, 2]]), mat([[1, 2]]), vec([0, 0])), /b has 2 entries, w has 1 rows/);
});

function fixtureLayer(L) {
  const out = {};
  for (const [k, v] of Object.entries(L)) out[k] = Array.isArray(v[0]) ? mat(v) : vec(v);
  return out;
}

test("multiHeadAttention's weights and encoderLayer's output equal attention_ref.block.encoder_layer", () => {
  const E = F.encoder_layer;
  const layer = fixtureLayer(E.layer);
  const { out, weights } = encoderLayer(mat(E.x), layer, E.heads, E.eps);
  assertClose(weights, E.weights, 2e-6, "attention weights");
  assertClose(out.data, E.y, 5e-6, "encoder layer output");
  // each row of weights sums to 1
  for (let r = 0; r < weights.length / 5; r++) {
    const s = weights.slice(r * 5, r * 5 + 5).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(s - 1) < 1e-6, `row ${r} sums to ${s}`);
  }
  assert.throws(() => multiHeadAttention(mat(E.x), layer, 3), /heads must divide d_model = 8, got 3/);
});

test("word rows come from the right shard and row", () => {
  assert.deepEqual(shardsForIds([101, 2009, 102, 2001], 64), [1, 31]); // 101 // 64 = 1, 2009 // 64 = 31
  // shard 0 holds rows 0, 1 (width 2); shard 1 holds rows 2, 3
  const half = (xs) => Uint16Array.from(xs).buffer;
  const rows = wordRows([3, 0], { 0: half([0x3c00, 0x4000, 0, 0]), 1: half([0, 0, 0xc000, 0x3800]) }, 2, 2);
  assert.deepEqual(Array.from(rows.data), [-2, 0.5, 1, 2]);
  assert.throws(() => wordRows([5], {}, 2, 2), /shard 2 \(for id 5\) was not loaded/);
});
