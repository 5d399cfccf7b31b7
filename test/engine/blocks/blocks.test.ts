// Each block's happy path and failures; blocks that touch content run on a real database
// (PGlite, or PostgreSQL with TEST_DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlockRegistry } from '../../../src/engine/blocks/index.js';
import type { Block, BlockDef } from '../../../src/engine/types.js';
import { seedFixture, type SeedResult } from '../../../src/fixtures/load.js';
import { uuidv7 } from '../../../src/lib/ids.js';
import { loadConfig } from '../../../src/config.js';
import { freshDb, type TestDb } from '../../helpers/db.js';
import { ctx, providers } from './context.js';

const config = loadConfig({ SWITCHBOARD_WEB_TIMEOUT_MS: '1234', SWITCHBOARD_WEB_MAX_BYTES: '4096' });
const registry = createBlockRegistry(config);
const block = (kind: string): Block => registry.get(kind)!;
const def = (id: string, kind: string, config: Record<string, unknown>): BlockDef => ({ id, kind, config });

const fixture = {
  accounts: [
    {
      ref: 'acme',
      name: 'Acme',
      projects: [
        {
          ref: 'site',
          name: 'Website',
          items: [
            { ref: 'about', kind: 'page', title: 'About us', text: '# About us\n\nWe make things.' },
            { ref: 'deck', kind: 'file', title: 'Sales deck', filename: 'deck.pdf', content_type: 'application/pdf', size_bytes: 10 },
          ],
        },
      ],
    },
    {
      ref: 'other',
      name: 'Other',
      projects: [{ ref: 'p', name: 'P', items: [{ ref: 'secret', kind: 'page', title: 'Secret', text: 'not yours' }] }],
    },
  ],
};

let t: TestDb;
let seed: SeedResult;
beforeAll(async () => {
  t = await freshDb();
  seed = await seedFixture(t.db, fixture, { erasureSecret: Buffer.from('t') });
});
afterAll(async () => {
  await t?.close();
});
const acme = () => seed.accounts.acme;

describe('source.text', () => {
  it('outputs its text', async () => {
    const r = await block('source.text').execute(ctx({ block: def('s', 'source.text', { text: 'Hello.' }) }));
    expect(r).toEqual({ status: 'succeeded', output: { text: 'Hello.' } });
  });
});

describe('source.web', () => {
  it('fetches through the provider with the configured timeout and size cap', async () => {
    const calls: unknown[] = [];
    const p = providers({
      fetchText: async (url, opts) => {
        calls.push({ url, maxBytes: opts.maxBytes, timeoutMs: opts.timeoutMs, signal: opts.signal instanceof AbortSignal });
        return '<!doctype html><html><body><h1>News</h1><p>Prices &amp; plans.</p><script>x()</script></body></html>';
      },
    });
    const r = await block('source.web').execute(ctx({ block: def('w', 'source.web', { url: 'https://example.com/n' }), providers: p }));
    expect(calls).toEqual([{ url: 'https://example.com/n', maxBytes: 4096, timeoutMs: 1234, signal: true }]);
    expect(r).toEqual({ status: 'succeeded', output: { text: 'News\n\nPrices & plans.', url: 'https://example.com/n' } });
  });
  it('passes plain text through and fails with the fetch error', async () => {
    const ok = providers({ fetchText: async () => 'plain <b>not html</b>' });
    const w = def('w', 'source.web', { url: 'http://example.com/' });
    expect(await block('source.web').execute(ctx({ block: w, providers: ok }))).toMatchObject({
      output: { text: 'plain <b>not html</b>' },
    });
    const bad = providers({ fetchText: async () => Promise.reject(new Error('refused to fetch from 10.0.0.1')) });
    expect(await block('source.web').execute(ctx({ block: w, providers: bad }))).toEqual({
      status: 'failed',
      error: 'source.web: refused to fetch from 10.0.0.1',
    });
  });
});

describe('source.item', () => {
  const run = (itemId: string, accountId = acme().id) =>
    block('source.item').execute(ctx({ block: def('i', 'source.item', { item_id: itemId }), db: t.db, accountId }));

  it("outputs a page's text", async () => {
    expect(await run(acme().items.about)).toEqual({
      status: 'succeeded',
      output: { text: '# About us\n\nWe make things.', item_id: acme().items.about, title: 'About us', kind: 'page' },
    });
  });
  it("outputs another item's title and fields", async () => {
    const r = await run(acme().items.deck);
    const lines = String(r.status === 'succeeded' && r.output.text).split('\n');
    // jsonb does not keep key order, so only the title's place is fixed.
    expect(lines[0]).toBe('Sales deck');
    expect(lines.slice(1).sort()).toEqual(['content_type: application/pdf', 'filename: deck.pdf', 'size_bytes: 10']);
  });
  it("fails 'item not found' for an unknown id, another account's item, or a malformed id", async () => {
    const fail = { status: 'failed', error: 'item not found' };
    expect(await run('00000000-0000-7000-8000-00000000dead')).toEqual(fail);
    expect(await run(seed.accounts.other.items.secret)).toEqual(fail);
    expect(await run('about')).toEqual(fail);
  });
});

