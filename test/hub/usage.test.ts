// GET /hub/api/usage: a month of billed usage by day (every day up to today, zeros included), by
// feature, the balance, and each key's spend against its cap for owners and admins only (null
// for a member); the month parameter's refusals; no session, no account picked, other accounts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let today: string;
let owner: HubClient;
let member: HubClient;
let other: HubClient;

const users = (ref: string) => [
  { ref: 'owner', email: `owner@${ref}.example`, role: 'owner' },
  { ref: 'admin', email: `admin@${ref}.example`, role: 'admin' },
  { ref: 'member', email: `member@${ref}.example`, role: 'member' },
];

async function ledger(accountId: string, rows: { day: string; feature: string; micros: number; keyId?: string }[]) {
  for (const r of rows) {
    await t.db.query(
      `insert into billing_ledger (account_id, id, at, day, feature, micros, key_id)
       values ($1, $2, ($3::date + time '12:00') at time zone 'utc', $3::date, $4, $5, $6)`,
      [accountId, uuidv7(), r.day, r.feature, r.micros, r.keyId ?? null],
    );
  }
}

async function spend(accountId: string, keyId: string, month: string, micros: number) {
  await t.db.query(`insert into api_key_spend (account_id, key_id, month, spent_micros) values ($1, $2, $3::date, $4)`, [accountId, keyId, `${month}-01`, micros]);
}

const monthOf = (day: string) => day.slice(0, 7);
const prevMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7);
};

beforeAll(async () => {
  t = await testApp();
  const keys = [
    { ref: 'capped', name: 'Capped', scopes: ['usage:read'], monthly_spend_cap_micros: 5_000_000 },
    { ref: 'open', name: 'Open', scopes: ['usage:read'] },
    { ref: 'gone', name: 'Gone', scopes: ['usage:read'], revoked: true },
    { ref: 'gone-quiet', name: 'Gone quiet', scopes: ['usage:read'], revoked: true },
  ];
  s = await seedFixture([
    { ref: 'acme', name: 'Acme', credit_micros: 7_654_321, users: users('acme'), keys },
    { ref: 'other', name: 'Other', credit_micros: 1, users: users('other'), keys: [{ ref: 'k', name: 'K', scopes: ['usage:read'] }] },
  ]);
  today = (await t.db.query<{ d: string }>(`select to_char((now() at time zone 'utc')::date, 'YYYY-MM-DD') as d`))[0].d;
  const acme = s.acme;
  const first = `${monthOf(today)}-01`;
  await ledger(acme.id, [
    { day: first, feature: 'llm.tokens', micros: 1_000, keyId: acme.key_ids.capped },
    { day: today, feature: 'llm.tokens', micros: 2_500_000, keyId: acme.key_ids.capped },
    { day: today, feature: 'sms', micros: 20_000, keyId: acme.key_ids.gone },
    { day: `${prevMonth(monthOf(today))}-15`, feature: 'sms', micros: 999 },
  ]);
  await ledger(s.other.id, [{ day: today, feature: 'llm.tokens', micros: 123 }]);
  await spend(acme.id, acme.key_ids.capped, monthOf(today), 2_501_000);
  await spend(acme.id, acme.key_ids.gone, monthOf(today), 20_000);
  await spend(acme.id, acme.key_ids.open, prevMonth(monthOf(today)), 999);
  owner = await hubClient(t, { accountId: acme.id, userId: acme.users.owner, email: 'owner@acme.example' });
  member = await hubClient(t, { accountId: acme.id, userId: acme.users.member, email: 'member@acme.example' });
  other = await hubClient(t, { accountId: s.other.id, userId: s.other.users.owner, email: 'owner@other.example' });
});
afterAll(() => t.close());

async function seedFixture(accounts: Record<string, unknown>[]) {
  return seed(t.db, ...accounts);
}

