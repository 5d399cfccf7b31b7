// The small pure helpers the hub's screens share: how money, months and spend caps are written and
// read back, how a contact is named, and the query strings of the list screens.
import { describe, expect, it } from 'vitest';
import { qs } from '../../web/src/lib/api';
import { contactName, type Contact } from '../../web/src/data/contacts';
import { stageWord } from '../../web/src/pages/contacts/words';
import { capMicros, capText } from '../../web/src/pages/keys/types';
import { monthName, recentMonths } from '../../web/src/pages/usage/model';

describe('spend caps', () => {
  it('reads a typed amount as micros, blank as no cap', () => {
    expect(capMicros('')).toBeNull();
    expect(capMicros('   ')).toBeNull();
    expect(capMicros('25')).toBe(25_000_000);
    expect(capMicros(' 0.5 ')).toBe(500_000);
    expect(capMicros('0.000001')).toBe(1);
  });

  it('refuses what is not a positive amount of at most six decimals', () => {
    for (const bad of ['0', '0.0000001', '-1', '1e3', '$5', '1,000', '1.', 'abc']) expect(capMicros(bad), bad).toBeNaN();
  });

  it('writes a cap back as the text the field takes, and reads it again the same', () => {
    expect(capText(null)).toBe('');
    expect(capText(25_000_000)).toBe('25');
    expect(capText(1_500)).toBe('0.0015');
    for (const m of [1, 1_500, 500_000, 25_000_000, 123_456_789]) expect(capMicros(capText(m))).toBe(m);
  });
});

describe('months', () => {
  it('names a month in UTC', () => {
    expect(monthName('2026-03')).toBe('March 2026');
    expect(monthName('2026-01')).toBe('January 2026');
  });

  it('lists the months up to the given one, newest first, across a year', () => {
    expect(recentMonths('2026-02', 4)).toEqual(['2026-02', '2026-01', '2025-12', '2025-11']);
    expect(recentMonths('2026-12')).toHaveLength(12);
    expect(recentMonths('2026-12').at(-1)).toBe('2026-01');
  });
});

describe('contacts', () => {
  // Only the fields a name is made of matter here.
  const person = (names: Partial<Pick<Contact, 'email' | 'first_name' | 'last_name'>>) =>
    ({ id: 'ct_1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', ...names }) as Contact;

  it('names a person by name, else email, else id', () => {
    expect(contactName(person({}))).toBe('Ada Lovelace');
    expect(contactName(person({ last_name: ' ' }))).toBe('Ada');
    expect(contactName(person({ first_name: null, last_name: null }))).toBe('ada@example.com');
    expect(contactName(person({ first_name: null, last_name: null, email: null }))).toBe('ct_1');
  });

  it('writes a lifecycle stage in words', () => {
    expect(stageWord('marketing_qualified')).toBe('marketing qualified');
    expect(stageWord(null)).toBe('—');
  });
});

describe('qs', () => {
  it('keeps the set values only', () => {
    expect(qs({ status: 'failed', cursor: undefined, q: '', project: null, limit: 50, archived: false })).toBe('?status=failed&limit=50&archived=false');
    expect(qs({ cursor: undefined })).toBe('');
    expect(qs({ q: 'a b&c' })).toBe('?q=a+b%26c');
  });
});
