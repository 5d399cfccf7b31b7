// What text the API, the fixture loader and the hub accept, in one place.
//
// Every string: storable. PostgreSQL's text and jsonb cannot hold U+0000, and an unpaired
// surrogate is not text at all (it would be stored silently replaced by U+FFFD).
// On top of that every string field is one of two kinds:
//   - single-line (names, titles, tags, phone, labels…): no control character at all, so no
//     C0 (U+0000–U+001F, tab and line breaks included), DEL (U+007F), C1 (U+0080–U+009F), nor
//     the Unicode line and paragraph separators (U+2028, U+2029);
//   - multi-line (descriptions, Markdown, HTML, bodies, free-form configs): the same, except that
//     tab, line feed and carriage return stay allowed.
// The API applies them in src/http/validation.ts (multi-line for every body string, single-line
// where a schema says `format: single-line`); the fixture loader through src/lib/json-fields.ts.

export type TextKind = 'single-line' | 'multi-line';

export const UNSTORABLE_TEXT = 'must not contain a NUL character (U+0000) or an unpaired surrogate';
export const SINGLE_LINE_TEXT = 'must be one line of text, without control characters (U+0000–U+001F, U+007F–U+009F) or line separators';
export const MULTI_LINE_TEXT = 'must not contain control characters (U+0000–U+001F, U+007F–U+009F) other than tab, line feed and carriage return';

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NOT_IN_A_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const NOT_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** True when s holds something no store can keep as it is. */
export const isUnstorableText = (s: string): boolean => s.includes('\u0000') || UNPAIRED_SURROGATE.test(s);

/** The rule s breaks as a field of this kind (a message to follow the field's name), or null when it is acceptable. */
export function textProblem(s: string, kind: TextKind): string | null {
  if (isUnstorableText(s)) return UNSTORABLE_TEXT;
  if (kind === 'single-line') return NOT_IN_A_LINE.test(s) ? SINGLE_LINE_TEXT : null;
  return NOT_IN_TEXT.test(s) ? MULTI_LINE_TEXT : null;
}

/** A key or value quoted safely in a message or a JSON pointer (the bad characters as `?`). */
export const printable = (s: string): string => s.replace(/[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/g, '?');

/**
 * Multi-line text made safe for a terminal: every control character but tab and line feed as `?`,
 * so text a run fetched or a model wrote cannot move the cursor, recolour or retitle the
 * operator's terminal (ANSI escapes start with U+001B).
 */
export const terminalText = (s: string): string => s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ud800-\udfff]/g, '?');
