// `switchboard automations create FILE --account ID` and `automations export ID [--version N]`:
// the definition format both ways (export → create → export is the identity, keys in order),
// publishing at create as the fixture loader does (by "operator"), and the refusals with the
// file's path (exit 1) and usage errors (exit 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { filesContext, readInputFiles, runOperatorCommand } from '../../src/cli/operator.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, seed } from '../http/fixtures.js';
import { memoryContext } from './support.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;

const STEPS = [
  { id: 'e1', name: 'Welcome email', type: 'email.send', config: { subject: 'Hi {{first_name}}', body: 'Hello' }, next: 'b' },
  { id: 'b', name: 'Lead?', type: 'branch', config: { field: 'lifecycle_stage', op: 'eq', value: 'lead' }, branches: { yes: 'x', no: 'x' } },
  { id: 'x', name: 'End', type: 'end', config: {} },
];

beforeAll(async () => {
  t = await testApp();
  s = await seed(
    t.db,
    {
      ...account('acme', { projects: ['p', 'q'] }),
      automations: [{ ref: 'seeded', name: 'Seeded', project: 'p', status: 'published', trigger: { type: 'manual', label: 'By hand' }, run_only_if: { field: 'email', op: 'exists' }, reenroll: 'after_exit', steps: STEPS }],
    },
    { ...account('other', { projects: ['op'] }) },
  );
});
afterAll(() => t?.close());

const cmd = (argv: string[], file?: unknown) =>
  runOperatorCommand(t.db, argv, memoryContext(file === undefined ? {} : { 'def.json': typeof file === 'string' ? file : JSON.stringify(file) }));
const create = (file: unknown, account = s.acme.id) => cmd(['automations', 'create', 'def.json', '--account', account], file);
const exported = async (id: string, more: string[] = []) => {
  const r = await cmd(['automations', 'export', id, ...more]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
const createdId = (stdout: string) => /^automation ([0-9a-f-]{36}) created/.exec(stdout)![1];

describe('automations create and export', () => {
  it('exports in the definition format, keys in order; creating the export and exporting it again gives the same file', async () => {
    const first = await exported(s.acme.automations.seeded);
    expect(Object.keys(first)).toEqual(['project_id', 'name', 'status', 'trigger', 'run_only_if', 'reenroll', 'steps']);
    expect(first).toEqual({
      project_id: s.acme.projects.p,
      name: 'Seeded',
      status: 'published',
      trigger: { type: 'manual', label: 'By hand', config: {} },
      run_only_if: { field: 'email', op: 'exists' },
      reenroll: 'after_exit',
      steps: STEPS,
    });
    const r = await create(first);
    expect(r, r.stderr).toMatchObject({ code: 0, stdout: expect.stringMatching(/created and published as version 1\n$/) });
    const id = createdId(r.stdout);
    const again = await cmd(['automations', 'export', id]);
    expect(again.stdout).toBe((await cmd(['automations', 'export', s.acme.automations.seeded])).stdout);
    expect(await exported(id, ['--version', '1'])).toEqual(first);
    const v = await t.db.query<{ published_by: string | null }>('select published_by from automation_versions where automation_id = $1', [id]);
    expect(v).toEqual([{ published_by: 'operator' }]);
    const audit = await t.db.query<{ action: string; actor_kind: string }>('select action, actor_kind from audit_log where object_id = $1', [id]);
    expect(audit).toEqual([{ action: 'automation.created', actor_kind: 'operator' }]);
  });

  it('creates a draft (defaults filled in); a paused one stays paused; export --version shows an older version', async () => {
    const r = await create({ project_id: s.acme.projects.q, name: 'Small' });
    expect(r).toMatchObject({ code: 0, stdout: expect.stringMatching(/created as a draft/) });
    expect(await exported(createdId(r.stdout))).toEqual({
      project_id: s.acme.projects.q, name: 'Small', status: 'draft', trigger: { type: null, label: '', config: {} }, run_only_if: null, reenroll: 'never', steps: [],
    });
    const paused = await create({ project_id: s.acme.projects.q, name: 'Held', status: 'paused', trigger: { type: 'webhook', label: 'Hook' }, steps: STEPS });
    expect(paused).toMatchObject({ code: 0, stdout: expect.stringMatching(/stays paused until resumed/) });
    const id = createdId(paused.stdout);
    expect((await cmd(['automations', 'edit', id, 'def.json'], { name: 'Held 2', steps: STEPS.slice(2) })).code).toBe(0);
    expect((await cmd(['automations', 'publish', id])).code).toBe(0);
    expect(await exported(id)).toMatchObject({ name: 'Held 2', status: 'paused', steps: STEPS.slice(2) });
    expect(await exported(id, ['--version', '1'])).toMatchObject({ name: 'Held 2', steps: STEPS });
    expect(await exported(id, ['--version', '2'])).toMatchObject({ steps: STEPS.slice(2) });
  });

  it('refuses a definition with the file and path, a project of another account, an unknown version (exit 1)', async () => {
    const bad = await create({ project_id: s.acme.projects.p, name: 'Bad', steps: [{ id: 'a', name: 'A', type: 'fax.send' }] });
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: def\.json: steps\[0\]\.type: "fax\.send" is not a step type/) });
    const foreign = await create({ project_id: s.other.projects.op, name: 'Theirs' });
    expect(foreign).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: def\.json: project_id: no project with ref/) });
    const incomplete = await create({ project_id: s.acme.projects.p, name: 'Pub', status: 'published', trigger: { type: 'manual' }, steps: [{ id: 'a', name: 'A', type: 'tag.add', config: {} }] });
    expect(incomplete).toMatchObject({ code: 1, stderr: expect.stringMatching(/steps\[0\]\.config\.tag: Fill in the tag/) });
    expect((await cmd(['automations', 'export', s.acme.automations.seeded, '--version', '9'])).stderr).toMatch(/has no version 9/);
    expect((await cmd(['automations', 'export', s.acme.automations.seeded, '--account', s.other.id])).code).toBe(1);
    expect((await t.db.query(`select 1 from automations where name in ('Bad', 'Theirs', 'Pub')`)).length).toBe(0);
  });

  it.each([
    [['automations', 'create', 'def.json']],
    [['automations', 'create', '--account', '0190a8a0-0000-7000-8000-000000000000']],
    [['automations', 'export']],
    [['automations', 'export', '0190a8a0-0000-7000-8000-000000000000', '--version', '0']],
  ])('%j → exit 2 with the usage', async (argv) => {
    const r = await cmd(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('automations create FILE --account ID');
  });

  it('through the admin socket: the CLI reads create’s FILE and the server creates from its contents', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-auto-create-'));
    try {
      fs.writeFileSync(path.join(dir, 'new.json'), JSON.stringify({ project_id: s.acme.projects.p, name: 'Over the socket' }));
      const argv = ['automations', 'create', 'new.json', '--account', s.acme.id];
      const files = await readInputFiles(argv, dir);
      expect(Object.keys(files)).toEqual(['new.json']);
      const r = await runOperatorCommand(t.db, argv, filesContext(files, 'server'));
      expect(r.code, r.stderr).toBe(0);
      expect((await exported(createdId(r.stdout))).name).toBe('Over the socket');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
