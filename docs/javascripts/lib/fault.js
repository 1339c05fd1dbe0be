// How the site's network-bound widgets fail well (issue 34): a deadline on silence, so a
// download that stops sending ends in a message instead of waiting for good; the rule
// that only the latest run may change what the reader sees; the test for a sentence
// that holds nothing a reader could see; and the reader's words for each kind of
// failure. No DOM: the own-sentence form, its worker and node --test share this file
// (tests/js/fault.test.js).
import { SPECIAL_TOKENS } from "./heatmap-math.js";

/** Seconds of silence after which a download counts as stalled. */
export const STALL_MS = 30_000;

/**
 * The stall deadline a page asks for: `?stall=MS` in its address (tests use it to stall
 * in a second, not in thirty), else STALL_MS. Values under 100 ms or unreadable are
 * ignored.
 * @param {string} search  location.search, e.g. "?stall=1500"
 * @returns {number} milliseconds
 */
export function stallMsOf(search) {
  const raw = new URLSearchParams(search || "").get("stall");
  const ms = raw === null ? NaN : Number(raw);
  return Number.isFinite(ms) && ms >= 100 ? ms : STALL_MS;
}

/** The error of a stalled download: `stalled` is how long nothing arrived. */
export class StallError extends Error {
  constructor(ms) {
    super(`nothing arrived for ${Math.round(ms / 1000)} s`);
    this.name = "StallError";
    this.kind = "stalled";
    this.ms = ms;
  }
}

/**
 * A deadline on inactivity: `signal` aborts once `ms` pass without a `poke()`; `stop()`
 * ends it. `stalled` tells afterwards whether it fired (an abort for any other reason
 * leaves it false).
 * @param {number} ms
 * @param {{setTimeout?: Function, clearTimeout?: Function}} [clock]  stand-ins for tests
 */
export function inactivity(ms, clock = globalThis) {
  const controller = new AbortController();
  const state = { stalled: false, timer: null, stopped: false };
  const arm = () => {
    if (state.stopped) return;
    clock.clearTimeout(state.timer);
    state.timer = clock.setTimeout(() => {
      state.stalled = true;
      controller.abort(new StallError(ms));
    }, ms);
  };
  arm();
  return {
    signal: controller.signal,
    poke: arm,
    stop() {
      state.stopped = true;
      clock.clearTimeout(state.timer);
    },
    get stalled() {
      return state.stalled;
    },
  };
}

/**
 * `promise`, or a StallError once `ms` pass before it settles (for waits that carry no
 * bytes to count, such as a manifest's headers).
 */
export function within(promise, ms, clock = globalThis) {
  let timer;
  const stall = new Promise((_, reject) => {
    timer = clock.setTimeout(() => reject(new StallError(ms)), ms);
  });
  return Promise.race([promise, stall]).finally(() => clock.clearTimeout(timer));
}

/**
 * A counter of runs: `next()` starts a run and returns its ticket; `isLatest(ticket)`
 * says whether it is still the newest, which every change of what the reader sees
 * checks first.
 */
export function runCounter() {
  let latest = 0;
  return {
    next: () => (latest += 1),
    isLatest: (ticket) => ticket === latest,
  };
}

/** Characters that show nothing: zero-width and format characters, controls, spaces. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}\s\u115F\u1160\u3164\uFFA0]/gu;
/** The markers the model adds itself; typed, they are tokens a reader did not write. */
const MARKERS = /\[(?:CLS|SEP)\]/g;

/**
 * Whether `text` holds something a reader can see once the model's own markers are
 * set aside: false for "", spaces, zero-width spaces, control characters and the literal
 * text "[CLS] [SEP]".
 * @param {string} text
 */
export function hasVisibleText(text) {
  if (typeof text !== "string") return false;
  return text.replace(MARKERS, "").replace(INVISIBLE, "") !== "";
}

/** Whether any of `tokens` is one a reader wrote: not a marker that "Hide [CLS] and [SEP]" takes out. */
export function hasWordToken(tokens) {
  return tokens.some((t) => !SPECIAL_TOKENS.includes(t));
}

/** The sentence refused because nothing of it reaches the model as a word. */
export const NO_WORDS =
  "Your sentence holds no word the model can read: only spaces, invisible characters or the markers [CLS] and [SEP]. Type a few words.";

/**
 * The category of a failure, for the reader's words: the sentence itself (`empty`,
 * `too-long`, `no-words`), `offline` (no connection, or a download that stopped),
 * `server` (the site answered with an error), `damaged` (a file cut short, altered or
 * unreadable), `storage` (the browser refused to keep or read a file) or `internal`.
 * @param {{kind?: string}} err
 */
export function failureCategory(err) {
  switch (err?.kind) {
    case "empty":
    case "too-long":
    case "no-words":
      return "sentence";
    case "network":
    case "stalled":
    case "offline":
      return "offline";
    case "missing":
    case "server":
      return "server";
    case "short":
    case "corrupt":
    case "damaged":
      return "damaged";
    case "storage":
      return "storage";
    default:
      return "internal";
  }
}

/** What the reader reads for each kind of failure but the sentence's own ({f}: the file). */
const SAY = {
  offline: "the connection to the site was lost{f}. Check the connection, then try again.",
  network: "the connection to the site broke while loading one of its files{f}. Check the connection, then try again.",
  stalled: "the download stopped: nothing arrived for {s} s{f}. Check the connection, then try again.",
  server: "the site has no copy of one of its files{f}{status}. Try again in a moment.",
  short: "one of its files was cut short on the way{f}. Try again: it is downloaded afresh.",
  damaged: "one of its files arrived damaged{f}. Try again: it is downloaded afresh.",
  storage: "this browser refused to store or read its files. Try again, or allow this site to store data.",
  internal: "it stopped with an error in this browser. Try again, or reload the page.",
};

/** A file's name as the reader may see it: its last part, never an address. */
const fileOf = (file) => (typeof file === "string" && file ? file.split(/[?#]/)[0].split("/").pop() : "");

/**
 * The sentence a reader sees for a failure of the own-sentence form: never a URL, a
 * stack trace or an exception's name (tests/js/fault.test.js lists every one).
 * @param {{kind?: string, message?: string, file?: string, status?: number, ms?: number}} err
 */
export function readerMessage(err) {
  const category = failureCategory(err);
  if (category === "sentence") return err.message;
  const kind = err?.kind;
  const key = kind === "network" || kind === "stalled" || kind === "short" ? kind : category;
  const file = fileOf(err?.file);
  const text = SAY[key]
    .replace("{s}", String(Math.round((err?.ms ?? STALL_MS) / 1000)))
    .replace("{f}", file ? ` (${file})` : "")
    .replace("{status}", Number.isInteger(err?.status) ? `: it answered HTTP ${err.status}` : "");
  const run = category === "internal" ? "could not run" : "could not be loaded";
  return `The model ${run}: ${text} The two sentences above still work.`;
}
