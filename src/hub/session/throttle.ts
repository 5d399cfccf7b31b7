// The sign-in throttle: every attempt counts against its email and against the client's address,
// in the same fixed-window counter /v1 uses for its rate limits (memory, PostgreSQL or Redis as
// configured), so processes that share a store share the count. Attempts are counted before the
// password is checked: a right guess past the limit must fail like a wrong one, or the limit
// would not slow down a guesser at all.
import { createHash } from 'node:crypto';
import { ApiError } from '../../domain/errors.js';
import { SIGN_INS_PER_ADDRESS_PER_MINUTE, SIGN_INS_PER_EMAIL_PER_MINUTE } from '../../domain/hub.js';
import type { WindowCounter } from '../../limits/window-counter.js';

/** The counter's keys: the email only as a hash (the counter table is not a place for addresses people own). */
export function signInKeys(email: string, address: string): { email: string; address: string } {
  const h = createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22);
  return { email: `hs:e:${h}`, address: `hs:a:${address}` };
}

/** Counts one attempt; past either limit, 429 too_many_sign_ins with Retry-After (seconds to the next window). */
export async function countSignIn(counter: WindowCounter, email: string, address: string): Promise<void> {
  const keys = signInKeys(email, address);
  const [byEmail, byAddress] = await Promise.all([counter.hit(keys.email), counter.hit(keys.address)]);
  const over =
    byEmail.count > SIGN_INS_PER_EMAIL_PER_MINUTE
      ? { hit: byEmail, what: `for this email (at most ${SIGN_INS_PER_EMAIL_PER_MINUTE} a minute)` }
      : byAddress.count > SIGN_INS_PER_ADDRESS_PER_MINUTE
        ? { hit: byAddress, what: `from this address (at most ${SIGN_INS_PER_ADDRESS_PER_MINUTE} a minute)` }
        : null;
  if (!over) return;
  const seconds = Math.max(1, Math.ceil(over.hit.resetMs / 1000));
  throw new ApiError('too_many_sign_ins', `Too many sign-in attempts ${over.what}. Wait ${seconds} seconds and try again.`, {
    headers: { 'retry-after': String(seconds) },
  });
}