describe('GET /hub/api/usage', () => {
  it('gives the current month by day up to today, by feature, the total and the balance', async () => {
    const res = await owner.get('/hub/api/usage');
    expect(res.statusCode, res.body).toBe(200);
    const u = res.json();
    expect(u.month).toBe(monthOf(today));
    expect(u.currency).toBe('usd');
    expect(u.balance_micros).toBe(7_654_321);
    expect(u.by_day).toHaveLength(Number(today.slice(8, 10)));
    expect(u.by_day[0].date).toBe(`${monthOf(today)}-01`);
    expect(u.by_day.at(-1)).toEqual({ date: today, micros: today.endsWith('-01') ? 2_521_000 : 2_520_000 });
    expect(u.by_day.reduce((a: number, d: { micros: number }) => a + d.micros, 0)).toBe(2_521_000);
    expect(u.total_micros).toBe(2_521_000);
    expect(u.by_feature).toEqual([
      { feature: 'llm.tokens', micros: 2_501_000 },
      { feature: 'sms', micros: 20_000 },
    ]);
  });

  it("shows an owner or admin each key's spend against its cap: active keys, and revoked keys that spent", async () => {
    const admin = await hubClient(t, { accountId: s.acme.id, userId: s.acme.users.admin, email: 'admin@acme.example' });
    for (const c of [owner, admin]) {
      const u = (await c.get('/hub/api/usage')).json();
      expect(u.keys).toEqual([
        { id: s.acme.key_ids.capped, name: 'Capped', prefix: expect.any(String), monthly_spend_cap_micros: 5_000_000, spent_micros: 2_501_000, revoked: false },
        { id: s.acme.key_ids.open, name: 'Open', prefix: expect.any(String), monthly_spend_cap_micros: null, spent_micros: 0, revoked: false },
        { id: s.acme.key_ids.gone, name: 'Gone', prefix: expect.any(String), monthly_spend_cap_micros: null, spent_micros: 20_000, revoked: true },
      ]);
      expect(s.acme.keys.capped.startsWith(u.keys[0].prefix)).toBe(true);
    }
  });

  it('gives a member the same usage but no keys', async () => {
    const res = await member.get('/hub/api/usage');
    expect(res.statusCode).toBe(200);
    const u = res.json();
    expect(u.keys).toBeNull();
    expect(u.total_micros).toBe(2_521_000);
    expect(res.body).not.toContain(s.acme.key_ids.capped);
  });

  it('reads an earlier month whole, and a month to come as empty', async () => {
    const prev = prevMonth(monthOf(today));
    const u = (await owner.get(`/hub/api/usage?month=${prev}`)).json();
    expect(u.month).toBe(prev);
    expect(u.by_day.length).toBeGreaterThanOrEqual(28);
    expect(u.by_day.find((d: { date: string }) => d.date === `${prev}-15`).micros).toBe(999);
    expect(u.total_micros).toBe(999);
    expect(u.keys.find((k: { id: string }) => k.id === s.acme.key_ids.open).spent_micros).toBe(999);
    expect(u.keys.find((k: { id: string }) => k.id === s.acme.key_ids.gone)).toBeUndefined();
    const future = (await owner.get('/hub/api/usage?month=2999-12')).json();
    expect(future).toMatchObject({ month: '2999-12', by_day: [], by_feature: [], total_micros: 0 });
    const feb = (await owner.get('/hub/api/usage?month=2024-02')).json();
    expect(feb.by_day).toHaveLength(29);
  });

  it('refuses a malformed month or an unknown parameter', async () => {
    for (const m of ['2026-13', '2026-1', 'march', '2026-03-01']) {
      expectError(await owner.get(`/hub/api/usage?month=${m}`), 400, 'invalid_request', 'invalid_parameter', 'month');
    }
    expectError(await owner.get('/hub/api/usage?month=1969-12'), 400, 'invalid_request', 'invalid_parameter', 'month');
    expectError(await owner.get('/hub/api/usage?from=2026-01-01'), 400, 'invalid_request', 'unknown_parameter', 'from');
  });

  it("keeps each account to its own usage and keys", async () => {
    const u = (await other.get('/hub/api/usage')).json();
    expect(u.total_micros).toBe(123);
    expect(u.balance_micros).toBe(1);
    expect(u.keys.map((k: { id: string }) => k.id)).toEqual([s.other.key_ids.k]);
  });

  it('needs a session and a picked account', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/hub/api/usage' }), 401, 'authentication', 'not_signed_in');
    const unpicked = await hubClient(t, { accountId: null, userId: null, email: 'owner@acme.example', userIds: [s.acme.users.owner] });
    expectError(await unpicked.get('/hub/api/usage'), 409, 'conflict', 'account_not_chosen');
  });
});
