// The Web Worker that runs all-MiniLM-L6-v2 on the reader's sentence, off the page's
// thread. Started by minilm-client.js only after the reader agreed to the download.
//
// Messages in:  {type: "run", id, text, manifestUrl}
// Messages out: {type: "progress", id, loaded, total}            bytes, as they arrive
//               {type: "result", id, tokens, ids, attentions, ms} attentions: one
//                   Float32Array (heads * n * n) per layer, transferred
//               {type: "error", id, kind, message, ...}           kind: empty | too-long
//                   (the sentence) or missing | short | corrupt | network (a file)
// A run whose id is older than the latest asked for is dropped before it computes.
import { Tokenizer } from "../../vendor/tokenizers/tokenizers.min.mjs";

import { ModelFileError, fetchVerified } from "./minilm-fetch.js";
import { modelFromGroups, runModel, shardsForIds, wordRows } from "./minilm-math.js";
import { encodeSentence, makeTokenizer } from "./minilm-tokenize.js";

let latest = 0;
let loaded = null; // Promise of {manifest, base, tokenizer, model}, reset on failure
const shardCache = new Map(); // shard index -> ArrayBuffer
let queue = Promise.resolve();

function progress(id) {
  const p = { loaded: 0, total: 0 };
  return {
    add(total) {
      p.total += total;
      self.postMessage({ type: "progress", id, ...p });
    },
    bytes(n) {
      p.loaded += n;
      self.postMessage({ type: "progress", id, ...p });
    },
  };
}

async function load(manifestUrl, bar) {
  const response = await fetch(manifestUrl);
  if (!response.ok) {
    throw new ModelFileError("missing", "manifest.json", `The site has no manifest.json (HTTP ${response.status}).`);
  }
  const manifest = await response.json();
  if (manifest.format !== 1) throw new Error(`manifest.json: format ${manifest.format}, this page reads 1`);
  const base = new URL(".", manifestUrl);
  bar.add(manifest.tokenizer.bytes + manifest.groups.reduce((s, g) => s + g.bytes, 0));
  const tokenizerBytes = await fetchVerified(new URL(manifest.tokenizer.path, base).href, manifest.tokenizer, bar.bytes);
  const tokenizer = makeTokenizer(Tokenizer, JSON.parse(new TextDecoder().decode(tokenizerBytes)));
  const groups = {};
  for (const g of manifest.groups) {
    groups[g.name] = await fetchVerified(new URL(g.path, base).href, g, bar.bytes);
  }
  return { manifest, base, tokenizer, model: modelFromGroups(manifest, groups) };
}

async function run({ id, text, manifestUrl }) {
  if (id < latest) return; // a newer sentence was asked for: drop this one
  const bar = progress(id);
  // An empty sentence needs no model: refuse it before loading anything.
  if (typeof text !== "string" || text.trim() === "") {
    encodeSentence(null, text);
  }
  if (loaded === null) loaded = load(manifestUrl, bar);
  let m;
  try {
    m = await loaded;
  } catch (err) {
    loaded = null; // so that "Try again" starts afresh
    throw err;
  }
  const { tokens, ids } = encodeSentence(m.tokenizer, text);
  const words = m.manifest.word_embeddings;
  const needed = shardsForIds(ids, words.rows_per_shard).filter((s) => !shardCache.has(s));
  if (needed.length) bar.add(needed.reduce((sum, s) => sum + words.shards[s].bytes, 0));
  for (const s of needed) {
    const entry = words.shards[s];
    shardCache.set(s, await fetchVerified(new URL(entry.path, m.base).href, entry, bar.bytes));
  }
  if (id < latest) return;
  const shards = Object.fromEntries(shardsForIds(ids, words.rows_per_shard).map((s) => [s, shardCache.get(s)]));
  const start = performance.now();
  const { attentions } = runModel(m.model, wordRows(ids, shards, words.rows_per_shard, words.width));
  const ms = performance.now() - start;
  self.postMessage({ type: "result", id, tokens, ids, attentions, ms }, attentions.map((a) => a.buffer));
}

// Set synchronously, before any await, so that the first message is never lost.
self.onmessage = (event) => {
  const msg = event.data;
  if (msg?.type !== "run") return;
  latest = Math.max(latest, msg.id);
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
