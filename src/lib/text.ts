// Text the stores can hold. PostgreSQL's text and jsonb cannot hold U+0000, and an unpaired
// surrogate is not text at all (it would be stored silently replaced by U+FFFD). The API refuses
// both in every field and parameter (src/http/validation.ts); the fixture loader does the same.

export const UNSTORABLE_TEXT = 'must not contain a NUL character (U+0000) or an unpaired surrogate';

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when s holds something no store can keep as it is. */
export const isUnstorableText = (s: string): boolean => s.includes('\u0000') || UNPAIRED_SURROGATE.test(s);

/** A key or value quoted safely in a message or a JSON pointer (the bad characters as `?`). */
export const printable = (s: string): string => s.replace(/[\u0000\ud800-\udfff]/g, '?');
