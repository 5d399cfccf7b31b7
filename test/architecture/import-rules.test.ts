// The layering of src/ (README "Code map"): imports point down, engine and delivery never reach
// the API, nothing imports the CLI, the fixture loader only calls services, the hub reads through
// services (never an api store), SQL text stands only in *store.ts files and src/db, schema
// modules import only TypeBox, src/domain and other schema modules, and there is no import cycle.
// The second block plants each kind of violation in a small synthetic tree and checks the checker
// names it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkSources, importEdges, literals, looksLikeSql, type SourceMap } from './source-rules.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

function readTree(dir: string, base = dir, out = new Map<string, string>()): Map<string, string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) readTree(full, base, out);
    else if (entry.name.endsWith('.ts')) out.set(path.relative(base, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
  }
  return out;
}

describe('src/ keeps its layering', () => {
  const files = readTree(SRC);

  it('reads the whole tree and its imports', () => {
    expect(files.size).toBeGreaterThan(150);
    expect(importEdges(files).length).toBeGreaterThan(500);
  });

  it('has no violation of any rule', () => {
    const found = checkSources(files).map((v) => `${v.rule}: ${v.file}: ${v.detail}`);
    expect(found).toEqual([]);
  });
});

/** A small tree that keeps every rule; each planted case below breaks exactly one. */
const CLEAN: Record<string, string> = {
  'main.ts': `import { run } from './cli/run.js';\nrun();`,
  'cli/run.ts': `import { startRun } from '../services/runs/service.js';\nexport const run = () => startRun();`,
  'services/runs/service.ts': `import { enqueueWorkflowRun } from '../../queue/enqueue.js';\nexport const startRun = () => enqueueWorkflowRun();`,
  'services/runs/store.ts': `export const sql = 'select id from workflow_runs where account_id = $1';`,
  'queue/enqueue.ts': `import type { RunStatus } from '../domain/workflow.js';\nimport { insertRun } from './run-store.js';\nexport const enqueueWorkflowRun = (s?: RunStatus) => insertRun(s);`,
  'queue/run-store.ts': `export const insertRun = (_s?: unknown) => \`insert into workflow_runs (id) values ($1)\`;`,
  'domain/workflow.ts': `export const RUN_STATUSES = ['queued', 'running'] as const;\nexport type RunStatus = (typeof RUN_STATUSES)[number];\n// select * from x in a comment is fine\nexport const message = 'Select a workflow from the list.';`,
  'engine/loop.ts': `import { enqueueWorkflowRun } from '../queue/enqueue.js';\nexport const loop = () => enqueueWorkflowRun();`,
  'api/runs/routes.ts': `import { startRun } from '../../services/runs/service.js';\nexport const route = () => startRun();`,
  'fixtures/load.ts': `import { startRun } from '../services/runs/service.js';\nexport const load = () => startRun();`,
};

function planted(changes: Record<string, string>): SourceMap {
  return new Map(Object.entries({ ...CLEAN, ...changes }));
}

describe('the checker names each kind of planted violation', () => {
  it('passes the clean tree', () => {
    expect(checkSources(planted({}))).toEqual([]);
  });

  const cases: [string, Record<string, string>, string][] = [
    ['engine imports api', { 'engine/loop.ts': `import { route } from '../api/runs/routes.js';\nroute();` }, 'engine never imports api'],
    ['delivery imports api', { 'delivery/send.ts': `import type { route } from '../api/runs/routes.js';` }, 'delivery never imports api'],
    ['api imports cli', { 'api/runs/routes.ts': `import { run } from '../../cli/run.js';\nrun();` }, 'nothing imports cli'],
    ['fixtures import a store', { 'fixtures/load.ts': `import { sql } from '../services/runs/store.js';\nimport { insertRun } from '../queue/run-store.js';` }, 'fixtures only calls services'],
    ['the engine imports a service', { 'engine/loop.ts': `import { startRun } from '../services/runs/service.js';\nstartRun();` }, 'imports point down'],
    ['a store imports the queue from below', { 'domain/workflow.ts': `import { enqueueWorkflowRun } from '../queue/enqueue.js';\nenqueueWorkflowRun();` }, 'imports point down'],
    ['SQL in a route file', { 'api/runs/routes.ts': "export const q = `select id from workflow_runs where id = ${'$'}1`;" }, 'SQL only in *store.ts and db/'],
    ['a pg_notify outside a store', { 'engine/loop.ts': `export const n = "pg_notify('runs', '')";` }, 'SQL only in *store.ts and db/'],
    [
      'a type-only cycle',
      { 'domain/workflow.ts': `import type { X } from './run.js';\nexport type Y = X;`, 'domain/run.ts': `import type { Y } from './workflow.js';\nexport type X = Y | 1;` },
      'no import cycle',
    ],
    ['a dynamic import of cli', { 'engine/loop.ts': `export const f = () => import('../cli/run.js');` }, 'nothing imports cli'],
    ['the hub reading an api store', { 'hub/runs/routes.ts': `import { sql } from '../../api/runs/store.js';`, 'api/runs/store.ts': `export const sql = 1;` }, 'the hub reads through services, never an api store'],
    ['a schema module importing a store', { 'api/runs/schemas.ts': `import type { RunRow } from './store.js';`, 'api/runs/store.ts': `export type RunRow = { id: string };` }, 'schema modules are pure'],
    ['a schema module importing a package', { 'api/runs/schemas.ts': `import type { FastifyRequest } from 'fastify';` }, 'schema modules are pure'],
    ['a folder in no layer', { 'plugins/page.ts': `export const p = 1;`, 'cli/run.ts': `import { p } from '../plugins/page.js';\nexport const run = () => p;` }, 'every folder has a layer'],
  ];
  for (const [name, changes, rule] of cases) {
    it(`finds ${name}`, () => {
      const rules = checkSources(planted(changes)).map((v) => v.rule);
      expect(rules).toContain(rule);
    });
  }

  it('reads string and template literals, not comments', () => {
    expect(literals("const a = 'x'; // 'not this'\n/* `nor this` */ const b = `y${1}z`;")).toEqual(['x', 'y$?z']);
    expect(looksLikeSql('update contacts set name = $2 where id = $1')).toBe(true);
    expect(looksLikeSql('Update the contact first.')).toBe(false);
  });
});
