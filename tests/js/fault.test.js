// docs/javascripts/lib/fault.js and the stall deadline of lib/minilm-fetch.js (issue 34):
// a stand-in fetch that stops sending half-way is refused as stalled after the deadline,
// not waited for; only the latest run counts; a sentence of invisible characters or of
// typed markers has nothing to show; and every message a reader can meet is listed here
// and holds no address, stack or exception name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

import {
  NO_WORDS, STALL_MS, StallError, failureCategory, hasVisibleText, hasWordToken, inactivity, readerMessage,
  runCounter, stallMsOf, within,
} from "../../docs/javascripts/lib/fault.js";
import { ModelFileError, cacheState, fetchVerified } from "../../docs/javascripts/lib/minilm-fetch.js";

const BODY = new TextEncoder().encode("float16 bytes of a layer, in two halves");
const ENTRY = { path: "layer-2.abc.bin", bytes: BODY.length, sha256: createHash("sha256").update(BODY).digest("hex") };

/** A 200 response whose body a reader takes chunk by chunk from `read`. */
const streamed = (read) => ({
  ok: true,
  status: 200,
  body: { getReader: () => ({ read, cancel: async () => {} }) },
});

/** A response that sends its first half, then nothing, ever (as the probe's stalled server). */
const halfThenSilence = async (url, init) => {
  let sent = false;
  return streamed(() =>
    sent
      ? new Promise(() => {}) // never settles: only the deadline can end it
      : ((sent = true), Promise.resolve({ done: false, value: BODY.slice(0, 20) })),
  );
};

test("stallMsOf reads ?stall=MS and falls back to 30 s", () => {
  assert.equal(STALL_MS, 30_000);
  assert.equal(stallMsOf(""), 30_000);
  assert.equal(stallMsOf("?stall=1500"), 1500);
  assert.equal(stallMsOf("?stall=abc"), 30_000);
  assert.equal(stallMsOf("?stall=5"), 30_000); // under 100 ms: ignored
  assert.equal(stallMsOf(undefined), 30_000);
});

test("a download that stops half-way is refused as stalled once the deadline passes", async () => {
  let counted = 0;
  const t0 = Date.now();
  await assert.rejects(
    fetchVerified("u", ENTRY, (n) => (counted += n), { fetch: halfThenSilence, cache: null, stallMs: 150 }),
    (e) => e instanceof ModelFileError && e.kind === "stalled" && e.file === ENTRY.path && e.ms === 150,
  );
  const waited = Date.now() - t0;
  assert.equal(counted, 20, "the bytes that came were counted");
  assert.ok(waited >= 140 && waited < 2000, `gave up after ${waited} ms`);
});

test("headers that never come are a stall too; a slow but steady file is not", async () => {
  const never = () => new Promise(() => {});
  await assert.rejects(
    fetchVerified("u", ENTRY, () => {}, { fetch: never, cache: null, stallMs: 100 }),
    (e) => e.kind === "stalled",
  );
  // One byte every 3 ms (about 0.1 s in all) with a 100 ms deadline: each byte restarts the clock.
  const steady = async () => {
    let i = 0;
    return streamed(
      () => new Promise((r) => setTimeout(() => r(i < BODY.length ? { done: false, value: BODY.slice(i, ++i) } : { done: true }), 3)),
    );
  };
  const buf = await fetchVerified("u", ENTRY, () => {}, { fetch: steady, cache: null, stallMs: 100 });
  assert.deepEqual(new Uint8Array(buf), BODY);
});

test("inactivity aborts after ms of silence, poke restarts it, stop ends it", async () => {
  const d = inactivity(60);
  await new Promise((r) => setTimeout(r, 40));
  d.poke();
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(d.signal.aborted, false, "poked 40 ms ago");
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(d.signal.aborted, true);
  assert.equal(d.stalled, true);
  assert.ok(d.signal.reason instanceof StallError);
  const e = inactivity(20);
  e.stop();
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(e.signal.aborted, false);
  assert.equal(e.stalled, false);
});

test("within rejects a wait that outlasts its deadline, passes one that does not", async () => {
  await assert.rejects(within(new Promise(() => {}), 30), (e) => e.kind === "stalled");
  assert.equal(await within(Promise.resolve(7), 30), 7);
});

test("runCounter: only the newest ticket is the latest", () => {
  const runs = runCounter();
  const a = runs.next();
  assert.equal(runs.isLatest(a), true);
  const b = runs.next(); // an empty submit during a's download
  assert.equal(runs.isLatest(a), false);
  assert.equal(runs.isLatest(b), true);
});

