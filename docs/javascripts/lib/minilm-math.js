// all-MiniLM-L6-v2's forward pass in plain JavaScript, one function for each of
// attention_ref's (attention_ref/block.py and attention_ref/multi_head.py):
//
//   attention_ref                      here
//   block.erf, block.gelu              erf, gelu
//   block.layer_norm                   layerNorm
//   block.feed_forward                 feedForward
//   multi_head_attention (biases)      multiHeadAttention
//   block.encoder_layer                encoderLayer
//   minilm.MiniLM.embed                embed
//   minilm.MiniLM.run                  runModel
//
// No DOM, no fetch: the worker (minilm-worker.js) calls these, node --test checks them
// (tests/js/minilm-math.test.js, against numbers attention_ref computed).
//
// Speed: nearly all the work is linear()'s dot products. When the model's matrices are
// loaded by modelFromGroups, they live in the memory of a small WebAssembly SIMD kernel
// (minilm-simd.js) that computes those dot products four lanes at a time; linear() hands
// them over and the rest stays here. Without WebAssembly SIMD, the loop below does it all.
import { SCRATCH_FLOATS, simdArena } from "./minilm-simd.js";
//
// Numbers are stored as float32 (Float32Array) and every sum here is accumulated in a
// JavaScript number (float64) before it is stored (the SIMD kernel's dot products add
// four float32 partial sums, see minilm-simd.js); the weights arrive as float16.
// A matrix is {rows, cols, data} with data row-major: data[i * cols + j].
// Linear weights keep the weights file's layout, (out, in): y = x @ w^T + b, so each
// output is a dot product of two contiguous rows.

/** A matrix of `rows` x `cols` zeros (or around `data`, which must have that length). */
export function matrix(rows, cols, data = new Float32Array(rows * cols)) {
  if (data.length !== rows * cols) {
    throw new Error(`matrix: ${rows} x ${cols} needs ${rows * cols} numbers, got ${data.length}`);
  }
  return { rows, cols, data };
}

// float16 -> float32, by table: 65,536 entries, built on first use.
let HALF_TABLE = null;

/** The number a float16 bit pattern stands for (IEEE 754 binary16). */
export function halfToNumber(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24; // zero and subnormals
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** Float32Array of the float16 values in `bits` (a Uint16Array, little-endian data), into `out` if given. */
export function halfToFloat32(bits, out = new Float32Array(bits.length)) {
  if (HALF_TABLE === null) {
    HALF_TABLE = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) HALF_TABLE[h] = halfToNumber(h);
  }
  if (out.length !== bits.length) throw new Error(`halfToFloat32: out holds ${out.length}, bits ${bits.length}`);
  for (let i = 0; i < bits.length; i++) out[i] = HALF_TABLE[bits[i]];
  return out;
}

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);
// 1/n and 1/(2n+1) for the series below: a multiplication costs far less than a division,
// and erf is called once for every hidden unit of every token (1536 x 6 a token).
const SERIES_TERMS = 60;
const INV_N = Float64Array.from({ length: SERIES_TERMS }, (_, n) => (n ? 1 / n : 0));
const INV_ODD = Float64Array.from({ length: SERIES_TERMS }, (_, n) => 1 / (2 * n + 1));

/**
 * The error function, to about 1e-15 absolute: its Taylor series at 0 for |x| < 2.5,
 * else 1 - erfc(x) with erfc from its continued fraction (Lentz's method).
 */
