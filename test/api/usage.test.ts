// GET /v1/usage: sums of the billing ledger by day (every day of the range, zeros included) and by
// feature, the total and the balance; the default range (the current UTC month to date), inclusive
// edges, the 366-day maximum, refusals naming the parameter, isolation and scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBilling } from '../../src/engine/billing/index.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed } from '../http/fixtures.js';

interface Usage {
  currency: string;
  from: string;
  to: string;
  balance_micros: number;
  total_micros: number;
  by_day: Array<{ date: string; micros: number }>;
  by_feature: Array<{ feature: string; micros: number }>;
}
type Row = { day: string; feature: string; micros: number };

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let today: string;
const DAY = 86_400_000;
const shift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

const get = (key: string, qs = '') => t.app.inject({ method: 'GET', url: `/v1/usage${qs}`, headers: bearer(key) });
async function usage(key: string, qs = ''): Promise<Usage> {
  const res = await get(key, qs);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function ledger(accountId: string, rows: Row[]) {
  const params: unknown[] = [];
  const values = rows.map((r, i) => {
    params.push(accountId, uuidv7(), r.day, r.feature, r.micros);
    const b = i * 5;
    return `($${b + 1}, $${b + 2}, ($${b + 3}::date + time '12:00') at time zone 'utc', $${b + 3}::date, $${b + 4}, $${b + 5})`;
  });
  await t.db.query(`insert into billing_ledger (account_id, id, at, day, feature, micros) values ${values.join(', ')}`, params);
}

/** What the answer must be, summed here from the rows the test wrote. */
function expected(rows: Row[], from: string, to: string) {
  const inRange = rows.filter((r) => r.day >= from && r.day <= to);
  const byDay = new Map<string, number>();
  const byFeature = new Map<string, number>();
  for (const r of inRange) {
    byDay.set(r.day, (byDay.get(r.day) ?? 0) + r.micros);
    byFeature.set(r.feature, (byFeature.get(r.feature) ?? 0) + r.micros);
  }
  const days: string[] = [];
  for (let d = from; d <= to; d = shift(d, 1)) days.push(d);
  return {
    total_micros: inRange.reduce((a, r) => a + r.micros, 0),
    by_day: days.map((date) => ({ date, micros: byDay.get(date) ?? 0 })),
    by_feature: [...byFeature].map(([feature, micros]) => ({ feature, micros })).sort((a, b) => b.micros - a.micros || a.feature.localeCompare(b.feature)),
  };
}

const MARCH: Row[] = [
  { day: '2026-02-28', feature: 'llm.tokens', micros: 999 }, // the day before the range
  { day: '2026-03-01', feature: 'llm.tokens', micros: 1_500_000 },
  { day: '2026-03-01', feature: 'sms', micros: 20_000 },
  { day: '2026-03-01', feature: 'llm.tokens', micros: 250_000 },
  { day: '2026-03-03', feature: 'block.run', micros: 20_000 },
  { day: '2026-03-05', feature: 'sms', micros: 3_000_000_000_000 }, // beyond 32 bits, still exact
  { day: '2026-03-06', feature: 'llm.tokens', micros: 777 }, // the day after
];
let random: Row[];

beforeAll(async () => {
  t = await testApp();
  const keys = [{ ref: 'main', scopes: ['usage:read' as const] }, { ref: 'noscope', scopes: ['workmgmt:read' as const, 'workflows:read' as const] }];
  s = await seed(
    t.db,
    { ...account('acme', { keys }), credit_micros: 12_345_678 },
    { ...account('other', { keys }), credit_micros: 5 },
    account('rand', { keys }),
    { ...account('lapsed', { keys, subscription: 'lapsed' }), credit_micros: 1 },
    account('today', { keys }),
  );
  [{ today }] = await t.db.query<{ today: string }>(`select to_char((now() at time zone 'utc')::date, 'YYYY-MM-DD') as today`);
  await ledger(s.acme.id, MARCH);
  // Another account's usage on the same days never shows.
  await ledger(s.other.id, [{ day: '2026-03-02', feature: 'llm.tokens', micros: 42 }, { day: '2026-03-05', feature: 'secret', micros: 7 }]);
  // 300 rows over 45 days and 4 features, two of them tied in total.
  random = Array.from({ length: 300 }, (_, i) => ({
    day: shift('2026-01-20', (i * 7) % 45),
    feature: ['llm.tokens', 'sms', 'email', 'block.run'][i % 4],
    micros: ((i * 7919) % 100_000) + 1,
  }));
  random.push({ day: '2026-01-20', feature: 'zeta', micros: 123 }, { day: '2026-01-21', feature: 'alpha', micros: 123 });
  await ledger(s.rand.id, random);
});
afterAll(() => t?.close());

describe('sums', () => {
  it('by day (every day, zeros included), by feature (biggest first), total and balance; edges included', async () => {
    expect(await usage(s.acme.keys.main, '?from=2026-03-01&to=2026-03-05')).toEqual({
      currency: 'usd',
      from: '2026-03-01',
      to: '2026-03-05',
      balance_micros: 12_345_678,
      total_micros: 3_000_001_790_000,
      by_day: [
        { date: '2026-03-01', micros: 1_770_000 },
        { date: '2026-03-02', micros: 0 },
        { date: '2026-03-03', micros: 20_000 },
        { date: '2026-03-04', micros: 0 },
        { date: '2026-03-05', micros: 3_000_000_000_000 },
      ],
      by_feature: [
        { feature: 'sms', micros: 3_000_000_020_000 },
        { feature: 'llm.tokens', micros: 1_750_000 },
        { feature: 'block.run', micros: 20_000 },
      ],
    });
  });

  it('one day: from = to', async () => {
    const u = await usage(s.acme.keys.main, '?from=2026-03-03&to=2026-03-03');
    expect(u).toMatchObject({ total_micros: 20_000, by_day: [{ date: '2026-03-03', micros: 20_000 }], by_feature: [{ feature: 'block.run', micros: 20_000 }] });
  });

  it('a range without usage: zeros every day, no features, the balance still', async () => {
    const u = await usage(s.other.keys.main, '?from=2026-03-03&to=2026-03-04');
    expect(u).toMatchObject({ balance_micros: 5, total_micros: 0, by_feature: [], by_day: [{ date: '2026-03-03', micros: 0 }, { date: '2026-03-04', micros: 0 }] });
  });

  it('match the ledger exactly for any range (ties between features ordered by name)', async () => {
    for (const [from, to] of [['2026-01-20', '2026-03-05'], ['2026-01-25', '2026-02-10'], ['2026-02-03', '2026-02-03'], ['2025-12-01', '2026-01-21']]) {
      const u = await usage(s.rand.keys.main, `?from=${from}&to=${to}`);
      expect(u, `${from}..${to}`).toEqual({ currency: 'usd', from, to, balance_micros: 0, ...expected(random, from, to) });
    }
    const all = await usage(s.rand.keys.main, '?from=2026-01-01&to=2026-03-31');
    const names = all.by_feature.map((f) => f.feature);
    expect(names.indexOf('alpha')).toBe(names.indexOf('zeta') - 1);
  });

  it('charges made by the billing engine show on their UTC day and move the balance', async () => {
    const billing = createBilling(t.db);
    await t.db.query('update accounts set credit_micros = 1000000 where id = $1', [s.today.id]);
    expect(await billing.charge({ accountId: s.today.id, keyId: null, feature: 'llm.tokens', micros: 1234, effectKey: `usage-test-${uuidv7()}` })).toEqual({ ok: true });
    expect(await billing.charge({ accountId: s.today.id, keyId: null, feature: 'block.run', micros: 66, effectKey: `usage-test-${uuidv7()}` })).toEqual({ ok: true });
    const u = await usage(s.today.keys.main, `?from=${today}&to=${today}`);
    expect(u).toEqual({
      currency: 'usd', from: today, to: today, balance_micros: 1_000_000 - 1300, total_micros: 1300,
      by_day: [{ date: today, micros: 1300 }],
      by_feature: [{ feature: 'llm.tokens', micros: 1234 }, { feature: 'block.run', micros: 66 }],
    });
  });
});

describe('the range', () => {
  it('defaults to the current UTC month to date; to alone starts at its month\'s first day; from alone ends today', async () => {
    const first = `${today.slice(0, 8)}01`;
    const rows: Row[] = [
      { day: shift(first, -1), feature: 'llm.tokens', micros: 1 }, // last month
      { day: first, feature: 'llm.tokens', micros: 10 },
      { day: today, feature: 'sms', micros: 100 },
      { day: shift(today, 1), feature: 'sms', micros: 1000 }, // tomorrow: after the default range
    ];
    await ledger(s.lapsed.id, rows);
    const u = await usage(s.lapsed.keys.main);
    expect(u).toEqual({ currency: 'usd', from: first, to: today, balance_micros: 1, ...expected(rows, first, today) });
    expect(u.by_day).toHaveLength(Number(today.slice(8)));
    expect(await usage(s.lapsed.keys.main, `?to=${today}`)).toEqual(u);
    expect(await usage(s.lapsed.keys.main, `?from=${first}`)).toEqual(u);
    const lastMonth = await usage(s.lapsed.keys.main, `?to=${shift(first, -1)}`);
    expect(lastMonth.from).toBe(`${shift(first, -1).slice(0, 8)}01`);
    expect(lastMonth.total_micros).toBe(1);
    // A range may reach into the future: those days are 0 until they come.
    const ahead = await usage(s.lapsed.keys.main, `?from=${today}&to=${shift(today, 1)}`);
    expect(ahead.by_day).toEqual([{ date: today, micros: 100 }, { date: shift(today, 1), micros: 1000 }]);
  });

  it('at most 366 days: a leap year whole is fine, one day more is refused naming to', async () => {
    expect((await usage(s.acme.keys.main, '?from=2024-01-01&to=2024-12-31')).by_day).toHaveLength(366);
    expect((await usage(s.acme.keys.main, '?from=2025-03-01&to=2026-03-01')).by_day).toHaveLength(366);
    const e = expectError(await get(s.acme.keys.main, '?from=2025-03-01&to=2026-03-02'), 400, 'invalid_request', 'invalid_parameter', 'to');
    expect(e.message).toContain('366');
  });

  it('from after to → 400 invalid_parameter naming from (also when to is the default, today)', async () => {
    expectError(await get(s.acme.keys.main, '?from=2026-03-02&to=2026-03-01'), 400, 'invalid_request', 'invalid_parameter', 'from');
    expectError(await get(s.acme.keys.main, `?from=${shift(today, 1)}`), 400, 'invalid_request', 'invalid_parameter', 'from');
  });

  it('dates that are not YYYY-MM-DD calendar days → 400 invalid_parameter naming the parameter', async () => {
    for (const [qs, param] of [
      ['from=2026-02-29', 'from'],
      ['from=2026-3-01', 'from'],
      ['to=20260301', 'to'],
      ['to=2026-03-01T00:00:00Z', 'to'],
      ['from=0000-01-01&to=0000-01-02', 'from'],
      ['to=0000-01-02', 'to'],
      ['from=', 'from'],
      ['from=2026-03-01&from=2026-03-02', 'from'],
    ]) {
      expectError(await get(s.acme.keys.main, `?${qs}`), 400, 'invalid_request', 'invalid_parameter', param);
    }
    expectError(await get(s.acme.keys.main, '?feature=sms'), 400, 'invalid_request', 'unknown_parameter', 'feature');
  });
});

describe('scope and account state', () => {
  it('a key without usage:read → 403 insufficient_scope naming it', async () => {
    const e = expectError(await get(s.acme.keys.noscope), 403, 'permission', 'insufficient_scope');
    expect(e.message).toContain('usage:read');
  });

  it('a lapsed subscription still reads its usage', async () => {
    expect((await get(s.lapsed.keys.main, '?from=2026-03-01&to=2026-03-01')).statusCode).toBe(200);
  });
});
