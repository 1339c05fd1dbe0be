// Fetching the browser model's files: every byte counted for the progress bar, every file
// checked against the size and SHA-256 its manifest gives (site_build/minilm_export.py),
// and kept in the browser's Cache Storage so that a second visit downloads nothing.
// No DOM: the worker uses it, node --test checks it with a stand-in fetch.

/** Why a model file could not be used; `kind` is missing | short | corrupt | network. */
export class ModelFileError extends Error {
  constructor(kind, file, message) {
    super(message);
    this.name = "ModelFileError";
    this.kind = kind;
    this.file = file;
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
 * @param {{fetch?: Function, cache?: object|null}} [env]  stand-ins for tests
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
  let response;
  try {
    response = await doFetch(url);
  } catch (err) {
    throw new ModelFileError("network", file, `The connection failed while loading ${file} (${err.message}).`);
  }
  if (!response.ok) {
    throw new ModelFileError("missing", file, `The site has no ${file} (HTTP ${response.status}).`);
  }
  const buffer = new Uint8Array(entry.bytes);
  let got = 0;
  try {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
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
    throw new ModelFileError("network", file, `The connection broke while loading ${file} (${err.message}).`);
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

/** Whether every file of `entries` is already in Cache Storage (then nothing to ask). */
export async function allCached(urls) {
  const cache = await openCache();
  if (!cache) return false;
  for (const url of urls) if (!(await cache.match(url))) return false;
  return true;
}
