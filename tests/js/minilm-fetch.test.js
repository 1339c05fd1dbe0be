// docs/javascripts/lib/minilm-fetch.js with a stand-in fetch: a good file is returned and
// counted byte by byte; a missing, cut-short, too-long or damaged one, or a broken
// connection, is refused with its kind and the file's name. Hashes worked out by node:crypto.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

import { ModelFileError, fetchVerified, sha256Hex } from "../../docs/javascripts/lib/minilm-fetch.js";

const BODY = new TextEncoder().encode("float16 bytes of a layer");
const ENTRY = { path: "layer-0.abc.bin", bytes: BODY.length, sha256: createHash("sha256").update(BODY).digest("hex") };

function respond(chunks, status = 200, failAfter = -1) {
  return async () => {
    let i = 0;
    return {
      ok: status === 200,
      status,
      body: {
        getReader: () => ({
          read: async () => {
            if (i === failAfter) throw new TypeError("network error");
            return i < chunks.length ? { done: false, value: chunks[i++] } : { done: true };
          },
        }),
      },
    };
  };
}

const kindOf = (kind, file = ENTRY.path) => (e) => e instanceof ModelFileError && e.kind === kind && e.file === file;

test("sha256Hex is SHA-256", async () => {
  assert.equal(await sha256Hex(BODY.buffer), ENTRY.sha256);
});

test("a good file arrives whole, every byte counted", async () => {
  let counted = 0;
  const buf = await fetchVerified("u", ENTRY, (n) => (counted += n), {
    fetch: respond([BODY.slice(0, 5), BODY.slice(5)]), cache: null,
  });
  assert.deepEqual(new Uint8Array(buf), BODY);
  assert.equal(counted, BODY.length);
});

test("404: missing", async () => {
  await assert.rejects(fetchVerified("u", ENTRY, () => {}, { fetch: respond([], 404), cache: null }), kindOf("missing"));
  await assert.rejects(fetchVerified("u", ENTRY, () => {}, { fetch: respond([], 404), cache: null }), /HTTP 404/);
});

test("cut short, too long, damaged", async () => {
  await assert.rejects(
    fetchVerified("u", ENTRY, () => {}, { fetch: respond([BODY.slice(0, 7)]), cache: null }),
    (e) => kindOf("short")(e) && /7 of 24 bytes/.test(e.message),
  );
  const longer = new Uint8Array(BODY.length + 1);
  await assert.rejects(fetchVerified("u", ENTRY, () => {}, { fetch: respond([longer]), cache: null }), kindOf("corrupt"));
  const flipped = BODY.slice();
  flipped[3] ^= 1;
  await assert.rejects(
    fetchVerified("u", ENTRY, () => {}, { fetch: respond([flipped]), cache: null }),
    (e) => kindOf("corrupt")(e) && /SHA-256 does not match/.test(e.message),
  );
});

test("offline before or during the download: network", async () => {
  const offline = async () => { throw new TypeError("Failed to fetch"); };
  await assert.rejects(fetchVerified("u", ENTRY, () => {}, { fetch: offline, cache: null }), kindOf("network"));
  await assert.rejects(
    fetchVerified("u", ENTRY, () => {}, { fetch: respond([BODY.slice(0, 5), BODY.slice(5)], 200, 1), cache: null }),
    kindOf("network"),
  );
});

test("a cached copy is used when its hash holds, fetched again when it does not", async () => {
  const store = new Map([["u", BODY.slice()]]);
  const cache = {
    match: async (u) => (store.has(u) ? { arrayBuffer: async () => store.get(u).slice().buffer } : undefined),
    delete: async (u) => store.delete(u),
    put: async (u, r) => store.set(u, new Uint8Array(await r.arrayBuffer())),
  };
  const never = async () => { throw new Error("fetched although cached"); };
  assert.deepEqual(new Uint8Array(await fetchVerified("u", ENTRY, () => {}, { fetch: never, cache })), BODY);
  store.get("u")[0] ^= 1; // damage the cached copy
  const again = await fetchVerified("u", ENTRY, () => {}, { fetch: respond([BODY]), cache });
  assert.deepEqual(new Uint8Array(again), BODY);
  assert.deepEqual(store.get("u"), BODY, "the good copy replaced the damaged one");
});
