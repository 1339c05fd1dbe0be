// The reader's sentence as all-MiniLM-L6-v2's tokens: the model's own tokenizer.json,
// read by @huggingface/tokenizers (vendored under vendor/tokenizers/, nothing from another
// host). No DOM and no import of the library here: the caller passes its Tokenizer class,
// so node's tests and the browser's worker share this file.
//
// The Python side is attention_ref.minilm's MiniLM.tokenize (no padding, no truncation);
// tests/test_minilm_tokenizer.py runs both on a corpus and requires the same tokens and ids.

/** The widget's limit in tokens, [CLS] and [SEP] included (the model allows 512). */
export const TOKEN_LIMIT = 64;

/** The error a reader sees, with what was wrong; `kind` lets the widget choose its words. */
export class SentenceError extends Error {
  constructor(kind, message, details = {}) {
    super(message);
    this.name = "SentenceError";
    this.kind = kind;
    Object.assign(this, details);
  }
}

/**
 * A tokenizer from the parsed tokenizer.json.
 * @param {Function} TokenizerClass  @huggingface/tokenizers' Tokenizer
 * @param {object} tokenizerJson     the parsed file (padding and truncation off)
 */
export function makeTokenizer(TokenizerClass, tokenizerJson) {
  if (tokenizerJson?.model?.type !== "WordPiece") {
    throw new Error(`tokenizer.json: expected a WordPiece model, got ${tokenizerJson?.model?.type}`);
  }
  return new TokenizerClass(tokenizerJson, {});
}

/**
 * Tokens and ids of `text`, [CLS] first and [SEP] last; refuses empty text and text
 * over `limit` tokens (never truncates).
 * @returns {{tokens: string[], ids: number[]}}
 */
export function encodeSentence(tokenizer, text, limit = TOKEN_LIMIT) {
  if (typeof text !== "string" || text.trim() === "") {
    throw new SentenceError("empty", "Type a sentence first: the field is empty.");
  }
  const { tokens, ids } = tokenizer.encode(text);
  if (tokens.length > limit) {
    throw new SentenceError(
      "too-long",
      `Your sentence gives ${tokens.length} tokens (with [CLS] and [SEP]); ` +
        `this widget shows at most ${limit}. Shorten it by ${tokens.length - limit}.`,
      { count: tokens.length, limit },
    );
  }
  return { tokens: [...tokens], ids: [...ids] };
}
