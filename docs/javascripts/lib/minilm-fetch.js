// Fetching the browser model's files: every byte counted for the progress bar, every file
// checked against the size and SHA-256 its manifest gives (site_build/minilm_export.py),
// and kept in the browser's Cache Storage so that a second visit downloads nothing.
// No DOM: the worker uses it, node --test checks it with a stand-in fetch. A file that
// stops arriving (no byte for `stallMs`, lib/fault.js) is aborted and refused as a
// network failure, so that the worker's next run is never left waiting behind it.
import { STALL_MS, inactivity } from "./fault.js";

/** Why a model file could not be used; `kind` is missing | short | corrupt | network | stalled. */
export class ModelFileError extends Error {
  constructor(kind, file, message, details = {}) {
    super(message);
    this.name = "ModelFileError";
    this.kind = kind;
    this.file = file;
    Object.assign(this, details);
  }
}

/** The name of the Cache Storage bucket (files are content-named: never stale). */
export const CACHE_NAME = "minilm-v1";

/** Lower-case hex of the SHA-256 of `buffer`. */
export async function sha256Hex(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function openCache() {
  try {
    return typeof caches === "undefined" ? null : await caches.open(CACHE_NAME);
  } catch {
    return null; // private windows may refuse Cache Storage: fetch every time
  }
}

/**
 * One model file as an ArrayBuffer, checked.
 * @param {string} url       absolute URL of the file
 * @param {{path: string, bytes: number, sha256: string}} entry  its manifest entry
 * @param {(n: number) => void} onBytes  called with each chunk's length as it arrives
 * @param {{fetch?: Function, cache?: object|null, stallMs?: number, clock?: object}} [env]
 *        stand-ins for tests, and the stall deadline (STALL_MS unless given)
 */
export async function fetchVerified(url, entry, onBytes, env = {}) {
  const doFetch = env.fetch ?? globalThis.fetch.bind(globalThis);
  const cache = "cache" in env ? env.cache : await openCache();
  const file = entry.path;
  if (cache) {
    const hit = await cache.match(url);
    if (hit) {
      const buffer = await hit.arrayBuffer();
      if (buffer.byteLength === entry.bytes && (await sha256Hex(buffer)) === entry.sha256) {
        onBytes(buffer.byteLength);
        return buffer;
      }
      await cache.delete(url); // a damaged copy: fetch it again
    }
  }
  const stallMs = env.stallMs ?? STALL_MS;
  const deadline = inactivity(stallMs, env.clock);
  const stalled = () =>
    new ModelFileError("stalled", file, `${file}: nothing arrived for ${Math.round(stallMs / 1000)} s.`, { ms: stallMs });
  const buffer = new Uint8Array(entry.bytes);
  let got = 0;
  try {
    let response;
    try {
      response = await raceAbort(doFetch(url, { signal: deadline.signal }), deadline.signal);
    } catch (err) {
      if (deadline.stalled) throw stalled();
      throw new ModelFileError("network", file, `The connection failed while loading ${file} (${err.message}).`);
    }
    if (!response.ok) {
      throw new ModelFileError("missing", file, `The site has no ${file} (HTTP ${response.status}).`, { status: response.status });
    }
    try {
      const reader = response.body.getReader();
      deadline.signal.addEventListener("abort", () => reader.cancel().catch(() => {}), { once: true });
      for (;;) {
        deadline.poke();
        const { done, value } = await raceAbort(reader.read(), deadline.signal);
        if (done) break;
        if (got + value.length > entry.bytes) {
          throw new ModelFileError("corrupt", file, `${file} is longer than the ${entry.bytes} bytes expected.`);
        }
        buffer.set(value, got);
        got += value.length;
        onBytes(value.length);
      }
    } catch (err) {
      if (err instanceof ModelFileError) throw err;
      if (deadline.stalled) throw stalled();
      throw new ModelFileError("network", file, `The connection broke while loading ${file} (${err.message}).`);
    }
  } finally {
    deadline.stop();
  }
  if (got < entry.bytes) {
    throw new ModelFileError("short", file, `${file} was cut short: ${got} of ${entry.bytes} bytes arrived.`);
  }
  const hash = await sha256Hex(buffer.buffer);
  if (hash !== entry.sha256) {
    throw new ModelFileError("corrupt", file, `${file} is damaged: its SHA-256 does not match the manifest.`);
  }
  if (cache) {
    try {
      await cache.put(url, new Response(buffer.slice().buffer));
    } catch {
      // a full or refused cache only costs a download next time
    }
  }
  return buffer.buffer;
}

/** `promise`, or a rejection as soon as `signal` aborts (a stand-in fetch may ignore it). */
function raceAbort(promise, signal) {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * What Cache Storage holds of `files`: whether the browser keeps files at all
 * (`storage`), and the bytes still to download (`left`; 0: nothing to ask).
 * @param {{url: string, bytes: number}[]} files
 * @param {{cache?: object|null}} [env]  a stand-in cache for tests (null: refused)
 * @returns {Promise<{storage: boolean, left: number}>}
 */
export async function cacheState(files, env = {}) {
  const cache = "cache" in env ? env.cache : await openCache();
  const all = files.reduce((s, f) => s + f.bytes, 0);
  if (!cache) return { storage: false, left: all };
  let left = 0;
  for (const f of files) {
    let hit = null;
    try {
      hit = await cache.match(f.url);
    } catch {
      return { storage: false, left: all };
    }
    if (!hit) left += f.bytes;
  }
  return { storage: true, left };
}

/** Whether every file of `urls` is already in Cache Storage (then nothing to ask). */
export async function allCached(urls) {
  const { left } = await cacheState(urls.map((url) => ({ url, bytes: 1 })));
  return left === 0;
}
