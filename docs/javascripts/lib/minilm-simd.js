// The inner loop of minilm-math.js's linear(), y = x @ w^T + b, in WebAssembly with 128-bit
// SIMD: four float32 lanes multiplied and added at once. Everything else of the model stays
// in minilm-math.js, written one function for each of attention_ref's; this file only makes
// the dot products, nearly all of the forward pass's work, about three times faster
// (bench/browser_model.py). No file to fetch: the module's 200-odd bytes are assembled below,
// from an instruction list that says what each step does.
//
// The kernel, dot4x2(x, w, len, out), takes four rows of x (row r at x + r * len floats)
// and two rows of w (at w and w + len) and writes 8 vectors of 4 partial sums to out:
// vector 4 * s + r holds, in lane j, the sum over k = j, j + 4, j + 8, ... of
// x[r][k] * w[s][k]. The lanes are added in JavaScript, in float64, with the bias.
// Lanes accumulate in float32 (len / 4 terms each: 96 or 384 for this model), which moves
// a dot product by about 1e-6 of its size; the weights' float16 storage moves them by
// about 1e-3. Rows must lie in the kernel's own memory: the arena (simdArena) holds the
// model's matrices and a scratch area for x.

// ----------------------------------------------------------------- a tiny assembler

const uleb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const sleb = (n) => {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
};
const I32 = 0x7f;
const V128 = 0x7b;
const SIMD = 0xfd;
const I = {
  get: (i) => [0x20, ...uleb(i)], // local.get
  set: (i) => [0x21, ...uleb(i)], // local.set
  tee: (i) => [0x22, ...uleb(i)], // local.tee
  const: (v) => [0x41, ...sleb(v)], // i32.const
  add: [0x6a], // i32.add
  mul: [0x6c], // i32.mul
  ltU: [0x49], // i32.lt_u
  load: [SIMD, 0x00, 4, 0], // v128.load, 16-byte aligned, offset 0
  store: [SIMD, 0x0b, 4, 0], // v128.store
  fAdd: [SIMD, ...uleb(0xe4)], // f32x4.add
  fMul: [SIMD, ...uleb(0xe6)], // f32x4.mul
  loop: [0x03, 0x40], // loop with no result
  brIf: (depth) => [0x0d, ...uleb(depth)],
  end: [0x0b],
};

// Locals: the four parameters, then i32 stride and k (bytes), the six row pointers, then
// the v128 accumulators acc[s * 4 + r], the two w vectors and the x vector.
const L = {
  x: 0, w: 1, len: 2, out: 3, stride: 4, k: 5,
  px: [6, 7, 8, 9], pw: [10, 11],
  acc: [12, 13, 14, 15, 16, 17, 18, 19], wv: [20, 21], xv: 22,
}; // prettier-ignore

function kernelBody() {
  const code = [];
  const emit = (...parts) => parts.forEach((p) => code.push(...p));
  emit(I.get(L.len), I.const(4), I.mul, I.set(L.stride)); // stride = len * 4 bytes
  emit(I.get(L.x), I.set(L.px[0]));
  for (let r = 1; r < 4; r++) emit(I.get(L.px[r - 1]), I.get(L.stride), I.add, I.set(L.px[r]));
  emit(I.get(L.w), I.set(L.pw[0]), I.get(L.w), I.get(L.stride), I.add, I.set(L.pw[1]));
  emit(I.loop); // do { ... } while (k < stride), k in bytes, 4 floats a step
  for (let s = 0; s < 2; s++) emit(I.get(L.pw[s]), I.get(L.k), I.add, I.load, I.set(L.wv[s]));
  for (let r = 0; r < 4; r++) {
    emit(I.get(L.px[r]), I.get(L.k), I.add, I.load, I.set(L.xv));
    for (let s = 0; s < 2; s++) {
      const a = L.acc[s * 4 + r]; // acc += x_r * w_s, lane by lane
      emit(I.get(a), I.get(L.xv), I.get(L.wv[s]), I.fMul, I.fAdd, I.set(a));
    }
  }
  emit(I.get(L.k), I.const(16), I.add, I.tee(L.k), I.get(L.stride), I.ltU, I.brIf(0), I.end);
  for (let j = 0; j < 8; j++) emit(I.get(L.out), I.const(16 * j), I.add, I.get(L.acc[j]), I.store);
  emit(I.end);
  const locals = [2, ...uleb(8), I32, ...uleb(11), V128]; // locals 4..11 i32, 12..22 v128
  return [...locals, ...code];
}

