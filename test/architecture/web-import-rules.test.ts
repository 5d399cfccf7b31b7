// The layering of web/src (rules in web-rules.ts). The imports that break it today are listed
// below, each named: the list may only shrink (a new violation fails, and so does a listed one
// that is gone — take it off the list). The second block plants each kind of violation.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SourceMap } from './source-rules.js';
import { checkWebSources } from './web-rules.js';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src');

/**
 * Pages reaching into another page folder, as of the hub kit (issue 24). Each goes when its folder
 * moves to the kit: the shared piece to components/ or data/. "file → imported module".
 */
const KNOWN: readonly string[] = [];

function readTree(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) readTree(full, out);
    else if (/\.tsx?$/.test(entry.name)) out.set(path.relative(WEB, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
  }
  return out;
}

describe('web/src keeps its layering', () => {
  const files = readTree(WEB);

  it('reads the whole hub', () => {
    expect(files.size).toBeGreaterThan(80);
  });

  it('has no violation beyond the known list, and every listed one still exists', () => {
    const found = checkWebSources(files).map((v) => `${v.file} → ${v.detail}`);
    expect(found.filter((f) => !KNOWN.includes(f))).toEqual([]);
    expect(KNOWN.filter((k) => !found.includes(k))).toEqual([]);
  });
});

const CLEAN: Record<string, string> = {
  'pages/runs/RunsPage.tsx': [
    `import { useQuery } from '@tanstack/react-query';`,
    `import { RUN_STATUSES } from '@domain/workflow';`,
    `import type { HubRunInList } from '@server/hub/runs/schemas';`,
    `import { ListTable } from '../../components/list';`,
    `import { runListQuery } from '../../data/runs';`,
    `import { api } from '../../lib/api';`,
    `import { Output } from './Output';`,
    `import './runs.css';`,
  ].join('\n'),
  'pages/runs/Output.tsx': `export const Output = 1;`,
  'data/runs.ts': `import type { HubRunDetailOut } from '@server/hub/runs/schemas';\nimport { api } from '../lib/api';\nimport { resourceKeys } from './keys';`,
  'data/keys.ts': `import type { ListEnvelope } from '@server/http/schemas';`,
  'components/list/index.ts': `import type { Page } from '../../data/keys';\nimport { Loading } from '../states';`,
  'routes.tsx': `export const load = () => import('./pages/runs/RunsPage');`,
};

const planted = (changes: Record<string, string>): SourceMap => new Map(Object.entries({ ...CLEAN, ...changes }));

describe('the web checker names each kind of planted violation', () => {
  it('passes the clean tree', () => {
    expect(checkWebSources(planted({}))).toEqual([]);
  });

  const cases: [string, Record<string, string>, string][] = [
    ['a page imports another page folder', { 'pages/runs/Output.tsx': `import type { WorkflowInList } from '../workflows/model';` }, 'a page imports its own folder, components, lib and data only'],
    ['a page imports the app\'s routes', { 'pages/runs/Output.tsx': `import { SCREENS } from '../../routes';` }, 'a page imports its own folder, components, lib and data only'],
    ['data imports a component', { 'data/runs.ts': `import { Loading } from '../components/states';` }, 'data imports lib only'],
    ['data imports a page', { 'data/runs.ts': `import { Output } from '../pages/runs/Output';` }, 'data imports lib only'],
    ['a component imports a page', { 'components/list/index.ts': `import { Output } from '../../pages/runs/Output';` }, 'components never import pages'],
    ['a value import of a server schema', { 'data/runs.ts': `import { HubRunInList } from '@server/hub/runs/schemas';` }, "the server's schemas as import type only"],
    ['a server module that is not a schemas module', { 'pages/runs/Output.tsx': `import type { X } from '@server/hub/runs/routes';` }, 'the server only through its schemas modules'],
  ];
  for (const [name, changes, rule] of cases) {
    it(`finds ${name}`, () => {
      expect(checkWebSources(planted(changes)).map((v) => v.rule)).toContain(rule);
    });
  }
});
