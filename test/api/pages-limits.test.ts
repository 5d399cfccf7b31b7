// Page creation under hostile input: one account's slow sources do not hold up another account's
// pages (accounts take turns at the shared converters, and one account may not hold them all), a
// small source whose HTML would be enormous is refused 413 without the converter growing by
// gigabytes (a table is sized before it is built), the answer to a source is the same on a busy
// server as on an idle one, and a body that is not UTF-8 is 400 invalid_json instead of a page
// stored with U+FFFD in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
const RW = ['content:read' as const, 'content:write' as const];

beforeAll(async () => {
  t = await testApp();
  s = await seed(
    t.db,
    account('acme', { tier: 'enterprise', projects: ['site'], keys: [{ ref: 'main', scopes: RW }] }),
    account('noisy', { tier: 'enterprise', projects: ['p'], keys: [{ ref: 'main', scopes: RW }] }),
    account('quiet', { tier: 'enterprise', projects: ['p'], keys: [{ ref: 'main', scopes: RW }] }),
  );
});
afterAll(() => t?.close());

function post(projectId: string, payload: string | Buffer, key: string) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/projects/${projectId}/items`,
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload,
  });
}
async function pages(accountId: string): Promise<number> {
  const [r] = await t.db.query<{ n: number }>('select count(*)::int as n from content_items where account_id = $1', [accountId]);
  return r.n;
}

describe('audit3: page creation', () => {
  it('a small source whose HTML would be enormous is refused without the converter growing by gigabytes', async () => {
    // 1,000 KB of JSON body: a GFM table header of 100,000 columns, then 200,000 one-cell rows that
    // marked pads to 100,000 cells each (terabytes of HTML). The limit is checked only after the
    // conversion ends, so the worker builds HTML until the 3 s deadline: ~2 GB per request.
    const C = 100_000;
    const R = 200_000;
    const markdown = 'a|'.repeat(C) + '\n' + '-|'.repeat(C) + '\n' + 'b\n'.repeat(R);
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const before = await pages(s.acme.id);
    let res;
    try {
      res = await post(s.acme.projects.site, JSON.stringify({ title: 'Table', markdown }), s.acme.keys.main);
    } finally {
      clearInterval(sampler);
    }
    expect(await pages(s.acme.id)).toBe(before);
    expect(Buffer.byteLength(JSON.stringify({ title: 'Table', markdown }))).toBeLessThan(1_048_576);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().error).toMatchObject({ code: 'page_too_large', param: 'markdown' });
    expect((peak - base) / 2 ** 20).toBeLessThan(512);
  }, 180_000);

  it('a crafted source ("*a" × 200,000, 1.1 MB of HTML) is 413 page_too_large, also while another account keeps the converters busy', async () => {
    const crafted = JSON.stringify({ title: 'Crafted', markdown: '*a'.repeat(200_000) });
    const before = await pages(s.acme.id);
    const idle = await post(s.acme.projects.site, crafted, s.acme.keys.main);
    expect(idle.statusCode, idle.body.slice(0, 300)).toBe(413);
    expect(idle.json().error).toMatchObject({ code: 'page_too_large', param: 'markdown' });
    // Another account's sources run to the conversion budget, several at once (the machine's
    // cores busy): the crafted source gets the same answer, not 422 because it converted slowly.
    const slow = JSON.stringify({ title: 'Slow', markdown: '[a]('.repeat(4000) });
    const slows = Array.from({ length: 4 }, () => post(s.noisy.projects.p, slow, s.noisy.keys.main));
    await new Promise((r) => setTimeout(r, 100));
    const busy = await post(s.acme.projects.site, crafted, s.acme.keys.main);
    expect(busy.statusCode, busy.body.slice(0, 300)).toBe(413);
    expect(busy.json().error).toMatchObject({ code: 'page_too_large', param: 'markdown' });
    await Promise.all(slows);
    expect(await pages(s.acme.id)).toBe(before);
    // A hang's deadline, not a speed: the other account's conversions each run to 3 s of CPU time
    // (at most 60 s of wall time), which a loaded machine stretches.
  }, 600_000);

  it("another account's page is converted while one account fills the converters it may use, before any of that account's pages", async () => {
    const slow = JSON.stringify({ title: 'Slow', markdown: '[a]('.repeat(4000) });
    const order: string[] = [];
    const slows = Array.from({ length: 3 }, (_, i) =>
      post(s.noisy.projects.p, slow, s.noisy.keys.main).then((r) => {
        order.push(`noisy${i}`);
        return r;
      }),
    );
    await new Promise((r) => setTimeout(r, 100));
    const quick = await post(s.quiet.projects.p, JSON.stringify({ title: 'Quick', markdown: 'hi' }), s.quiet.keys.main);
    order.push('quiet');
    expect(quick.statusCode).toBe(201);
    // Each of noisy's sources runs to the 3 s conversion budget; quiet's page does not wait for one.
    expect((await Promise.all(slows)).map((r) => r.statusCode)).toEqual([422, 422, 422]);
    expect(order[0]).toBe('quiet');
    // A hang's deadline, not a speed: each conversion stops at 3 s of CPU time or 60 s of wall
    // time, and noisy's three take two turns, which a loaded machine (CI beside CI) stretches
    // towards the wall-time cap.
  }, 600_000);

  it('a body that is not valid UTF-8 → 400 invalid_json, not a page whose title was silently altered', async () => {
    const before = await pages(s.acme.id);
    const body = Buffer.concat([Buffer.from('{"title":"Caf'), Buffer.from([0xe9]), Buffer.from('","markdown":"x"}')]); // Latin-1 é
    const res = await post(s.acme.projects.site, body, s.acme.keys.main);
    expectError(res, 400, 'invalid_request', 'invalid_json');
    expect(await pages(s.acme.id)).toBe(before);
  });
});