const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];
const name = (s) => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];

/** The module's bytes: one function dot4x2(i32, i32, i32, i32), memory imported as m.mem. */
export function kernelBytes() {
  const body = kernelBody();
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, // "\0asm", version 1
    ...section(1, [1, 0x60, 4, I32, I32, I32, I32, 0]), // type: (i32 x 4) -> ()
    ...section(2, [1, ...name("m"), ...name("mem"), 0x02, 0x00, 1]), // import memory, min 1 page
    ...section(3, [1, 0]), // one function, of type 0
    ...section(7, [1, ...name("dot4x2"), 0x00, 0]), // export it
    ...section(10, [1, ...uleb(body.length), ...body]), // its code
  ]); // prettier-ignore
}

// -------------------------------------------------------------------------- the arena

/** Floats of the scratch area for x: 64 tokens (the widget's limit) of 1536 (the MLP's width). */
export const SCRATCH_FLOATS = 64 * 1536;
const OUT_FLOATS = 32; // the kernel's 8 vectors

/**
 * A WebAssembly memory holding `floats` float32 values of matrices (alloc) and the scratch
 * area, with the kernel compiled over it; null where WebAssembly SIMD is not available
 * (then minilm-math.js computes every dot product itself).
 * @param {number} floats  how many floats alloc() will hand out in all
 */
export function simdArena(floats) {
  const bytes = kernelBytes();
  if (typeof WebAssembly !== "object" || !WebAssembly.validate(bytes)) return null;
  const base = OUT_FLOATS + SCRATCH_FLOATS; // floats before the first matrix
  const memory = new WebAssembly.Memory({ initial: Math.ceil(((base + floats) * 4) / 65536) });
  const { dot4x2 } = new WebAssembly.Instance(new WebAssembly.Module(bytes), { m: { mem: memory } }).exports;
  const F = new Float32Array(memory.buffer); // the memory never grows: views stay valid
  let next = base;
  return {
    /** A Float32Array of `count` floats in the arena, and its offset in floats. */
    alloc(count) {
      if (next + count > base + floats) throw new Error(`simd arena: ${count} floats do not fit`);
      const offset = next;
      next += count + ((4 - (count % 4)) % 4); // keep every matrix 16-byte aligned
      return { offset, data: F.subarray(offset, offset + count) };
    },
    /**
     * y = x @ w^T + b into out.data, the blocks of 4 rows x 2 outputs by the kernel, the
     * rows and outputs past the last whole block one dot product at a time. Needs w in
     * the arena (w.offset) and x.cols a multiple of 4, x at most SCRATCH_FLOATS floats.
     */
    linear(x, w, b, out) {
      const n = x.rows;
      const dIn = x.cols;
      const dOut = w.rows;
      const ys = out.data;
      F.set(x.data, OUT_FLOATS);
      const rows4 = n - (n % 4);
      const outs2 = dOut - (dOut % 2);
      for (let i = 0; i < rows4; i += 4) {
        const xAt = 4 * (OUT_FLOATS + i * dIn);
        for (let o = 0; o < outs2; o += 2) {
          dot4x2(xAt, 4 * (w.offset + o * dIn), dIn, 0);
          for (let j = 0; j < 8; j++) {
            const row = i + (j & 3);
            const col = o + (j >> 2);
            ys[row * dOut + col] = F[4 * j] + F[4 * j + 1] + F[4 * j + 2] + F[4 * j + 3] + b[col];
          }
        }
      }
      const xs = x.data;
      const ws = w.data;
      for (let i = 0; i < n; i++) {
        for (let o = i < rows4 ? outs2 : 0; o < dOut; o++) {
          let s = 0;
          for (let k = 0; k < dIn; k++) s += xs[i * dIn + k] * ws[o * dIn + k];
          ys[i * dOut + o] = s + b[o];
        }
      }
      return out;
    },
  };
}
