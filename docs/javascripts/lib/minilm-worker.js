// The Web Worker that runs all-MiniLM-L6-v2 on the reader's sentence, off the page's
// thread. Started by minilm-client.js only after the reader agreed to the download.
//
// Messages in:  {type: "run", id, text, manifestUrl, channel}   ids grow on every channel
// Messages out: {type: "progress", id, loaded, total}            bytes, as they arrive
//               {type: "result", id, tokens, ids, attentions, ms} attentions: one
//                   Float32Array (heads * n * n) per layer, transferred
//               {type: "error", id, kind, message, ...}           kind: empty | too-long
//                   (the sentence) or missing | short | corrupt | network (a file)
// A run whose id is older than the latest asked for on its channel (one widget) is
// dropped before it computes.
import { Tokenizer } from "../../vendor/tokenizers/tokenizers.min.mjs";

import { ModelFileError, fetchVerified } from "./minilm-fetch.js";
import { modelFromGroups, runModel, shardsForIds, wordRows } from "./minilm-math.js";
import { encodeSentence, makeTokenizer } from "./minilm-tokenize.js";

const latest = new Map(); // channel -> the id of its latest run
let manifestP = null; // Promise of {manifest, base, tokenizer}; reset on failure
let modelP = null; // Promise of the model (modelFromGroups); reset on failure
const shardCache = new Map(); // shard index -> ArrayBuffer
let queue = Promise.resolve();

/** Progress of the download, in bytes, shared by every run (one download at a time). */
const bar = { loaded: 0, total: 0 };
function post(id) {
  self.postMessage({ type: "progress", id, loaded: bar.loaded, total: bar.total });
}

async function loadTokenizer(manifestUrl, id) {
  const response = await fetch(manifestUrl);
  if (!response.ok) {
    throw new ModelFileError("missing", "manifest.json", `The site has no manifest.json (HTTP ${response.status}).`);
  }
  const manifest = await response.json();
  if (manifest.format !== 1) throw new Error(`manifest.json: format ${manifest.format}, this page reads 1`);
  const base = new URL(".", manifestUrl);
  bar.total += manifest.tokenizer.bytes + manifest.groups.reduce((s, g) => s + g.bytes, 0);
  post(id);
  const count = (n) => {
    bar.loaded += n;
    post(id);
  };
  const bytes = await fetchVerified(new URL(manifest.tokenizer.path, base).href, manifest.tokenizer, count);
  const tokenizer = makeTokenizer(Tokenizer, JSON.parse(new TextDecoder().decode(bytes)));
  return { manifest, base, tokenizer, count };
}

async function loadModel(m) {
  const groups = {};
  for (const g of m.manifest.groups) {
    groups[g.name] = await fetchVerified(new URL(g.path, m.base).href, g, m.count);
  }
  return modelFromGroups(m.manifest, groups);
}

/** `promise`, forgotten by `reset()` if it fails, so that "Try again" starts afresh. */
async function settle(promise, reset) {
  try {
    return await promise;
  } catch (err) {
    reset();
    bar.loaded = 0;
    bar.total = 0;
    throw err;
  }
}

const overtaken = (id, channel) => id < (latest.get(channel ?? "") ?? 0);

async function run({ id, text, manifestUrl, channel }) {
  if (overtaken(id, channel)) return; // a newer sentence was asked for: drop this one
  // An empty sentence needs no model: refused before anything loads.
  if (typeof text !== "string" || text.trim() === "") encodeSentence(null, text);
  if (manifestP === null) manifestP = loadTokenizer(manifestUrl, id);
  const m = await settle(manifestP, () => (manifestP = null));
  // Too long: refused with the tokenizer alone, before the weights download.
  const { tokens, ids } = encodeSentence(m.tokenizer, text);
  if (modelP === null) modelP = loadModel(m);
  const model = await settle(modelP, () => {
    manifestP = null;
    modelP = null;
  });
  const words = m.manifest.word_embeddings;
  const needed = shardsForIds(ids, words.rows_per_shard).filter((s) => !shardCache.has(s));
  bar.total += needed.reduce((sum, s) => sum + words.shards[s].bytes, 0);
  for (const s of needed) {
    const entry = words.shards[s];
    shardCache.set(s, await fetchVerified(new URL(entry.path, m.base).href, entry, m.count));
  }
  if (overtaken(id, channel)) return;
  const shards = Object.fromEntries(shardsForIds(ids, words.rows_per_shard).map((s) => [s, shardCache.get(s)]));
  const start = performance.now();
  const { attentions } = runModel(model, wordRows(ids, shards, words.rows_per_shard, words.width));
  const ms = performance.now() - start;
  self.postMessage({ type: "result", id, tokens, ids, attentions, ms }, attentions.map((a) => a.buffer));
}

// Set synchronously, before any await, so that the first message is never lost.
self.onmessage = (event) => {
  const msg = event.data;
  if (msg?.type !== "run") return;
  const channel = msg.channel ?? "";
  latest.set(channel, Math.max(latest.get(channel) ?? 0, msg.id));
  queue = queue.then(() =>
    run(msg).catch((err) => {
      self.postMessage({
        type: "error",
        id: msg.id,
        kind: err.kind ?? "internal",
        message: err.message,
        file: err.file,
        count: err.count,
        limit: err.limit,
      });
    }),
  );
};
