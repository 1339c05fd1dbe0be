// Pure maths of the query explorer: no DOM, no globals. Imported by explorer-widget.js
// (loaded on demand) and by the node:test unit tests in tests/js/.
//
// The seeded generator of the d_k experiment, specified so that another
// implementation (the Python browser test) can reproduce every draw:
//   uniform (mulberry32), all arithmetic on uint32 (imul32 = low 32 bits of the
//   product, >>> a logical shift); the state s starts at the seed (mod 2^32):
//     s = (s + 0x6D2B79F5) mod 2^32
//     t = imul32(s ^ (s >>> 15), s | 1)
//     t = t ^ ((t + imul32(t ^ (t >>> 7), t | 61)) mod 2^32)
//     u = (t ^ (t >>> 14)) / 2^32            (uint32 / 2^32, in [0, 1))
//   normals (Box–Muller), one pair per two uniforms u1, u2:
//     r = sqrt(-2 ln(1 - u1)), a = 2π u2;  yields r cos a, then r sin a
//   a sample for (seed, d_k, n_keys): the first d_k normals are q, the next
//     n_keys × d_k are the keys, row after row.

/** Dot product of two equal-length vectors. */
export function dot(a, b) {
  if (a.length !== b.length) {
    throw new RangeError(`dot: vectors differ in length (${a.length} and ${b.length})`);
  }
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Raw scores q·k_j of one query against each key: (n_k,). */
export function scores(q, keys) {
  if (keys.length === 0) throw new RangeError("scores: there are no keys");
  return keys.map((k) => dot(q, k));
}

/** Scores times 1/sqrt(d_k). */
export function scaleScores(s, dk) {
  if (!(Number.isInteger(dk) && dk >= 1)) {
    throw new RangeError(`scaleScores: d_k must be a positive integer, got ${dk}`);
  }
  const factor = 1 / Math.sqrt(dk);
  return s.map((x) => x * factor);
}

/**
 * Softmax, stable: the maximum is subtracted first, so logits of ±1e4 give
 * finite weights. -Infinity gets weight 0; a row that is all -Infinity gives all
 * zeros (as attention_ref does). NaN and +Infinity are errors.
 */
export function softmax(x) {
  if (x.length === 0) throw new RangeError("softmax: no logits");
  let peak = -Infinity;
  for (const v of x) {
    if (Number.isNaN(v) || v === Infinity) {
      throw new RangeError(`softmax: logits must be finite or -Infinity, got ${v}`);
    }
    if (v > peak) peak = v;
  }
  if (peak === -Infinity) return x.map(() => 0);
  const e = x.map((v) => Math.exp(v - peak));
  let total = 0;
  for (const v of e) total += v;
  return e.map((v) => v / total);
}

/** Weighted sum of value rows: sum_j w_j v_j, shape (d_v,). */
export function weightedSum(w, values) {
  if (w.length !== values.length) {
    throw new RangeError(`weightedSum: ${w.length} weights for ${values.length} values`);
  }
  const out = new Array(values[0].length).fill(0);
  values.forEach((v, j) => {
    for (let c = 0; c < out.length; c++) out[c] += w[j] * v[c];
  });
  return out;
}

/** Shannon entropy in nats, with 0·ln 0 = 0. */
export function entropy(p) {
  let h = 0;
  for (const v of p) if (v > 0) h -= v * Math.log(v);
  return h;
}

/** Every step of one query's attention: scores, scaled, weights, output. */
export function attend(q, keys, values) {
  const s = scores(q, keys);
  const scaled = scaleScores(s, q.length);
  const weights = softmax(scaled);
  return { scores: s, scaled, weights, output: weightedSum(weights, values) };
}

/** mulberry32: a function returning uniform numbers in [0, 1) from a uint32 seed. */
export function mulberry32(seed) {
  let s = seed >>> 0;
  return function next() {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= (t + Math.imul(t ^ (t >>> 7), t | 61)) >>> 0;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal numbers (Box–Muller) from a uniform generator, in pairs. */
export function normals(uniform) {
  let spare = null;
  return function next() {
    if (spare !== null) {
      const z = spare;
      spare = null;
      return z;
    }
    const r = Math.sqrt(-2 * Math.log(1 - uniform()));
    const a = 2 * Math.PI * uniform();
    spare = r * Math.sin(a);
    return r * Math.cos(a);
  };
}

/** A random query and n_keys keys of width d_k, unit-variance entries, from a seed. */
export function drawSample(seed, dk, nKeys) {
  const next = normals(mulberry32(seed));
  const row = () => Float64Array.from({ length: dk }, next);
  const q = row();
  const keys = Array.from({ length: nKeys }, row);
  return { q, keys };
}

/** Softmax weights without and with the 1/sqrt(d_k) scale, with max weight and entropy. */
export function saturation(q, keys) {
  const s = scores(q, keys);
  const side = (w) => ({ weights: w, max: Math.max(...w), entropy: entropy(w) });
  return { raw: side(softmax(s)), scaled: side(softmax(scaleScores(s, q.length))) };
}

/** x with dp decimals as the widget shows it: a true minus sign, never "-0.000". */
export function fixed(x, dp) {
  let s = x.toFixed(dp);
  if (/^-0\.?0*$/.test(s)) s = s.slice(1);
  return s.replace("-", "\u2212");
}

// --- the explorer's challenges ----------------------------------------------------
// Each condition is read from the widget's own state (the query) and computed here, so
// node --test can check it against hand-worked values. Two numbers closer than TIE
// count as equal: 0.3 + 0.7 and 1.0 differ in the last bit of a double, and a reader
// who made two scores equal on the sliders has made them equal.

export const TIE = 1e-9;

/** Index of the single largest weight, or -1 when the top place is shared (within tol). */
export function winner(weights, tol = TIE) {
  let best = 0;
  for (let j = 1; j < weights.length; j++) if (weights[j] > weights[best]) best = j;
  const shared = weights.some((w, j) => j !== best && weights[best] - w <= tol);
  return shared ? -1 : best;
}

/** True when the largest and the smallest weight differ by at most tol. */
export function allEqual(weights, tol = TIE) {
  return Math.max(...weights) - Math.min(...weights) <= tol;
}

/** Euclidean distance between two points of the same dimension. */
export function distance(a, b) {
  if (a.length !== b.length) {
    throw new RangeError(`distance: points differ in dimension (${a.length} and ${b.length})`);
  }
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s);
}

/** True when q is `factor` times base, component by component (base not all zero). */
export function isScaledCopy(q, base, factor, tol = TIE) {
  if (q.length !== base.length || base.every((b) => b === 0)) return false;
  return q.every((v, i) => Math.abs(v - factor * base[i]) <= tol);
}

/**
 * The four challenges of the explorer for the query q. `spec` names the key to make
 * win (`win`), the value to approach and how near counts as close (`near.value`,
 * `near.within`), and the query to double (`double.base`, `double.factor`).
 * Returns, per challenge, `solved` and the numbers its explanation quotes.
 */
export function challenges(q, keys, values, spec) {
  const r = attend(q, keys, values);
  const top = winner(r.weights);
  const target = values[spec.near.value];
  const gap = distance(r.output, target);
  const base = attend(spec.double.base, keys, values);
  const doubled = isScaledCopy(q, spec.double.base, spec.double.factor);
  const before = { max: Math.max(...base.weights), entropy: entropy(base.weights) };
  const after = { max: Math.max(...r.weights), entropy: entropy(r.weights) };
  return {
    win: { solved: top === spec.win, winner: top, scores: r.scores, weights: r.weights },
    equal: { solved: allEqual(r.weights), scores: r.scores, weights: r.weights },
    near: {
      // "solved" means close; exact is what the reader was asked to try, and never happens
      solved: gap <= spec.near.within,
      exact: gap === 0,
      distance: gap,
      output: r.output,
      others: r.weights.filter((_, j) => j !== spec.near.value),
      weight: r.weights[spec.near.value],
    },
    double: {
      solved: doubled && after.max > before.max && after.entropy < before.entropy,
      doubled,
      before: { ...before, scores: base.scores, weights: base.weights },
      after: { ...after, scores: r.scores, weights: r.weights },
    },
  };
}