export function erf(x) {
  if (Number.isNaN(x)) return NaN;
  const ax = Math.abs(x);
  if (ax < 2.5) {
    // erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))
    let term = x; // (-1)^n x^(2n+1) / n!
    let sum = x;
    const x2 = x * x;
    for (let n = 1; n < SERIES_TERMS; n++) {
      term *= -x2 * INV_N[n];
      const add = term * INV_ODD[n];
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return TWO_OVER_SQRT_PI * sum;
  }
  if (ax > 6) return Math.sign(x); // erfc(6) = 2e-17
  // erfc(a) = exp(-a^2)/sqrt(pi) * 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + ...))))
  const tiny = 1e-300;
  let f = ax;
  let c = ax;
  let d = 0;
  for (let k = 1; k < 200; k++) {
    const a = k / 2;
    d = ax + a * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = ax + a / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  const erfc = Math.exp(-ax * ax) / Math.sqrt(Math.PI) / f;
  return Math.sign(x) * (1 - erfc);
}

/** The exact GELU, x Phi(x) = x/2 (1 + erf(x / sqrt(2))), element-wise into a new matrix. */
export function gelu(x) {
  const out = matrix(x.rows, x.cols);
  const s = Math.SQRT1_2;
  for (let i = 0; i < x.data.length; i++) {
    const v = x.data[i];
    out.data[i] = 0.5 * v * (1 + erf(v * s));
  }
  return out;
}

/** sum over k < len of a[i + k] * b[j + k], in order of k. */
function dot(a, i, b, j, len) {
  let s = 0;
  for (let k = 0; k < len; k++) s += a[i + k] * b[j + k];
  return s;
}

/**
 * y = x @ w^T + b.
 * @param {{rows, cols, data}} x  (n, d_in)
 * @param {{rows, cols, data}} w  (d_out, d_in), the weights file's layout
 * @param {Float32Array} b        (d_out,)
 * @param {{rows, cols, data}} [out]  (n, d_out), written over (a new matrix if not given)
 * @returns out
 */
export function linear(x, w, b, out = matrix(x.rows, w.rows)) {
  if (x.cols !== w.cols) throw new Error(`linear: x has ${x.cols} columns, w expects ${w.cols}`);
  if (b.length !== w.rows) throw new Error(`linear: b has ${b.length} entries, w has ${w.rows} rows`);
  if (out.rows !== x.rows || out.cols !== w.rows) {
    throw new Error(`linear: out is ${out.rows} x ${out.cols}, expected ${x.rows} x ${w.rows}`);
  }
  // A matrix of the loaded model: its dot products by the SIMD kernel (minilm-simd.js).
  if (w.arena && x.cols % 4 === 0 && x.data.length <= SCRATCH_FLOATS) return w.arena.linear(x, w, b, out);
  const n = x.rows;
  const dIn = x.cols;
  const dOut = w.rows;
  const xs = x.data;
  const ws = w.data;
  const ys = out.data;
  // Blocks of four tokens by two outputs: each weight loaded once serves four tokens and
  // each token's value two outputs (1.6x faster than one dot product at a time in V8).
  // Every output is still one dot product summed in order k = 0, 1, ..., d_in - 1.
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const x0 = i * dIn;
    const x1 = x0 + dIn;
    const x2 = x1 + dIn;
    const x3 = x2 + dIn;
    let o = 0;
    for (; o + 1 < dOut; o += 2) {
      const wa = o * dIn;
      const wb = wa + dIn;
      let a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0; // prettier-ignore
      for (let k = 0; k < dIn; k++) {
        const p = ws[wa + k];
        const q = ws[wb + k];
        const y0 = xs[x0 + k];
        const y1 = xs[x1 + k];
        const y2 = xs[x2 + k];
        const y3 = xs[x3 + k];
        a0 += y0 * p;
        a1 += y1 * p;
        a2 += y2 * p;
        a3 += y3 * p;
        b0 += y0 * q;
        b1 += y1 * q;
        b2 += y2 * q;
        b3 += y3 * q;
      }
      const ba = b[o];
      const bb = b[o + 1];
      ys[i * dOut + o] = a0 + ba;
      ys[(i + 1) * dOut + o] = a1 + ba;
      ys[(i + 2) * dOut + o] = a2 + ba;
      ys[(i + 3) * dOut + o] = a3 + ba;
      ys[i * dOut + o + 1] = b0 + bb;
      ys[(i + 1) * dOut + o + 1] = b1 + bb;
      ys[(i + 2) * dOut + o + 1] = b2 + bb;
      ys[(i + 3) * dOut + o + 1] = b3 + bb;
    }
    for (; o < dOut; o++) {
      for (let t = 0; t < 4; t++) ys[(i + t) * dOut + o] = dot(xs, x0 + t * dIn, ws, o * dIn, dIn) + b[o];
    }
  }
  for (; i < n; i++) {
    for (let o = 0; o < dOut; o++) ys[i * dOut + o] = dot(xs, i * dIn, ws, o * dIn, dIn) + b[o];
  }
  return out;
}

/**
 * LayerNorm over each row: (x - mean) / sqrt(var + eps) * gain + bias, var divided by d.
 * @returns a new matrix of x's shape
 */
export function layerNorm(x, gain, bias, eps) {
  const d = x.cols;
  if (gain.length !== d || bias.length !== d) {
    throw new Error(`layerNorm: gain and bias need ${d} entries, got ${gain.length} and ${bias.length}`);
  }
  const out = matrix(x.rows, d);
  for (let i = 0; i < x.rows; i++) {
    const row = i * d;
    let mean = 0;
    for (let j = 0; j < d; j++) mean += x.data[row + j];
    mean /= d;
    let variance = 0;
    for (let j = 0; j < d; j++) {
      const c = x.data[row + j] - mean;
      variance += c * c;
    }
    variance /= d;
    const inv = 1 / Math.sqrt(variance + eps);
    for (let j = 0; j < d; j++) {
      out.data[row + j] = (x.data[row + j] - mean) * inv * gain[j] + bias[j];
    }
  }
  return out;
}

/** gelu(x @ w1^T + b1) @ w2^T + b2: each token through the same two-layer network. */
export function feedForward(x, w1, b1, w2, b2) {
  return linear(gelu(linear(x, w1, b1)), w2, b2);
}

/**
 * Multi-head self-attention with biases, no mask (a single sentence attends everywhere).
 * Each head h takes columns h*d_head .. (h+1)*d_head of the projections; its weights are
 * softmax(q k^T / sqrt(d_head)) over the keys, the row maximum subtracted first.
 * @param x        (n, d_model)
 * @param p        {wQ, bQ, wK, bK, wV, bV, wO, bO}, each w (d_model, d_model) as (out, in)
 * @param heads    a divisor of d_model
 * @returns {{out: (n, d_model), weights: Float32Array}}  weights (heads, n, n) row-major
 */
export function multiHeadAttention(x, p, heads) {
  const n = x.rows;
  const d = x.cols;
  if (!Number.isInteger(heads) || heads < 1 || d % heads !== 0) {
    throw new Error(`multiHeadAttention: heads must divide d_model = ${d}, got ${heads}`);
  }
  const dh = d / heads;
  const q = linear(x, p.wQ, p.bQ).data;
  const k = linear(x, p.wK, p.bK).data;
  const v = linear(x, p.wV, p.bV).data;
  const scale = 1 / Math.sqrt(dh);
  const weights = new Float32Array(heads * n * n);
  const merged = matrix(n, d);
  const row = new Float64Array(n);
  for (let h = 0; h < heads; h++) {
    const off = h * dh;
    for (let i = 0; i < n; i++) {
      let max = -Infinity;
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let t = 0; t < dh; t++) s += q[i * d + off + t] * k[j * d + off + t];
        row[j] = s * scale;
        if (row[j] > max) max = row[j];
      }
      let total = 0;
      for (let j = 0; j < n; j++) {
        row[j] = Math.exp(row[j] - max);
        total += row[j];
      }
      const base = (h * n + i) * n;
      for (let j = 0; j < n; j++) weights[base + j] = row[j] / total;
      for (let t = 0; t < dh; t++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += weights[base + j] * v[j * d + off + t];
        merged.data[i * d + off + t] = s;
      }
    }
  }
  return { out: linear(merged, p.wO, p.bO), weights };
}

