// "Try your own sentence": the field under lesson 1's heatmap and lesson 2's heads that
// runs all-MiniLM-L6-v2 on the reader's text, in the reader's browser (lib/minilm-client.js
// and its worker). Built in the widget pattern of lib/dom.js: ownSentence(id, onResult)
// returns the DOM and keeps its own state; the widget (heatmap-widget.js, heads-widget.js)
// shows what onResult receives. Both widgets share one model (sharedModel: one worker,
// one download) and one consent: agreeing to the download once, on either lesson, is
// enough for the page's whole visit.
//
// The flow: an empty field is refused at once (nothing loads); the first real sentence
// asks before downloading, with the size; a progress bar follows the bytes; a failure
// says what went wrong, with a retry, and the fixed sentences keep working; a second
// sentence submitted while one runs replaces it (only the latest result is shown).
//
// Failing well (issue 34): every change of the form (progress, bar, message) first checks
// that its run is still the latest, so the form always ends in a state that is true; a
// download that stops sending ends after a deadline (lib/fault.js; `?stall=MS` in the
// page's address shortens it for tests) in a message and a retry; a sentence with
// nothing a reader could see is refused before anything loads.
import { h } from "./dom.js";
import { leastSpecialHead } from "./head-roles.js";
import { TOKEN_LIMIT } from "./minilm-tokenize.js";
import { NO_WORDS, failureCategory, hasVisibleText, readerMessage, runCounter, stallMsOf } from "./fault.js";

/** One radio button of a widget's sentence picker: `before`, then `name` in bold. */
function sentenceRadio(group, value, before, name, attrs = {}) {
  const input = h("input", { type: "radio", name: group, value, ...attrs });
  return { input, label: h("label", { class: "widget__radio" }, input, before, h("strong", {}, name)) };
}

/**
 * The sentence picker of the heatmap and the heads widget: a radio button a fixed
 * sentence ("…too tired", "…too wide"), the first checked. The reader's sentence gets
 * its own button from ownSentenceRadio once it has run.
 * @param {string} id the widget's id (the buttons' group is `${id}-s`)
 * @param {{id: string}[]} sentences the fixed sentences, in order
 * @returns {HTMLFieldSetElement}
 */
export function sentencePicker(id, sentences) {
  const radios = sentences.map((s, i) => sentenceRadio(`${id}-s`, i, " …too ", s.id, { checked: i === 0 }).label);
  return h("fieldset", { class: "widget__sentences" }, h("legend", {}, "Sentence"), radios);
}

/**
 * Add the "your sentence" button to a picker of sentencePicker, for the sentence at
 * index `at`; `attrs` marks it for the widget (e.g. {"data-hm": "own"}).
 * @returns {HTMLInputElement} the button (the widget keeps it and checks it)
 */
export function ownSentenceRadio(picker, id, at, attrs) {
  const r = sentenceRadio(`${id}-s`, at, " ", "your sentence", attrs);
  picker.append(r.label);
  return r.input;
}

/** The weights the widget shows, and the bound the browser test holds them to. */
export const PRECISION_NOTE =
  "Computed in your browser from the model's weights stored as float16, with float32 arithmetic; " +
  "the site's tests hold every weight within 0.003 of the reference implementation.";

/**
 * The message for a failure (the worker's, the manifest's, or the page's own): the
 * reader's words of lib/fault.js, never the error's own text.
 */
export function failureMessage(err) {
  return readerMessage(err);
}

/**
 * One (layers, heads, n, n) nested array of the worker's per-layer Float32Arrays.
 * @param {Float32Array[]} attentions  one (heads * n * n) array per layer
 */
export function nestAttention(attentions, heads, n) {
  return attentions.map((flat) =>
    Array.from({ length: heads }, (_, hd) =>
      Array.from({ length: n }, (_, q) => Array.from(flat.subarray((hd * n + q) * n, (hd * n + q + 1) * n))),
    ),
  );
}

/** Whether the reader agreed to the download (once for every widget of the visit). */
const consent = { given: false };

/**
 * The form and its messages.
 * @param {string} id                    a page-unique prefix; also the widget's channel
 *        of the shared model, so that two widgets never receive each other's results
 * @param {(entry: object) => string} onResult  called with {id, label, text, tokens,
 *        attention (layers, heads, n, n) in [0, 1], scale: 1, pick: {layer, head, special}};
 *        returns the sentence saying what the widget now shows (for the message)
 * @param {object} [deps]                stand-ins for tests: {client}
 */
