// The sentence checks of docs/javascripts/lib/minilm-tokenize.js (the tokenizer itself is
// compared with Python's on a corpus by tests/test_minilm_tokenizer.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  SentenceError, TOKEN_LIMIT, encodeSentence, makeTokenizer,
} from "../../docs/javascripts/lib/minilm-tokenize.js";

// A stand-in tokenizer: one token per word between [CLS] and [SEP], id = word length.
const fake = {
  encode(text) {
    const words = text.trim().split(/\s+/);
    return { tokens: ["[CLS]", ...words, "[SEP]"], ids: [101, ...words.map((w) => w.length), 102] };
  },
};

test("a sentence comes back as tokens and ids, [CLS] and [SEP] around it", () => {
  assert.deepEqual(encodeSentence(fake, "it was tired"), {
    tokens: ["[CLS]", "it", "was", "tired", "[SEP]"],
    ids: [101, 2, 3, 5, 102],
  });
});

test("an empty or blank field is refused before any tokenizing", () => {
  for (const text of ["", "   ", "\n\t"]) {
    assert.throws(() => encodeSentence(fake, text), (e) => e instanceof SentenceError && e.kind === "empty");
  }
});

test("over the limit: the count and the limit in the message, nothing truncated", () => {
  const text = Array.from({ length: TOKEN_LIMIT - 1 }, (_, i) => `w${i}`).join(" "); // 65 tokens
  assert.throws(
    () => encodeSentence(fake, text),
    (e) => e.kind === "too-long" && e.count === 65 && e.limit === 64 &&
      /gives 65 tokens .* at most 64\. Shorten it by 1\./.test(e.message),
  );
  assert.equal(encodeSentence(fake, text.replace(/ w62$/, "")).tokens.length, 64);
});

test("only a WordPiece tokenizer.json is accepted", () => {
  class T { constructor(json) { this.json = json; } }
  assert.ok(makeTokenizer(T, { model: { type: "WordPiece" } }) instanceof T);
  assert.throws(() => makeTokenizer(T, { model: { type: "BPE" } }), /expected a WordPiece model, got BPE/);
});
