// The page's side of the browser model: the size to announce, the worker, and the rule
// that only the latest sentence's result is ever shown. No DOM: the widget calls it.
import { STALL_MS, within } from "./fault.js";
import { cacheState } from "./minilm-fetch.js";

/** Where the model lives, relative to this module (site/javascripts/lib/). */
export const MANIFEST_URL = new URL("../../assets/minilm/manifest.json", import.meta.url).href;
const WORKER_URL = new URL("./minilm-worker.js", import.meta.url).href;

/** A failure of the manifest, with the kind lib/fault.js words for the reader. */
const manifestError = (kind, message, details = {}) => Object.assign(new Error(message), { kind, file: "manifest.json", ...details });

/**
 * What the first use downloads: the tokenizer and the encoder (the word rows of a
 * sentence, at most 3 MB more, come after), how much of it is still to fetch (`left`:
 * less after a download broke off half-way), whether all of it is cached already, and
 * whether the browser keeps files at all (`storage`: false in a window that refuses
 * Cache Storage, where every visit downloads it again). A manifest that does not
 * arrive within `stallMs` is refused as stalled.
 * @returns {Promise<{bytes: number, left: number, cached: boolean, storage: boolean}>}
 */
export async function firstUse(manifestUrl = MANIFEST_URL, stallMs = STALL_MS) {
  let manifest;
  try {
    const response = await within(fetch(manifestUrl), stallMs);
    if (!response.ok) throw manifestError("missing", `The site has no manifest.json (HTTP ${response.status}).`, { status: response.status });
    const text = await within(response.text(), stallMs);
    try {
      manifest = JSON.parse(text);
    } catch {
      throw manifestError("corrupt", "manifest.json is not readable.");
    }
    if (!Array.isArray(manifest?.groups) || !manifest.tokenizer) throw manifestError("corrupt", "manifest.json lists no files.");
  } catch (err) {
    if (err.kind) throw err;
    throw manifestError("network", `The connection failed while loading manifest.json (${err.message}).`);
  }
  const entries = [manifest.tokenizer, ...manifest.groups];
  const bytes = entries.reduce((s, e) => s + e.bytes, 0);
  const base = new URL(".", manifestUrl);
  const { storage, left } = await cacheState(entries.map((e) => ({ url: new URL(e.path, base).href, bytes: e.bytes })));
  return { bytes, left, cached: left === 0, storage };
}

/** "21.7 MB" (decimal megabytes, one decimal; kilobytes under 1 MB). */
export function formatBytes(bytes) {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

/**
 * The model in its worker. `run(text, onProgress, channel)` resolves with the result of
 * the latest sentence asked for on that channel (a widget's own name; "" if none); a run
 * overtaken by a newer one on the same channel resolves with null. Channels share the
 * worker, its download and its loaded weights, but never each other's results.
 */
export function createModel(manifestUrl = MANIFEST_URL, stallMs = STALL_MS) {
  let worker = null;
  let next = 0; // the last id asked for, on any channel
  const latest = new Map(); // channel -> the id of its latest run
  const pending = new Map(); // id -> {resolve, reject, onProgress, channel}
  function start() {
    worker = new Worker(WORKER_URL, { type: "module" });
    worker.onmessage = (event) => {
      const msg = event.data;
      if (msg.type === "progress") {
        // The download is shared: every channel's latest run sees the same bytes.
        for (const id of latest.values()) pending.get(id)?.onProgress?.(msg.loaded, msg.total);
        return;
      }
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.id !== latest.get(p.channel)) p.resolve(null); // overtaken: never shown
      else if (msg.type === "result") p.resolve(msg);
      else p.reject(Object.assign(new Error(msg.message), msg));
    };
    worker.onerror = (event) => {
      for (const p of pending.values()) p.reject(Object.assign(new Error(`The model's worker failed: ${event.message}`), { kind: "internal" }));
      event.preventDefault?.(); // reported to the reader in the form, not as a page error
      pending.clear();
      worker = null;
    };
  }
  return {
    run(text, onProgress, channel = "") {
      if (worker === null) start();
      next += 1;
      const id = next;
      latest.set(channel, id);
      for (const [oldId, p] of pending) {
        if (p.channel !== channel) continue;
        pending.delete(oldId);
        p.resolve(null); // a newer sentence: the older one will not be shown
      }
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, onProgress, channel });
        worker.postMessage({ type: "run", id, text, manifestUrl, channel, stallMs });
      });
    },
    terminate() {
      worker?.terminate();
      worker = null;
    },
  };
}

let shared = null;

/**
 * The page's one model: every widget on it (lesson 1's heatmap, lesson 2's heads) runs
 * its sentences here, in one worker, with one download. On the other lesson's page the
 * files come from Cache Storage (minilm-fetch.js), and the consent is not asked again.
 */
export function sharedModel(stallMs = STALL_MS) {
  shared ??= createModel(MANIFEST_URL, stallMs);
  return shared;
}
