// The longest email address, apart from the checks in email.ts (which need node:url): the pure
// schema modules state it in their documents, and the web app typechecks those without Node.

/** Longest address the API stores (RFC 5321 caps a path at 256; 320 is the usual generous bound). */
export const EMAIL_MAX_LENGTH = 320;
