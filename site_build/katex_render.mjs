// Render TeX formulas to HTML with KaTeX (npm), for site_build/katex_render.py.
//
// stdin:  {"options": {...KaTeX options...}, "formulas": [{"tex": "...", "display": true}, ...]}
// stdout: [{"html": "..."} | {"error": "..."}, ...], one entry per formula, in order.
//
// Every formula is tried, so one run reports every broken formula at once; the
// exit status is 0 whenever the output was written (errors are in the entries).
import katex from "katex";

const chunks = [];
for await (const chunk of process.stdin) {
  chunks.push(chunk);
}
const { options, formulas } = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const results = formulas.map(({ tex, display }) => {
  try {
    return { html: katex.renderToString(tex, { ...options, displayMode: display }) };
  } catch (error) {
    // A ParseError's rawMessage has no underlined excerpt; its position counts from 0.
    if (error instanceof katex.ParseError) {
      const where = error.position === undefined ? "" : ` at character ${error.position + 1}`;
      return { error: `${error.rawMessage}${where}` };
    }
    return { error: error instanceof Error ? error.message : String(error) };
  }
});
process.stdout.write(JSON.stringify(results));
