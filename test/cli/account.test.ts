import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCommand } from '../../src/cli/account.js';
import { getAccount } from '../../src/accounts/store.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { UNKNOWN, makeAccount } from './support.js';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t?.close());

const account = (...args: string[]) => accountCommand(t.db, args);

describe('account show', () => {
  it('shows the account with its effective limits, as text and JSON', async () => {
    const a = await makeAccount(t.db, 'business');
    const text = await account('show', '--account', a.id);
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toContain(`account ${a.id} ("Test account")`);
    expect(text.stdout).toMatch(/tier: business\n/);
    expect(text.stdout).toMatch(/requests per minute per key: 300 \(tier\)/);
    const j = JSON.parse((await account('show', '--account', a.id, '--json')).stdout);
    expect(j).toMatchObject({
      id: a.id,
      tier: 'business',
      state: 'active',
      subscription: 'active',
      credit_micros: 0,
      api_open: true,
      overrides: { requests_per_minute: null, run_starts_per_minute: null, concurrent_runs: null },
      limits: { requests_per_minute: 300, run_starts_per_minute: 30, concurrent_runs: 10 },
    });
    expect(j.created_at).toMatch(/Z$/);
  });

  it('refuses an unknown account (1) and bad arguments (2)', async () => {
    const r = await account('show', '--account', UNKNOWN);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(`no account ${UNKNOWN}`);
    expect((await account('show')).code).toBe(2);
    expect((await account('show', '--account', 'x')).stderr).toMatch(/--account must be a UUID/);
    expect((await account()).stderr).toMatch(/account needs an action/);
    expect((await account('delete', '--account', UNKNOWN)).stderr).toMatch(/unknown account action "delete"/);
  });
});

describe('account set', () => {
  it.each([
    [['--tier', 'enterprise'], { tier: 'enterprise' }],
    [['--state', 'suspended'], { state: 'suspended' }],
    [['--subscription', 'lapsed'], { subscription: 'lapsed' }],
    [['--credit', '123456789'], { credit_micros: 123456789 }],
    [['--credit', '0'], { credit_micros: 0 }],
    [['--api-open', 'false'], { api_open: false }],
    [['--requests-per-minute', '5000'], { requests_per_minute: 5000 }],
    [['--run-starts-per-minute', '90'], { run_starts_per_minute: 90 }],
    [['--concurrent-runs', '25'], { concurrent_runs: 25 }],
  ])('sets %j', async (args, expected) => {
    const a = await makeAccount(t.db);
    const before = (await getAccount(t.db, a.id))!;
    const r = await account('set', '--account', a.id, ...args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(`updated account ${a.id}`);
    const after = (await getAccount(t.db, a.id))!;
    expect(after).toMatchObject(expected);
    expect(after.updated_at.getTime()).toBeGreaterThanOrEqual(before.updated_at.getTime());
    // Nothing else moved.
    const untouched = Object.keys(before).filter((k) => !(k in expected) && k !== 'updated_at') as (keyof typeof before)[];
    for (const k of untouched) expect(after[k], k).toEqual(before[k]);
  });

  it('sets several fields at once and returns overrides to the tier with "default"', async () => {
    const a = await makeAccount(t.db);
    const r = await account(
      'set', '--account', a.id, '--tier', 'enterprise', '--requests-per-minute', '2000',
      '--run-starts-per-minute', '100', '--concurrent-runs', '40', '--api-open', 'true', '--state', 'active', '--subscription', 'active',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(''); // enterprise: overrides are what the tier is for, no note
    expect(r.stdout).toMatch(/requests per minute per key: 2000 \(override\)/);
    await account('set', '--account', a.id, '--requests-per-minute', 'default', '--run-starts-per-minute', 'default', '--concurrent-runs', 'default');
    expect(await getAccount(t.db, a.id)).toMatchObject({ requests_per_minute: null, run_starts_per_minute: null, concurrent_runs: null });
    const shown = JSON.parse((await account('show', '--account', a.id, '--json')).stdout);
    expect(shown.limits).toEqual({ requests_per_minute: 1000, run_starts_per_minute: null, concurrent_runs: null });
  });

  it('allows overrides on other tiers but prints a note', async () => {
    const a = await makeAccount(t.db, 'team');
    const r = await account('set', '--account', a.id, '--concurrent-runs', '8');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/note: limit overrides are "by contract" limits meant for the enterprise tier; .* team tier \(applied anyway\)/);
    expect((await getAccount(t.db, a.id))!.concurrent_runs).toBe(8);
    // Leaving enterprise while an override remains also earns the note.
    const e = await makeAccount(t.db, 'enterprise');
    await account('set', '--account', e.id, '--requests-per-minute', '3000');
    expect((await account('set', '--account', e.id, '--tier', 'business')).stderr).toMatch(/note:/);
    expect((await account('set', '--account', e.id, '--requests-per-minute', 'default')).stderr).toBe('');
  });

  it.each([
    [[], /at least one field/],
    [['--tier', 'gold'], /--tier must be one of solo, team, business, enterprise, got "gold"/],
    [['--state', 'frozen'], /--state must be one of active, suspended, closed/],
    [['--subscription', 'paid'], /--subscription must be one of active, lapsed, ended/],
    [['--credit=-5'], /--credit must be a whole number/],
    [['--credit', '-5'], /--credit was given a value starting with "-"; write --credit=VALUE/],
    [['--credit'], /--credit needs a value/],
    [['--credit', '1.5'], /--credit must be a whole number/],
    [['--credit', '9007199254740993'], /--credit must be from 0 to/],
    [['--api-open', 'yes'], /--api-open must be true or false, got "yes"/],
    [['--requests-per-minute', '0'], /--requests-per-minute must be from 1 to 2147483647/],
    [['--run-starts-per-minute', 'none'], /--run-starts-per-minute must be a whole number/],
    [['--concurrent-runs', '2147483648'], /--concurrent-runs must be from 1/],
    [['--name', 'x'], /unknown option --name/],
  ])('refuses %j with exit 2', async (args, message) => {
    const a = await makeAccount(t.db);
    const before = await getAccount(t.db, a.id);
    const r = await account('set', '--account', a.id, ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(await getAccount(t.db, a.id)).toEqual(before);
  });

  it('refuses an unknown account with exit 1', async () => {
    const r = await account('set', '--account', UNKNOWN, '--tier', 'solo');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(`no account ${UNKNOWN}`);
    expect((await account('set', '--tier', 'solo')).stderr).toMatch(/--account is required/);
  });
});