describe('transform.template', () => {
  it('renders placeholders from the inputs', async () => {
    const r = await block('transform.template').execute(
      ctx({
        block: def('t', 'transform.template', { template: '## {{title}}\n\n{{body}}' }),
        inputs: { title: { text: 'Hi' }, body: { text: 'There {{title}}' } },
      }),
    );
    expect(r).toEqual({ status: 'succeeded', output: { text: '## Hi\n\nThere {{title}}' } });
  });
});

describe('approval', () => {
  const a = def('review', 'approval', { message: 'Publish?' });
  it('waits until approved, then passes its input through', async () => {
    const inputs = { write: { text: 'Draft' } };
    expect(await block('approval').execute(ctx({ block: a, inputs }))).toEqual({ status: 'awaiting' });
    expect(await block('approval').execute(ctx({ block: a, inputs, approved: true }))).toEqual({
      status: 'succeeded',
      output: { text: 'Draft', approved: true },
    });
  });
});

describe('output.project', () => {
  const out = def('out', 'output.project', { title: 'Weekly digest' });
  const pages = async (effectKey: string) =>
    t.db.query<{ id: string; kind: string; title: string; text: string; project_id: string; created_by_key: string | null }>(
      `select id, kind, title, text, project_id, created_by_key from content_items where attrs ->> 'effect_key' = $1`,
      [effectKey],
    );

  it('creates one page from its input, once per effectKey', async () => {
    const c = () =>
      ctx({
        block: out,
        db: t.db,
        accountId: acme().id,
        projectId: acme().projects.site,
        keyId: null,
        effectKey: 'run-1:out',
        inputs: { review: { text: '# Digest\n\nAll good.' } },
      });
    const first = await block('output.project').execute(c());
    const second = await block('output.project').execute(c());
    expect(first.status).toBe('succeeded');
    expect(second).toEqual(first);
    const rows = await pages('run-1:out');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'page', title: 'Weekly digest', text: '# Digest\n\nAll good.', project_id: acme().projects.site });
    expect(first.status === 'succeeded' && first.output).toEqual({ text: '# Digest\n\nAll good.', item_id: rows[0].id, title: 'Weekly digest' });
  });

  it('creates one page when two executions with the same effectKey race', async () => {
    const c = () =>
      ctx({ block: out, db: t.db, accountId: acme().id, projectId: acme().projects.site, effectKey: 'run-2:out', inputs: { a: { text: 'x' } } });
    const results = await Promise.all([1, 2, 3, 4].map(() => block('output.project').execute(c())));
    expect(new Set(results.map((r) => r.status === 'succeeded' && r.output.item_id)).size).toBe(1);
    expect(await pages('run-2:out')).toHaveLength(1);
  });

  it("fails when the workflow has no project, or the project is not the account's", async () => {
    const r = await block('output.project').execute(ctx({ block: out, db: t.db, accountId: acme().id, projectId: null }));
    expect(r).toEqual({ status: 'failed', error: 'workflow has no project' });
    const other = await block('output.project').execute(
      ctx({ block: out, db: t.db, accountId: acme().id, projectId: seed.accounts.other.projects.p, effectKey: 'run-3:out' }),
    );
    expect(other).toEqual({ status: 'failed', error: 'project not found' });
    expect(await pages('run-3:out')).toHaveLength(0);
  });

  it('makes no page for a run that is final already (cancelled while the block worked)', async () => {
    const accountId = acme().id;
    const [{ id: workflowId }] = await t.db.query<{ id: string }>(
      `insert into workflows (account_id, id, name, project_id) values ($1, $2, 'w', $3) returning id`,
      [accountId, uuidv7(), acme().projects.site],
    );
    const runId = uuidv7();
    await t.db.query(`insert into workflow_runs (account_id, id, workflow_id, trigger, status) values ($1, $2, $3, 'api', 'cancelled')`, [
      accountId,
      runId,
      workflowId,
    ]);
    const r = await block('output.project').execute(
      ctx({ block: out, db: t.db, accountId, projectId: acme().projects.site, runId, inputs: { a: { text: 'late' } } }),
    );
    expect(r).toEqual({ status: 'limit', error: 'Stopped: the run had already ended' });
    expect(await pages(`${runId}:out`)).toHaveLength(0);
  });

  it('refuses a page over 512 KiB', async () => {
    const r = await block('output.project').execute(
      ctx({ block: out, db: t.db, accountId: acme().id, projectId: acme().projects.site, inputs: { a: { text: 'x'.repeat(512 * 1024 + 1) } } }),
    );
    expect(r).toEqual({ status: 'failed', error: 'page too large: over 524288 bytes' });
  });
});
