// The sign-in throttle. It must stop guessing without letting anyone lock a known user out
// (OWASP Authentication Cheat Sheet, "Login Throttling" / "Account Lockout": a lockout must not
// become a denial of service; ASVS 2.2.1 names "ever increasing delays" among the soft controls):
//   - per email AND address: past SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS a minute, that address
//     is refused for that email (429), whatever the password: one guesser is stopped, and only
//     the address that failed is held back;
//   - per address: past SIGN_IN_FAILURES_PER_ADDRESS a minute, any email (password spraying);
//   - per email, across addresses: never refused. Past SIGN_IN_FAILURES_PER_EMAIL_BEFORE_DELAY a
//     minute (many addresses failing for one email: distributed guessing), every attempt for it
//     is held for a delay that doubles as failures mount (1 s up to 10 s) before its password is
//     checked, the right password included, which then signs in. Chosen over a one-time unlock
//     link because it needs no mail (the hub may have no transport) and nothing for the real user
//     to do, and refuses no one.
// Failures are what count: an attempt is counted when it arrives (so parallel attempts cannot
// all slip under a limit while the first are being checked) and a right password takes its own
// attempt back. A success offsets the address and email counts once per email and address a
// minute, so signing in with one's own account buys no guesses at others. IPv6 addresses count
// by their /64 (one host usually holds the whole prefix). The counts live in the failed-auth
// window counter /v1 uses (memory, PostgreSQL or Redis), shared by the processes on one store.
import { createHash } from 'node:crypto';
import net from 'node:net';
import { ApiError } from '../../domain/errors.js';
import {
  SIGN_IN_DELAY_MAX_MS,
  SIGN_IN_DELAY_MIN_MS,
  SIGN_IN_FAILURES_PER_ADDRESS,
  SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS,
  SIGN_IN_FAILURES_PER_EMAIL_BEFORE_DELAY,
  SIGN_IN_FAILURES_PER_DELAY_DOUBLING,
} from '../../domain/hub.js';
import type { Hit, PeekableCounter } from '../../limits/window-counter.js';

/** Where an address counts: IPv4 (mapped or not) as is, IPv6 by its /64. */
export function addressBucket(address: string): string {
  const a = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (!net.isIPv6(a)) return a;
  const [head, tail = ''] = a.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = a.includes('::') && tail ? tail.split(':') : [];
  const groups = a.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** An email as a counter's key: only a hash (the counter table is no place for addresses people own). */
export function emailKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22);
}

/** The counter's keys. */
export function signInKeys(email: string, address: string) {
  const e = emailKey(email);
  const a = addressBucket(address);
  return {
    pairTries: `hs:pt:${e}:${a}`,
    pairWins: `hs:pw:${e}:${a}`,
    addressTries: `hs:at:${a}`,
    addressWins: `hs:aw:${a}`,
    emailTries: `hs:et:${e}`,
    emailWins: `hs:ew:${e}`,
  };
}

/** How long an attempt for an email with this many failures this minute is held (0: not at all). */
export function signInDelayMs(emailFailures: number): number {
  if (emailFailures <= SIGN_IN_FAILURES_PER_EMAIL_BEFORE_DELAY) return 0;
  const doublings = Math.floor((emailFailures - SIGN_IN_FAILURES_PER_EMAIL_BEFORE_DELAY - 1) / SIGN_IN_FAILURES_PER_DELAY_DOUBLING);
  return Math.min(SIGN_IN_DELAY_MAX_MS, SIGN_IN_DELAY_MIN_MS * 2 ** Math.min(doublings, 16));
}

function refuse(hit: Hit, what: string): ApiError {
  const seconds = Math.max(1, Math.ceil(hit.resetMs / 1000));
  return new ApiError('too_many_sign_ins', `${what} Wait ${seconds} seconds and try again.`, { headers: { 'retry-after': String(seconds) } });
}

export interface SignInAdmission {
  /** Hold the attempt this long before checking its password (distributed guessing at its email). */
  delayMs: number;
  /** Failures for the email this minute, across addresses, this attempt included. */
  emailFailures: number;
  /** After a right password: takes this attempt back from the counts. */
  succeeded(): Promise<void>;
}

/**
 * Counts an attempt before its password is checked. Refuses it (429 too_many_sign_ins, Retry-After)
 * when its email and address, or its address, are past their limits (onLimit hears of the first
 * refusal of a window, for the log); otherwise says how long to hold it. A wrong password needs
 * nothing more: the attempt stays counted as a failure.
 */
export async function admitSignIn(
  counter: PeekableCounter,
  email: string,
  address: string,
  onLimit: (limit: 'email_and_address' | 'address') => void = () => {},
): Promise<SignInAdmission> {
  const k = signInKeys(email, address);
  const [pairTries, pairWins] = await Promise.all([counter.hit(k.pairTries), counter.peek(k.pairWins)]);
  const pairFailures = pairTries.count - pairWins.count;
  if (pairFailures > SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS) {
    // Told once a window (the attempt that first goes past), not once per refused attempt.
    if (pairFailures === SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS + 1) onLimit('email_and_address');
    throw refuse(pairTries, 'Too many wrong passwords for this email from this address.');
  }
  // Only attempts past that gate count on: one address hammering one email moves nothing else.
  const [addressTries, addressWins, emailTries, emailWins] = await Promise.all([
    counter.hit(k.addressTries),
    counter.peek(k.addressWins),
    counter.hit(k.emailTries),
    counter.peek(k.emailWins),
  ]);
  const addressFailures = addressTries.count - addressWins.count;
  if (addressFailures > SIGN_IN_FAILURES_PER_ADDRESS) {
    if (addressFailures === SIGN_IN_FAILURES_PER_ADDRESS + 1) onLimit('address');
    throw refuse(addressTries, 'Too many failed sign-ins from this address.');
  }
  const emailFailures = Math.max(0, emailTries.count - emailWins.count);
  return {
    delayMs: signInDelayMs(emailFailures),
    emailFailures,
    async succeeded() {
      // The first success of this email from this address this minute offsets the wider counts.
      if ((await counter.hit(k.pairWins)).count === 1) await Promise.all([counter.hit(k.addressWins), counter.hit(k.emailWins)]);
    },
  };
}
