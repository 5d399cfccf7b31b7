// Pages written by a workflow's output.project block are stored like pages created through the
// API from Markdown (src/lib/page.ts): text = the Markdown, html = its sanitised rendering, held
// to the same 512 KiB limit; the content API reads them back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createBlockRegistry } from '../../src/engine/blocks/index.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { MAX_PAGE_BYTES } from '../../src/lib/page.js';
import { ctx } from '../engine/blocks/context.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, seed } from '../http/fixtures.js';

let t: TestApp;
let acme: AccountSeedResult;
const out = { id: 'out', kind: 'output.project', config: { title: 'Weekly digest' } };
const block = createBlockRegistry(loadConfig({})).get('output.project')!;

const run = (text: string, effectKey: string) =>
  block.execute(ctx({ block: out, db: t.db, accountId: acme.id, projectId: acme.projects.site, effectKey, inputs: { agent: { text } } }));
const count = async () =>
  (await t.db.query<{ n: number }>('select count(*)::int as n from content_items where account_id = $1', [acme.id]))[0].n;

beforeAll(async () => {
  t = await testApp();
  acme = (await seed(t.db, account('acme', { projects: ['site'], keys: [{ ref: 'main', scopes: ['content:read'] }] }))).acme;
});
afterAll(() => t?.close());

describe('output.project pages', () => {
  it('are stored with their Markdown as text and sanitised html, and read back through the API', async () => {
    const md = '# Digest\n\nAll *good*. [x](javascript:alert(1)) <img src=x onerror=alert(1)><script>alert(1)</script>';
    const r = await run(md, 'run-a:out');
    expect(r.status).toBe('succeeded');
    const itemId = r.status === 'succeeded' ? String(r.output.item_id) : '';
    const res = await t.app.inject({ method: 'GET', url: `/v1/items/${itemId}`, headers: bearer(acme.keys.main) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      kind: 'page',
      title: 'Weekly digest',
      text: md,
      html: '<h1>Digest</h1>\n<p>All <em>good</em>. <a rel="noopener noreferrer nofollow">x</a> <img src="x" /></p>\n',
    });
    const [row] = await t.db.query<{ html: string | null }>('select html from content_items where id = $1', [itemId]);
    expect(row.html).toBe(res.json().html);
  });

  it('are held to the limit on their HTML: at the limit it is written, one byte over it fails and writes nothing', async () => {
    // "x…x" becomes "<p>x…x</p>\n": 8 bytes more
    expect((await run('x'.repeat(MAX_PAGE_BYTES - 8), 'run-b:out')).status).toBe('succeeded');
    const before = await count();
    expect(await run('x'.repeat(MAX_PAGE_BYTES - 7), 'run-c:out')).toEqual({ status: 'failed', error: 'page too large: over 524288 bytes' });
    expect(await count()).toBe(before);
  });

  it('a source that cannot be converted fails the step and writes nothing', async () => {
    const before = await count();
    const r = await run('> '.repeat(20_000) + 'deep', 'run-d:out');
    expect(r.status).toBe('failed');
    expect(r.status === 'failed' && r.error).toMatch(/^page could not be rendered: /);
    expect(await count()).toBe(before);
  });
});