test("hasVisibleText: false for nothing a reader can see", () => {
  for (const text of ["", "   ", "\u200b", "\u200b\u200c\u200d\u2060\ufeff", "\x01\x02\t\x7f", "[CLS] [SEP]", " [SEP][CLS]\u200b", null]) {
    assert.equal(hasVisibleText(text), false, JSON.stringify(text));
  }
  for (const text of ["a", "\u200bcat", "[MASK]", "[CLS] dog", "¿", "日本"]) {
    assert.equal(hasVisibleText(text), true, JSON.stringify(text));
  }
});

test("hasWordToken: the markers alone hold no word", () => {
  assert.equal(hasWordToken(["[CLS]", "[SEP]"]), false);
  assert.equal(hasWordToken(["[CLS]", "[CLS]", "[SEP]", "[SEP]"]), false);
  assert.equal(hasWordToken(["[CLS]", "dog", "[SEP]"]), true);
});

test("cacheState: bytes left after a partial download, and refused storage", async () => {
  const files = [{ url: "a", bytes: 10 }, { url: "b", bytes: 20 }, { url: "c", bytes: 30 }];
  const cache = { match: async (url) => (url === "a" || url === "c" ? {} : undefined) };
  assert.deepEqual(await cacheState(files, { cache }), { storage: true, left: 20 });
  assert.deepEqual(await cacheState(files, { cache: null }), { storage: false, left: 60 });
  const refusing = { match: async () => { throw new Error("SecurityError"); } };
  assert.deepEqual(await cacheState(files, { cache: refusing }), { storage: false, left: 60 });
});

// Every failure a reader can meet in the own-sentence form, with the category it is filed under.
const FAILURES = [
  [{ kind: "empty", message: "Type a sentence first: the field is empty." }, "sentence"],
  [{ kind: "too-long", message: "Your sentence gives 72 tokens (with [CLS] and [SEP]); this widget shows at most 64. Shorten it by 8." }, "sentence"],
  [{ kind: "no-words", message: NO_WORDS }, "sentence"],
  [{ kind: "offline", message: "could not import the model's module (Failed to fetch dynamically imported module: http://127.0.0.1/x.js)" }, "offline"],
  [{ kind: "network", file: "layer-3.abc.bin", message: "The connection failed while loading layer-3.abc.bin (TypeError: Failed to fetch)." }, "offline"],
  [{ kind: "stalled", file: "layer-3.abc.bin", ms: 30_000, message: "nothing arrived" }, "offline"],
  [{ kind: "missing", file: "manifest.json", status: 404, message: "The site has no manifest.json (HTTP 404)." }, "server"],
  [{ kind: "missing", file: "layer-0.abc.bin", status: 500, message: "The site has no layer-0 (HTTP 500)." }, "server"],
  [{ kind: "short", file: "layer-1.abc.bin", message: "cut short: 3 of 9 bytes" }, "damaged"],
  [{ kind: "corrupt", file: "manifest.json", message: "SyntaxError: Unexpected end of JSON input at position 12" }, "damaged"],
  [{ kind: "storage", message: "QuotaExceededError" }, "storage"],
  [{ kind: "internal", message: "TypeError: x is undefined\n    at run (http://127.0.0.1/minilm-worker.js:9:3)" }, "internal"],
  [{ message: "RangeError: something" }, "internal"],
];

test("every failure has a category and a reader's message without developer text", () => {
  const developer = /https?:|:\/\/|\bat \S+:\d|Error\b|Exception|importScripts|JSON|\bnull\b|\bundefined\b|\n/;
  for (const [err, category] of FAILURES) {
    assert.equal(failureCategory(err), category, JSON.stringify(err));
    const text = readerMessage(err);
    assert.equal(typeof text, "string");
    assert.ok(text.length > 20, text);
    assert.doesNotMatch(text, developer, JSON.stringify(err));
  }
  assert.match(readerMessage(FAILURES[5][0]), /nothing arrived for 30 s \(layer-3\.abc\.bin\)/);
  assert.match(readerMessage(FAILURES[6][0]), /has no copy .*\(manifest\.json\): it answered HTTP 404/);
  assert.match(readerMessage(FAILURES[9][0]), /damaged \(manifest\.json\)/);
  assert.match(readerMessage({ kind: "network", file: "http://127.0.0.1:8000/assets/minilm/layer-3.abc.bin?x=1" }), /\(layer-3\.abc\.bin\)/);
});
