// Departures from the spec that are being fixed on other branches (issue 10). The fuzzer still
// sends these inputs and checks every general rule on their answers (no 5xx, a documented status,
// a catalogue code, a request id); only the one expectation named here is not enforced while the
// name is listed. The list only shrinks: once a fix is merged, its name comes out, and the fuzz
// files fail while a listed name's expectation is met by every request that tested it.
export const PENDING_FIX_NAMES = [
  /** A query string with malformed percent-encoding (%zz, %E0%A4, an encoded lone surrogate) → 400 invalid_parameter. */
  'query-malformed-percent-encoding',
  /** A JSON body with a key twice → 400 invalid_json. */
  'json-duplicate-keys',
  /** Content-Type: application/json with a charset other than UTF-8 → 415 unsupported_media_type. */
  'json-charset-not-utf8',
  /** Fullwidth or bidi characters in an email, C0/C1 controls in a single-line field → 422 invalid_field. */
  'single-line-text-controls',
  /** The document marks Idempotency-Key required where the server requires it (startRun, enrollContacts). */
  'openapi-idempotency-key-required',
  /** The document marks startRun's body optional (nothing or {} is the spec's input). */
  'openapi-startrun-body-optional',
] as const;

export type PendingFix = (typeof PENDING_FIX_NAMES)[number];

/** Expectations not enforced yet. The lead empties this after merging the fixes. */
/** Expectations not enforced yet: none, every departure above is fixed (issue 10). */
export const PENDING_FIXES: ReadonlySet<PendingFix> = new Set<PendingFix>([]);
