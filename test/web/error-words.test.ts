// The words a refusal is shown in (web/src/lib/error-words.ts): every code of both catalogues has
// them, so a code added to src/domain/errors.ts without words fails here before it reaches a
// screen as raw text; the special cases read as the issue asks.
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, HUB_ERROR_CATALOGUE } from '../../src/domain/errors';
import { BILLED_FEATURES } from '../../src/domain/billing';
import { ERROR_WORDS, errorWords, fieldError, fieldWords, waitWords, type Refusal } from '../../web/src/lib/error-words';
import { FEATURE_WORDS, featureName } from '../../web/src/lib/features';
import { HubError } from '../../web/src/lib/api';
import { dollars, centsOrDollars } from '../../web/src/lib/money';

const CODES = [...Object.keys(ERROR_CATALOGUE), ...Object.keys(HUB_ERROR_CATALOGUE)];
const refusal = (code: string, more: Partial<Refusal> = {}): Refusal => ({ status: 400, code, message: 'the server said so', ...more });

describe('error words', () => {
  it.each(CODES)('%s has words of its own, not the code', (code) => {
    expect(Object.keys(ERROR_WORDS)).toContain(code);
    const w = errorWords(refusal(code, { param: 'email' }));
    expect(w.message.length).toBeGreaterThan(5);
    expect(w.message).not.toContain(code);
    expect(w.next?.text ?? '').not.toContain(code);
  });

  it('has no words for a code outside the catalogues (none left over)', () => {
    expect(Object.keys(ERROR_WORDS).filter((c) => !CODES.includes(c))).toEqual([]);
  });

  it('a code nobody wrote words for keeps the server\'s message, with its details', () => {
    expect(errorWords(refusal('brand_new_code', { message: 'Something new happened.' }))).toEqual({ message: 'Something new happened.', next: undefined, details: true });
  });

  it('a duplicate contact links to the one that exists', () => {
    const w = errorWords(refusal('contact_exists', { status: 409, resourceId: '0190a0a0-0000-7000-8000-000000000001' }));
    expect(w.message).toBe('A contact with this email already exists.');
    expect(w.next).toEqual({ text: 'Open that contact', to: '/contacts/0190a0a0-0000-7000-8000-000000000001' });
    expect(errorWords(refusal('contact_exists')).next?.to).toBe('/contacts');
  });

  it('a user who exists points to Users', () => {
    expect(errorWords(refusal('user_exists')).next?.to).toBe('/users');
  });

  it('a wrong password says so, with nothing to quote', () => {
    expect(errorWords(refusal('sign_in_failed', { status: 401 }))).toEqual({ message: 'Wrong email or password.', next: undefined, details: false });
  });

  it('a rate limit says when to try again from Retry-After, or in general without it', () => {
    expect(errorWords(refusal('too_many_sign_ins', { retryAfter: 42 })).next?.text).toBe('Try again in 42 seconds.');
    expect(errorWords(refusal('rate_limited', { retryAfter: 150 })).next?.text).toBe('Try again in 3 minutes.');
    expect(errorWords(refusal('rate_limited')).next?.text).toBe('Wait a minute and try again.');
    expect([waitWords(1), waitWords(60), waitWords(5000)]).toEqual(['in a second', 'in a minute', 'in about an hour']);
  });

  it('a field\'s refusal names the field in words', () => {
    expect(errorWords(refusal('invalid_field', { param: 'max_automations_per_contact', message: 'max_automations_per_contact must be a whole number of at least 1.' })).message)
      .toBe('Limit of automations per contact must be a whole number of at least 1.');
    expect(errorWords(refusal('invalid_field', { param: 'email', message: 'The email is not valid: no @.' })).message).toBe('The email is not valid: no @.');
    expect(errorWords(refusal('invalid_field', { param: 'blocks[1].config.url', message: 'must be an http(s) URL' })).message).toBe('Check the url: must be an http(s) URL');
    expect(errorWords(refusal('missing_field', { param: 'name' })).message).toBe('Fill in the name.');
    expect(fieldWords('blocks[2].config.prompt')).toBe('prompt');
    expect(fieldWords('trigger.config.cron')).toBe('schedule');
    expect(fieldWords('monthly_spend_cap_micros')).toBe('monthly spend cap');
  });

  it('puts a refusal on the field it names, and only there', () => {
    const err = new HubError(409, 'contact_exists', 'taken', 'req_1', 'email', 'c1');
    expect(fieldError(err, 'email')).toBe('A contact with this email already exists.');
    expect(fieldError(err, 'phone')).toBeUndefined();
    expect(fieldError(null, 'email')).toBeUndefined();
    expect(fieldError(new Error('x'), 'email')).toBeUndefined();
  });

  it('words the browser\'s own failures', () => {
    expect(errorWords(refusal('network_error', { status: 0 })).message).toBe('The server could not be reached.');
  });
});

describe('feature names', () => {
  it.each(BILLED_FEATURES)('%s has a name', (f) => {
    expect(FEATURE_WORDS[f]).toMatch(/^[A-Z][a-zA-Z ]+$/);
    expect(featureName(f)).toBe(FEATURE_WORDS[f]);
  });
  it('names the issue asks for, and words for one it does not know', () => {
    expect(featureName('llm.tokens')).toBe('AI tokens');
    expect(featureName('web.fetch_page')).toBe('Web fetch page');
  });
});

describe('money to the cent', () => {
  it('rounds to the cent and says "< $0.01" for a small charge that is not nothing', () => {
    expect(dollars(0)).toBe('$0.00');
    expect(dollars(420_000)).toBe('$0.42');
    expect(dollars(1_234)).toBe('< $0.01');
    expect(dollars(9_999)).toBe('< $0.01');
    expect(dollars(10_000)).toBe('$0.01');
    expect(dollars(1_234_567_890_000)).toBe('$1,234,567.89');
    expect(dollars(1_005_000)).toBe('$1.01');
    expect(dollars(-2_000_000)).toBe('-$2.00');
    expect(dollars(-10)).toBe('> -$0.01');
  });
  it('never writes more than two decimals of a dollar', () => {
    for (const m of [1, 99, 12_345, 999_999, 123_456_789]) expect(dollars(m)).toMatch(/^(< )?\$[\d,]+\.\d\d$/);
  });
  it('an axis tick under a cent reads in cents', () => {
    expect(centsOrDollars(5_000)).toBe('0.5¢');
    expect(centsOrDollars(20_000)).toBe('$0.02');
    expect(centsOrDollars(12)).toBe('0.0012¢');
  });
});