export function ownSentence(id, onResult, deps = {}) {
  const state = { lastText: null, model: null, imports: 0 };
  const runs = runCounter();
  const stallMs = stallMsOf(globalThis.location?.search);
  // A failed import is not retried by the browser under the same address: a retry asks
  // again under a fresh one (the module was never loaded, so nothing is loaded twice).
  const loadClient = () => {
    if (deps.client) return Promise.resolve(deps.client);
    const url = state.imports ? `./minilm-client.js?attempt=${state.imports}` : "./minilm-client.js";
    return import(url).catch((err) => {
      state.imports += 1;
      throw Object.assign(new Error(`could not import the model's module (${err.message})`), { kind: "offline" });
    });
  };
  const ui = {
    input: h("input", {
      type: "text",
      id: `${id}-own`,
      name: "sentence",
      autocomplete: "off",
      spellcheck: "false",
      "aria-describedby": `${id}-own-note`,
      placeholder: "e.g. The trophy didn't fit in the suitcase because it was too big.",
    }),
    submit: h("button", { type: "submit", class: "own__button own__button--submit" }, "Run the model"),
    note: h(
      "p",
      { class: "own__note", id: `${id}-own-note` },
      `Up to ${TOKEN_LIMIT} tokens. It runs on your device: your sentence never leaves this page.`,
    ),
    message: h("p", { class: "own__message", "aria-live": "polite", "data-own": "message" }),
    actions: h("p", { class: "own__actions", "data-own": "actions" }),
    progress: h("progress", { class: "own__progress", max: "1", value: "0", hidden: true, "aria-label": "Model download" }),
  };
  ui.form = h(
    "form",
    { class: "own", "data-own": "form", novalidate: true },
    h("label", { for: `${id}-own`, class: "own__label" }, "Try your own sentence"),
    h("div", { class: "own__row" }, ui.input, ui.submit),
    ui.note,
    ui.progress,
    ui.message,
    ui.actions,
  );
  const say = (text, ...buttons) => {
    ui.message.textContent = text;
    ui.actions.replaceChildren(...buttons.filter((b) => b instanceof Node));
  };
  const button = (label, onClick, attrs = {}) => {
    const b = h("button", { type: "button", class: "own__button", ...attrs }, label);
    b.addEventListener("click", onClick);
    return b;
  };
  const setState = (s) => {
    ui.form.dataset.ownState = s;
  };
  setState("idle");

  async function start(text) {
    state.lastText = text;
    const ticket = runs.next();
    const latest = () => runs.isLatest(ticket);
    ui.progress.hidden = true;
    ui.form.dataset.ownError = "";
    if (typeof text !== "string" || text.trim() === "") {
      setState("error");
      say("Type a sentence first: the field is empty.");
      return;
    }
    if (!hasVisibleText(text)) {
      setState("error");
      ui.form.dataset.ownError = "no-words";
      say(NO_WORDS);
      return;
    }
    let client;
    setState("starting");
    say("");
    try {
      client = await loadClient();
      if (!latest()) return;
      if (!consent.given) {
        setState("sizing");
        say("Finding out how much the model weighs…");
        const use = await client.firstUse(client.MANIFEST_URL, stallMs);
        if (!latest()) return;
        if (!use.cached) {
          setState("asking");
          const size = client.formatBytes(use.left);
          const kept = use.storage
            ? use.left < use.bytes
              ? `${client.formatBytes(use.bytes - use.left)} of it are in your browser already, from an earlier try; the rest downloads once, then your browser keeps it.`
              : "It downloads once, then your browser keeps it."
            : "This browser does not let the site keep it, so it downloads again on your next visit.";
          say(
            `This runs all-MiniLM-L6-v2 in your browser. ${kept}`,
            button(use.storage ? `Load the model: ${size}, once` : `Load the model: ${size}`, () => {
              consent.given = true;
              start(state.lastText);
            }, { "data-own": "consent" }),
          );
          return;
        }
        consent.given = true;
      }
      state.model ??= client.sharedModel(stallMs);
      setState("running");
      say("Running the model…");
      ui.progress.hidden = false;
      ui.progress.value = 0;
      const result = await state.model.run(
        text,
        (loaded, total) => {
          if (!latest()) return; // a newer submit owns the form now
          ui.progress.max = Math.max(total, 1);
          ui.progress.value = loaded;
          say(`Loading the model: ${client.formatBytes(loaded)} of ${client.formatBytes(total)}`);
        },
        id,
      );
      if (result === null || !latest()) return; // overtaken by a newer sentence
      ui.progress.hidden = true;
      const n = result.tokens.length;
      const attention = nestAttention(result.attentions, result.attentions[0].length / (n * n), n);
      const pick = leastSpecialHead(attention, result.tokens);
      const shown = onResult({ id: "own", label: "your sentence", text, tokens: result.tokens, attention, scale: 1, pick });
      setState("done");
      say(`Your sentence gives ${n} tokens. ${shown} ${PRECISION_NOTE}`);
    } catch (err) {
      if (!latest()) return;
      ui.progress.hidden = true;
      setState("error");
      ui.form.dataset.ownError = err.kind ?? "internal";
      if (failureCategory(err) === "internal") console.warn("own sentence:", err); // for developers; readers get words
      const sentence = failureCategory(err) === "sentence";
      say(failureMessage(err), sentence ? null : button("Try again", () => start(state.lastText), { "data-own": "retry" }));
    }
  }

  ui.form.addEventListener("submit", (e) => {
    e.preventDefault();
    start(ui.input.value);
  });
  return ui.form;
}
