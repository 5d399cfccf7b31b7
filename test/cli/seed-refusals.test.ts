// `switchboard seed` on a real store (PGlite, or PostgreSQL with TEST_DATABASE_URL): a bad file is
// refused in one answer naming every fault with its JSON path, and nothing is written; hostile
// files (too large, too deeply nested) get a plain refusal, fast; `seed --schema` prints the
// fixture format's JSON Schema without opening any store, and the shipped example conforms to it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AjvModule from 'ajv';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runOperatorCommand } from '../../src/cli/operator.js';
import { MAX_FIXTURE_BYTES } from '../../src/cli/seed.js';
import { MAX_JSON_DEPTH } from '../../src/lib/json-fields.js';
import { main } from '../../src/main.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { memoryContext } from './support.js';

const Ajv = AjvModule.default ?? AjvModule;
const EXAMPLE = path.resolve(import.meta.dirname, '../fixtures/fixture-format.json');
const example = () => JSON.parse(fs.readFileSync(EXAMPLE, 'utf8'));

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t?.close());

const TABLES = ['accounts', 'users', 'api_keys', 'projects', 'content_items', 'workflows', 'automations', 'contacts', 'wm_sprints', 'wm_items'];
async function rowCounts(): Promise<number[]> {
  const out: number[] = [];
  for (const table of TABLES) out.push((await t.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0].n);
  return out;
}

const seedText = (text: string) => runOperatorCommand(t.db, ['seed', 'f.json', '--json'], memoryContext({ 'f.json': text }));

/** Seeds `text` and expects a refusal (exit 1) that wrote nothing; returns stderr. */
async function refused(text: string): Promise<string> {
  const before = await rowCounts();
  const r = await seedText(text);
  expect(r.code, r.stdout).toBe(1);
  expect(r.stdout).toBe('');
  expect(await rowCounts()).toEqual(before);
  return r.stderr;
}

/** Seeds the example as `change` leaves it and expects one refusal listing exactly `faults`. */
async function expectFaults(change: (account: any) => void, faults: string[]): Promise<void> {
  const f = example();
  change(f.accounts[0]);
  const stderr = await refused(JSON.stringify(f));
  expect(stderr.split('\n')).toEqual([`error: the file has ${faults.length} faults; nothing was written:`, ...faults.map((l) => `  ${l}`), '']);
}

describe('a bad file: one refusal naming every fault, nothing written', () => {
  it('structural faults in seven sections', async () => {
    await expectFaults(
      (a) => {
        a.state = 'frozen';
        a.users[0].email = 'olivia at acme';
        a.keys[0].revoked = 'no';
        a.projects[0].items[0].colour = 'red';
        a.automations[0].reenroll = 'sometimes';
        a.contacts[1].tags = ['vip', 'vip'];
        a.workmgmt.site.items[0].type = 'saga';
      },
      [
        'accounts[0].state: "frozen" is not one of active, suspended, closed',
        'accounts[0].users[0].email: "olivia at acme" is not an email address: it contains a blank, control, format (such as a bidi control) or unassigned character',
        'accounts[0].keys[0].revoked: must be true or false, got the string "no"',
        'accounts[0].projects[0].items[0].colour: unknown field: a page item has no colour (allowed here: ref, kind, title, text)',
        'accounts[0].automations[0].reenroll: "sometimes" is not one of never, always, after_exit',
        'accounts[0].contacts[1].tags[1]: "vip" is listed twice',
        'accounts[0].workmgmt.site.items[0].type: "saga" is not one of story, task, bug, epic',
      ],
    );
  });

  it('broken references and rules between fields in six sections', async () => {
    await expectFaults(
      (a) => {
        for (let i = 0; i < 9; i++) a.keys.push({ ref: `k${i}`, name: `Key ${i}` });
        a.projects[0].items[1].ref = 'about';
        a.workflows[1].project = 'shop';
        a.automations[0].steps.splice(1, 0, { id: 'e1', name: 'Again', type: 'end' });
        a.contacts[2].email = 'Bob@Example.org';
        a.workmgmt.site.sprints[1].end_date = '2026-10-01';
      },
      [
        'accounts[0].keys[11]: an account may have at most 10 active keys; this is active key number 11 (revoke some, or give them a past expires_at)',
        'accounts[0].projects[0].items[1].ref: duplicate item ref "about" (already used at accounts[0].projects[0].items[0].ref)',
        'accounts[0].workflows[1].project: no project with ref "shop" in this account (known: site, blog)',
        'accounts[0].automations[0].steps[1].id: duplicate step id "e1" (already used at accounts[0].automations[0].steps[0])',
        'accounts[0].contacts[2].email: "Bob@Example.org" is already the email of accounts[0].contacts[1] (contact emails are unique per account, ignoring case)',
        'accounts[0].workmgmt.site.sprints[1].end_date: 2026-10-01 is before start_date 2026-10-19',
      ],
    );
  });

  it('one fault is said on its own line, as before', async () => {
    const f = example();
    f.accounts[0].tier = 'gold';
    expect(await refused(JSON.stringify(f))).toBe('error: accounts[0].tier: "gold" is not one of solo, team, business, enterprise\n');
  });
});