/** Element-wise a + b into a new matrix (the residual connection). */
function add(a, b) {
  const out = matrix(a.rows, a.cols);
  for (let i = 0; i < a.data.length; i++) out.data[i] = a.data[i] + b.data[i];
  return out;
}

/**
 * One post-LN encoder layer, as BERT's:
 *   a = layerNorm(x + multiHeadAttention(x)),  y = layerNorm(a + feedForward(a)).
 * @param layer {wQ, bQ, wK, bK, wV, bV, wO, bO, norm1Gain, norm1Bias, w1, b1, w2, b2,
 *               norm2Gain, norm2Bias}
 * @returns {{out: (n, d_model), weights: Float32Array (heads, n, n)}}
 */
export function encoderLayer(x, layer, heads, eps) {
  const { out: attended, weights } = multiHeadAttention(x, layer, heads);
  const a = layerNorm(add(x, attended), layer.norm1Gain, layer.norm1Bias, eps);
  const y = layerNorm(add(a, feedForward(a, layer.w1, layer.b1, layer.w2, layer.b2)), layer.norm2Gain, layer.norm2Bias, eps);
  return { out: y, weights };
}

/**
 * The embeddings' output: layerNorm(word[ids] + position[0..n) + tokenType[0]).
 * @param wordRows  (n, hidden): the word-table rows of the sentence's ids, in order
 * @param emb       {positions (max_positions, hidden), tokenTypes (2, hidden), gain, bias}
 */
export function embed(wordRows, emb, eps) {
  const n = wordRows.rows;
  const d = wordRows.cols;
  if (n > emb.positions.rows) throw new Error(`embed: ${n} tokens, the model has ${emb.positions.rows} positions`);
  const x = matrix(n, d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) {
      x.data[i * d + j] = wordRows.data[i * d + j] + emb.positions.data[i * d + j] + emb.tokenTypes.data[j];
    }
  }
  return layerNorm(x, emb.gain, emb.bias, eps);
}

/**
 * The whole encoder on one sentence.
 * @param model  {config: {heads, eps}, embeddings, layers}
 * @param wordRows  (n, hidden)
 * @returns {{attentions: Float32Array[], hidden: {rows, cols, data}}}  one (heads, n, n)
 *          array per layer, and the last hidden state
 */
