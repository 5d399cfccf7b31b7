// Email addresses, in one place: the normalised form is what uniqueness (the contacts_email index),
// the `email` list filter and erasure HMACs compare, so every writer must derive it the same way.

/** Deliberately loose (one @, a dot in the domain, no spaces): the same rule the fixture loader applies. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Longest address the API stores (RFC 5321 caps a path at 256; 320 is the usual generous bound). */
export const EMAIL_MAX_LENGTH = 320;

/** The comparison form: surrounding blanks dropped, lower case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The address as stored and shown (trimmed, case kept) and its normalised form; null when it is not an address. */
export function parseEmail(raw: string): { email: string; normalized: string } | null {
  const email = raw.trim();
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_RE.test(email)) return null;
  return { email, normalized: normaliseEmail(email) };
}
