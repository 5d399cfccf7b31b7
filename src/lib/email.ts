// Email addresses, in one place: what an address may contain (the API, the webhook trigger, the
// fixture loader and the hub all ask checkEmail), and the normalised form that uniqueness (the
// contacts_email index), the `email` list filter and erasure HMACs compare, so every writer must
// derive it the same way.
//
// The rule, after surrounding blanks are dropped:
//   - at most 320 characters, `local@domain` with exactly one @;
//   - nothing invisible or look-alike anywhere: no blank, no control, format (every bidi control,
//     zero-width characters, soft hyphen), private-use or unassigned character (Unicode \p{C}),
//     and nothing Unicode NFKC would change (fullwidth ＡＮＮ, ligatures, decomposed accents);
//   - the local part is a dot-atom (RFC 5322; RFC 6531 also allows non-ASCII letters): letters,
//     digits and ! # $ % & ' * + - / = ? ^ _ ` { | } ~, dots neither first, last nor doubled
//     (no quoted forms), at most 64 bytes;
//   - the domain has at least two labels; an internationalised domain (bücher.example) is taken
//     when IDNA (UTS #46, url.domainToASCII) converts it, and its ASCII form (xn--bcher-kva.example)
//     must be letters, digits and hyphens, labels of 1 to 63 (no hyphen first or last), at most 253,
//     the last label not all digits (no bare IP address).
// The address is stored as given (trimmed, case kept). It is compared lower-cased, with its domain
// in IDNA's Unicode form, so BÜCHER.example, bücher.example and xn--bcher-kva.example are one domain.
import { domainToASCII, domainToUnicode } from 'node:url';
import { EMAIL_MAX_LENGTH } from './email-length.js';

export { EMAIL_MAX_LENGTH };
const LOCAL_MAX_BYTES = 64;
const DOMAIN_MAX_LENGTH = 253;

const INVISIBLE_OR_BLANK = /[\p{C}\p{Z}\s]/u;
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u0080-\u{10ffff}-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u0080-\u{10ffff}-]+)*$/u;
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export type EmailCheck = { ok: true; email: string; normalized: string } | { ok: false; problem: string };

/** The domain as compared: IDNA's Unicode form when IDNA takes it, else just lower-cased. */
function canonicalDomain(domain: string): string {
  const ascii = domainToASCII(domain);
  return ascii ? domainToUnicode(ascii) : domain.toLowerCase();
}

/** The comparison form: surrounding blanks dropped, lower case, the domain in IDNA's Unicode form. Total: any string has one. */
export function normaliseEmail(email: string): string {
  const t = email.trim();
  const at = t.lastIndexOf('@');
  if (at < 0) return t.toLowerCase();
  return `${t.slice(0, at).toLowerCase()}@${canonicalDomain(t.slice(at + 1))}`;
}

/** Why raw is not an address under the rule above (a phrase to follow "is not an email address: "), or the address as stored and its normalised form. */
export function checkEmail(raw: string): EmailCheck {
  const email = raw.trim();
  const no = (problem: string): EmailCheck => ({ ok: false, problem });
  if (email.length === 0) return no('it is empty');
  if (email.length > EMAIL_MAX_LENGTH) return no(`it is longer than ${EMAIL_MAX_LENGTH} characters`);
  if (INVISIBLE_OR_BLANK.test(email)) return no('it contains a blank, control, format (such as a bidi control) or unassigned character');
  if (email.normalize('NFKC') !== email) return no('it contains characters Unicode NFKC changes (such as fullwidth letters)');
  const [local = '', domain, ...more] = email.split('@');
  if (domain === undefined || more.length) return no('it must have exactly one @');
  if (!DOT_ATOM.test(local)) return no('the part before the @ is not a valid local part (letters, digits, ! # $ % & \' * + - / = ? ^ _ ` { | } ~ and single dots between them)');
  if (Buffer.byteLength(local) > LOCAL_MAX_BYTES) return no(`the part before the @ is longer than ${LOCAL_MAX_BYTES} bytes`);
  const ascii = domainToASCII(domain);
  const labels = ascii.split('.');
  if (!ascii || ascii.length > DOMAIN_MAX_LENGTH || labels.length < 2 || !labels.every((l) => LDH_LABEL.test(l)) || /^\d+$/.test(labels.at(-1) ?? '')) {
    return no('the part after the @ is not a domain name such as example.org');
  }
  return { ok: true, email, normalized: `${local.toLowerCase()}@${domainToUnicode(ascii)}` };
}

/** The address as stored and shown (trimmed, case kept) and its normalised form; null when it is not an address. */
export function parseEmail(raw: string): { email: string; normalized: string } | null {
  const c = checkEmail(raw);
  return c.ok ? { email: c.email, normalized: c.normalized } : null;
}
