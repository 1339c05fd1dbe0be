// Entry of the practice editor bundle (built by site_build/bundles.py with esbuild
// from the npm CodeMirror 6 packages; never shipped as is). A lean set-up: line numbers,
// wrapped lines (no sideways scrolling on a phone), Python highlighting in Material's code colours (light and dark), history, bracket
// matching, auto-indent, Tab to indent. Tab focus mode is CodeMirror's own: press
// Escape, then Tab within two seconds, to move focus out of the editor.
import { EditorState } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  HighlightStyle,
  bracketMatching,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { pythonLanguage } from "@codemirror/lang-python";
import { tags as t } from "@lezer/highlight";

// Colours come from Material's CSS variables, so the palette switch needs no JS.
const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword], color: "var(--md-code-hl-keyword-color)" },
  { tag: [t.string, t.special(t.string)], color: "var(--md-code-hl-string-color)" },
  { tag: [t.number, t.bool, t.null], color: "var(--md-code-hl-number-color)" },
  { tag: [t.comment, t.lineComment], color: "var(--md-code-hl-comment-color)", fontStyle: "italic" },
  { tag: [t.function(t.variableName), t.function(t.definition(t.variableName))], color: "var(--md-code-hl-function-color)" },
  { tag: [t.operator, t.compareOperator, t.arithmeticOperator], color: "var(--md-code-hl-operator-color)" },
  { tag: [t.className, t.definition(t.className)], color: "var(--md-code-hl-constant-color)" },
  { tag: [t.punctuation, t.bracket], color: "var(--md-code-hl-punctuation-color)" },
  { tag: t.self, color: "var(--md-code-hl-keyword-color)" },
]);

const theme = EditorView.theme({
  "&": { color: "var(--md-code-fg-color)", backgroundColor: "var(--md-code-bg-color)" },
  ".cm-content": { caretColor: "var(--md-code-fg-color)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--md-code-fg-color)" },
  ".cm-gutters": {
    backgroundColor: "var(--md-code-bg-color)",
    color: "var(--md-code-fg-color)",
    borderRight: "1px solid var(--md-default-fg-color--lightest)",
  },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": {
    backgroundColor: "var(--md-accent-fg-color--transparent)",
  },
  ".cm-error-line": { backgroundColor: "rgba(229, 57, 53, 0.16)" },
});

/**
 * Create an editor in `parent`.
 * @param {{parent: HTMLElement, doc: string, label: string, describedBy?: string,
 *          onChange?: (code: string) => void, onRun?: () => void}} options
 */
export function createEditor({ parent, doc, label, describedBy, onChange, onRun }) {
  const attrs = { "aria-label": label };
  if (describedBy) attrs["aria-describedby"] = describedBy;
  const runKeys = onRun
    ? [{ key: "Mod-Enter", preventDefault: true, run: () => (onRun(), true) }]
    : [];
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        highlightSpecialChars(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        EditorView.lineWrapping,
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        pythonLanguage,
        syntaxHighlighting(highlight),
        theme,
        keymap.of([...runKeys, indentWithTab, ...defaultKeymap, ...historyKeymap]),
        EditorView.contentAttributes.of(attrs),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && onChange) onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    view,
    getCode: () => view.state.doc.toString(),
    setCode(code) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: code } });
    },
    goToLine(n) {
      const line = view.state.doc.line(Math.max(1, Math.min(n, view.state.doc.lines)));
      view.dispatch({ selection: { anchor: line.from, head: line.to }, scrollIntoView: true });
      view.focus();
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