export function runModel(model, wordRows) {
  let x = embed(wordRows, model.embeddings, model.config.eps);
  const attentions = [];
  for (const layer of model.layers) {
    const { out, weights } = encoderLayer(x, layer, model.config.heads, model.config.eps);
    attentions.push(weights);
    x = out;
  }
  return { attentions, hidden: x };
}

/** The arrays of one encoder layer, by their names in the weights file after `encoder.layer.<i>.`. */
export const LAYER_NAMES = Object.freeze({
  wQ: "attention.self.query.weight",
  bQ: "attention.self.query.bias",
  wK: "attention.self.key.weight",
  bK: "attention.self.key.bias",
  wV: "attention.self.value.weight",
  bV: "attention.self.value.bias",
  wO: "attention.output.dense.weight",
  bO: "attention.output.dense.bias",
  norm1Gain: "attention.output.LayerNorm.weight",
  norm1Bias: "attention.output.LayerNorm.bias",
  w1: "intermediate.dense.weight",
  b1: "intermediate.dense.bias",
  w2: "output.dense.weight",
  b2: "output.dense.bias",
  norm2Gain: "output.LayerNorm.weight",
  norm2Bias: "output.LayerNorm.bias",
});

/**
 * The model from its manifest and the bytes of its group files (float16, see
 * site_build/minilm_export.py): matrices for 2-D arrays, Float32Arrays for vectors.
 * The matrices are placed in the SIMD kernel's memory when the platform has one.
 * @param manifest  the parsed manifest.json
 * @param groupBytes  {groupName: ArrayBuffer}
 * @param {{simd?: boolean}} [options]  simd: false keeps every dot product in JavaScript
 */
export function modelFromGroups(manifest, groupBytes, { simd = true } = {}) {
  const arrays = {};
  const size = (t) => t.shape.reduce((a, b) => a * b, 1);
  const planes = manifest.groups.flatMap((g) => g.tensors).filter((t) => t.shape.length === 2);
  const arena = simd ? simdArena(planes.reduce((sum, t) => sum + size(t) + 3, 0)) : null;
  for (const group of manifest.groups) {
    const buffer = groupBytes[group.name];
    if (!buffer) throw new Error(`model: no bytes for group ${group.name}`);
    for (const t of group.tensors) {
      const count = t.shape.reduce((a, b) => a * b, 1);
      if (t.offset + 2 * count > buffer.byteLength) {
        throw new Error(`model: ${t.name} needs bytes ${t.offset}..${t.offset + 2 * count}, ${group.name} has ${buffer.byteLength}`);
      }
      const bits = new Uint16Array(buffer, t.offset, count);
      if (t.shape.length !== 2) {
        arrays[t.name] = halfToFloat32(bits);
      } else if (arena) {
        const { offset, data } = arena.alloc(count);
        arrays[t.name] = Object.assign(matrix(t.shape[0], t.shape[1], halfToFloat32(bits, data)), { arena, offset });
      } else {
        arrays[t.name] = matrix(t.shape[0], t.shape[1], halfToFloat32(bits));
      }
    }
  }
  const get = (name) => {
    if (!(name in arrays)) throw new Error(`model: the manifest has no array ${name}`);
    return arrays[name];
  };
  const layers = [];
  for (let i = 0; i < manifest.config.layers; i++) {
    const layer = {};
    for (const [key, name] of Object.entries(LAYER_NAMES)) layer[key] = get(`encoder.layer.${i}.${name}`);
    layers.push(layer);
  }
  return {
    config: manifest.config,
    simd: arena !== null,
    embeddings: {
      positions: get("embeddings.position_embeddings.weight"),
      tokenTypes: get("embeddings.token_type_embeddings.weight"),
      gain: get("embeddings.LayerNorm.weight"),
      bias: get("embeddings.LayerNorm.bias"),
    },
    layers,
  };
}

/** The shards (sorted, once each) holding the rows of `ids`. */
export function shardsForIds(ids, rowsPerShard) {
  return [...new Set(ids.map((id) => Math.floor(id / rowsPerShard)))].sort((a, b) => a - b);
}

/**
 * The (n, width) word-table rows of `ids` from the shards' bytes.
 * @param shardBytes {shardIndex: ArrayBuffer} float16 rows
 */
export function wordRows(ids, shardBytes, rowsPerShard, width) {
  const out = matrix(ids.length, width);
  ids.forEach((id, i) => {
    const s = Math.floor(id / rowsPerShard);
    const buffer = shardBytes[s];
    if (!buffer) throw new Error(`word table: shard ${s} (for id ${id}) was not loaded`);
    const r = id - s * rowsPerShard;
    if ((r + 1) * width * 2 > buffer.byteLength) throw new Error(`word table: id ${id} is past shard ${s}'s rows`);
    out.data.set(halfToFloat32(new Uint16Array(buffer, r * width * 2, width)), i * width);
  });
  return out;
}
