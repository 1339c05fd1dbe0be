// The Web Worker that runs all-MiniLM-L6-v2 on the reader's sentence, off the page's
// thread. Started by minilm-client.js only after the reader agreed to the download.
//
// Messages in:  {type: "run", id, text, manifestUrl, channel, stallMs}   ids grow on every
//                   channel; stallMs: the silence after which a download is given up
// Messages out: {type: "progress", id, loaded, total}            bytes, as they arrive
//               {type: "result", id, tokens, ids, attentions, ms} attentions: one
//                   Float32Array (heads * n * n) per layer, transferred
//               {type: "error", id, kind, message, ...}           kind: empty | too-long |
//                   no-words (the sentence) or missing | short | corrupt | network |
//                   stalled (a file)
// A download that stops sending is aborted after stallMs (lib/fault.js), so a stalled
// run ends in an error and never holds up the runs queued behind it.
// A run whose id is older than the latest asked for on its channel (one widget) is
// dropped before it computes.
import { Tokenizer } from "../../vendor/tokenizers/tokenizers.min.mjs";

import { NO_WORDS, STALL_MS, hasWordToken, within } from "./fault.js";
import { ModelFileError, fetchVerified } from "./minilm-fetch.js";
import { modelFromGroups, runModel, shardsForIds, wordRows } from "./minilm-math.js";
import { SentenceError, encodeSentence, makeTokenizer } from "./minilm-tokenize.js";

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

let stallMs = STALL_MS;

async function loadTokenizer(manifestUrl, id) {
  let response;
  let text;
  try {
    response = await within(fetch(manifestUrl), stallMs);
    if (response.ok) text = await within(response.text(), stallMs);
  } catch (err) {
    if (err.kind === "stalled") throw new ModelFileError("stalled", "manifest.json", err.message, { ms: stallMs });
    throw new ModelFileError("network", "manifest.json", `The connection failed while loading manifest.json (${err.message}).`);
  }
  if (!response.ok) {
    throw new ModelFileError("missing", "manifest.json", `The site has no manifest.json (HTTP ${response.status}).`, { status: response.status });
  }
  let manifest;
  try {
    manifest = JSON.parse(text);
  } catch {
    throw new ModelFileError("corrupt", "manifest.json", "manifest.json is not readable.");
  }
  if (manifest.format !== 1) throw new ModelFileError("corrupt", "manifest.json", `manifest.json: format ${manifest.format}, this page reads 1`);
  const base = new URL(".", manifestUrl);
  bar.total += manifest.tokenizer.bytes + manifest.groups.reduce((s, g) => s + g.bytes, 0);
  post(id);
  const count = (n) => {
    bar.loaded += n;
    post(id);
  };
  const bytes = await fetchVerified(new URL(manifest.tokenizer.path, base).href, manifest.tokenizer, count, { stallMs });
  const tokenizer = makeTokenizer(Tokenizer, JSON.parse(new TextDecoder().decode(bytes)));
  return { manifest, base, tokenizer, count };
}

async function loadModel(m) {
  const groups = {};
  for (const g of m.manifest.groups) {
    groups[g.name] = await fetchVerified(new URL(g.path, m.base).href, g, m.count, { stallMs });
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

async function run({ id, text, manifestUrl, channel, stallMs: asked }) {
  if (Number.isFinite(asked) && asked > 0) stallMs = asked;
  if (overtaken(id, channel)) return; // a newer sentence was asked for: drop this one
  // An empty sentence needs no model: refused before anything loads.
  if (typeof text !== "string" || text.trim() === "") encodeSentence(null, text);
  if (manifestP === null) manifestP = loadTokenizer(manifestUrl, id);
  const m = await settle(manifestP, () => (manifestP = null));
  // Too long: refused with the tokenizer alone, before the weights download.
  const { tokens, ids } = encodeSentence(m.tokenizer, text);
  // Only [CLS] and [SEP] (zero-width or control characters, or the markers typed):
  // nothing a reader could look at, so refused before the weights download.
  if (!hasWordToken(tokens)) throw new SentenceError("no-words", NO_WORDS);
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
    const got = fetchVerified(new URL(entry.path, m.base).href, entry, m.count, { stallMs });
    shardCache.set(s, await settle(got, () => {}));
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
        status: err.status,
        ms: err.ms,
      });
    }),
  );
};
