// The fixture loader refuses, with the JSON path at fault and nothing written (docs/architecture.md
// §13), every value the store cannot hold as written: text with U+0000 or an unpaired surrogate
// (anywhere: fields, lists, free-form configs and their keys), integers past a 32-bit column, days
// outside years 1 to 9999. And what it accepts, it keeps as written (years 1 to 99 are not the
// 1900s).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../src/cli/operator.js';
import { validateFixture } from '../../src/fixtures/validate.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { memoryContext } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t?.close();
});

const count = async (table: string) => Number((await t.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0].n);

function minimal(extra: Record<string, unknown> = {}) {
  return { accounts: [{ ref: 'a', name: 'A', users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }], ...extra }] };
}

const seedCli = (json: unknown) =>
  runOperatorCommand(t.db, ['seed', 'f.json', '--json'], memoryContext({ 'f.json': JSON.stringify(json) }));

describe('seed refuses values the store cannot hold with the JSON path at fault (docs/architecture.md §13)', () => {
  const project = { ref: 'p', name: 'P', workmgmt_prefix: 'OPS' };
  const cases: Array<[string, unknown, string]> = [
    ['a NUL character in a name', minimal({ name: 'A\u0000B' }), 'accounts[0].name'],
    // Stored as U+FFFD otherwise: the API refuses such text because it "would be silently altered" (README).
    ['an unpaired surrogate in a name', minimal({ name: 'A\ud800B' }), 'accounts[0].name'],
    [
      'a NUL character in a block config',
      minimal({ workflows: [{ ref: 'w', name: 'W', blocks: [{ id: 'a', kind: 'source.text', config: { text: 'x\u0000' } }] }] }),
      'accounts[0].workflows[0].blocks[0].config.text',
    ],
    [
      'work item points beyond a 32-bit integer',
      minimal({ projects: [project], workmgmt: { p: { items: [{ key: 'OPS-1', type: 'task', title: 'T', points: 3_000_000_000 }] } } }),
      'accounts[0].workmgmt.p.items[0].points',
    ],
    ['a limit override beyond a 32-bit integer', minimal({ limits: { requests_per_minute: 3_000_000_000 } }), 'accounts[0].limits.requests_per_minute'],
    ['a NUL character in a list of strings', minimal({ contacts: [{ ref: 'c', email: 'c@a.example', tags: ['ok', 'b\u0000'] }] }), 'accounts[0].contacts[0].tags[1]'],
    [
      'an unpaired surrogate in a key of a free-form config',
      minimal({ workflows: [{ ref: 'w', name: 'W', blocks: [{ id: 'a', kind: 'source.text', config: { text: 'x', ['k\udc00']: 1 } }] }] }),
      'accounts[0].workflows[0].blocks[0].config["k?"]',
    ],
    [
      'a max_automations_per_contact beyond a 32-bit integer',
      minimal({ projects: [{ ref: 'p', name: 'P', settings: { max_automations_per_contact: 3_000_000_000 } }] }),
      'accounts[0].projects[0].settings.max_automations_per_contact',
    ],
    [
      'a key expiry that an offset takes before year 1',
      minimal({ keys: [{ ref: 'k', name: 'K', scopes: [], expires_at: '0001-01-01T00:30:00+01:00' }] }),
      'accounts[0].keys[0].expires_at',
    ],
    [
      'a sprint date in year 0',
      minimal({ projects: [project], workmgmt: { p: { sprints: [{ ref: 's', name: 'S', start_date: '0000-01-01' }] } } }),
      'accounts[0].workmgmt.p.sprints[0].start_date',
    ],
  ];
  it.each(cases)('%s', async (_name, json, path) => {
    const before = await count('accounts');
    const r = await seedCli(json);
    expect(r.code).toBe(1);
    expect(r.stderr.startsWith(`error: ${path}: `), r.stderr).toBe(true);
    expect(await count('accounts')).toBe(before);
  });
});

describe('seed keeps timestamps as written', () => {
  it('a history time in year 0050 is not moved to 1950', () => {
    const f = validateFixture(
      minimal({
        projects: [{ ref: 'p', name: 'P', workmgmt_prefix: 'OPS' }],
        workmgmt: { p: { items: [{ key: 'OPS-1', type: 'task', title: 'T', history: [{ at: '0050-06-30T00:00:00Z', kind: 'comment', text: 'x' }] }] } },
      }),
    );
    expect(f.accounts[0].projects[0].workmgmt!.items[0].history[0].at).toBe('0050-06-30T00:00:00.000Z');
  });
});