describe('hostile files', () => {
  it(`a file over ${MAX_FIXTURE_BYTES / 1024 / 1024} MiB is refused unread, naming the limit`, async () => {
    const f = example();
    // 10 MB of well-formed contacts: the size is refused, not the content.
    f.accounts[0].contacts = Array.from({ length: 100_000 }, (_, i) => ({ ref: `c${i}`, email: `c${i}@bulk.example`, first_name: 'x'.repeat(40) }));
    const text = JSON.stringify(f);
    expect(text.length).toBeGreaterThan(10_000_000);
    const stderr = await refused(text);
    expect(stderr).toMatch(/^error: f\.json is 9\.8 MiB; this command reads at most 8\.0 MiB \(split it into several files\)\n$/);
  });

  it('deeply nested JSON is refused before it is parsed, naming where', async () => {
    const depth = 2_000_000;
    const text = `{"accounts": [{"ref": "a", "name": "A", "workflows": [{"ref": "w", "name": "W", "blocks": [{"id": "b", "kind": "agent", "config": {"x": ${'['.repeat(depth)}${']'.repeat(depth)}}}]}]}]}`;
    const stderr = await refused(text);
    expect(stderr).toMatch(new RegExp(`^error: f\\.json: accounts\\[0\\]\\.workflows\\[0\\]\\.blocks\\[0\\]\\.config\\.x(\\[0\\])+: nested deeper than ${MAX_JSON_DEPTH} levels`));
  });

  it('__proto__ is refused as the unknown field it is, and nothing is written', async () => {
    const stderr = await refused('{"accounts": [{"ref": "a", "name": "A", "__proto__": {"tier": "enterprise"}}], "__proto__": []}');
    expect(stderr).toContain('  __proto__: unknown field (allowed here: accounts)');
    expect(stderr).toContain('  accounts[0].__proto__: unknown field (allowed here: ref, name, tier,');
  });
});

describe('seed --schema', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-schema-'));
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** main(argv)'s exit code and stdout. */
  async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
    try {
      return { code: await main(argv), out: out.join(''), err: err.join('') };
    } finally {
      o.mockRestore();
      e.mockRestore();
    }
  }

  it('prints the JSON Schema and exits 0 without opening any store', async () => {
    const dataDir = path.join(dir, 'never-made');
    vi.stubEnv('SWITCHBOARD_DATA_DIR', dataDir);
    vi.stubEnv('DATABASE_URL', '');
    const embedded = await run(['seed', '--schema']);
    expect(embedded.code, embedded.err).toBe(0);
    expect(fs.existsSync(dataDir)).toBe(false);
    // A PostgreSQL that does not answer is never asked either.
    vi.stubEnv('DATABASE_URL', 'postgres://postgres@127.0.0.1:1/nowhere');
    const server = await run(['seed', '--schema']);
    expect(server.code, server.err).toBe(0);
    expect(server.out).toBe(embedded.out);
    const schema = JSON.parse(embedded.out);
    expect(schema).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: ['accounts'] });
    // The same answer from the command itself (as a running server gives it over the admin socket).
    expect((await runOperatorCommand(t.db, ['seed', '--schema'], memoryContext({}, 'server'))).stdout).toBe(embedded.out);
  });

  it('the printed schema takes the shipped example and refuses a broken copy (Ajv)', async () => {
    const schema = JSON.parse((await run(['seed', '--schema'])).out);
    // The schema's own string formats are notes to a tool that does not know them, as JSON Schema allows.
    const formats = new Set<string>(JSON.stringify(schema).match(/"format":"[^"]+"/g)?.map((m) => m.slice(10, -1)));
    const ajv = new Ajv({ allErrors: true, discriminator: true, allowUnionTypes: true, strictRequired: false });
    for (const f of formats) ajv.addFormat(f, true);
    const validate = ajv.compile(schema);
    expect(validate(example()), JSON.stringify(validate.errors)).toBe(true);
    const broken = example();
    broken.accounts[0].users[0].role = 'boss';
    broken.accounts[0].projects[0].items[0].kind = 'video';
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(['/accounts/0/users/0/role', '/accounts/0/projects/0/items/0']);
  });

  it('takes no FILE and no other option', async () => {
    const r = await runOperatorCommand(t.db, ['seed', '--schema', 'f.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --schema takes no FILE, got "f\.json"\n\nUsage:/);
    expect((await runOperatorCommand(t.db, ['seed', '--schema', '--json'])).stderr).toMatch(/--schema takes no other option/);
  });
});
