// Versioning (spec: Versioning; docs/architecture.md §6.1): a retirement entry makes its route
// answer with Deprecation, Sunset and Link rel="sunset", on that route only; CHANGELOG.md lists the
// v1 releases in the spec's order and every retirement the server announces.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { RETIREMENTS } from '../../src/http/retirements.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, seed } from './fixtures.js';

const RETIREMENT = {
  method: 'GET',
  url: '/v1/workflows/:id',
  announced: '2026-01-15',
  sunset: '2027-01-15',
  link: 'https://example.test/changelog#x',
};

describe('retirement headers', () => {
  let t: TestApp;
  let plain: TestApp;
  let a: AccountSeedResult;
  let p: AccountSeedResult;
  beforeAll(async () => {
    t = await testApp({}, { retirements: [RETIREMENT] });
    plain = await testApp();
    ({ a } = await seed(t.db, account('a', { workflows: [{ ref: 'w' }] })));
    ({ p } = await seed(plain.db, account('p', { workflows: [{ ref: 'w' }] })));
  });
  afterAll(async () => {
    await t?.close();
    await plain?.close();
  });

  it('the retired route answers with Deprecation, Sunset and Link rel="sunset"', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/workflows/${a.workflows.w}`, headers: bearer(a.keys.main) });
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBe(`@${Date.UTC(2026, 0, 15) / 1000}`);
    expect(res.headers.deprecation).toBe('@1768435200');
    expect(res.headers.sunset).toBe('Fri, 15 Jan 2027 00:00:00 GMT');
    expect(res.headers.sunset).toBe(new Date(Date.UTC(2027, 0, 15)).toUTCString());
    expect(res.headers.link).toBe('<https://example.test/changelog#x>; rel="sunset"');
  });

  it('other routes carry none of them', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/workflows', headers: bearer(a.keys.main) });
    expect(res.statusCode).toBe(200);
    for (const h of ['deprecation', 'sunset', 'link']) expect(res.headers[h]).toBeUndefined();
  });

  it('with no retirement (the shipped list) no route carries them', async () => {
    for (const url of ['/v1/workflows', `/v1/workflows/${p.workflows.w}`]) {
      const res = await plain.app.inject({ method: 'GET', url, headers: bearer(p.keys.main) });
      expect(res.statusCode).toBe(200);
      for (const h of ['deprecation', 'sunset', 'link']) expect(res.headers[h]).toBeUndefined();
    }
  });
});

describe('CHANGELOG.md', () => {
  const file = new URL('../../CHANGELOG.md', import.meta.url);
  const text = () => fs.readFileSync(file, 'utf8');

  /** Headings and list items, each with the lines that follow it. */
  function entries(md: string): string[] {
    const out: string[] = [];
    for (const line of md.split('\n')) {
      if (/^(#{2,4}\s|\s{0,3}(\d+[.)]|[-*+])\s)/.test(line)) out.push(line);
      else if (out.length) out[out.length - 1] += `\n${line}`;
    }
    return out;
  }

  // The spec's release history, in order; an entry is classified by the first rule it matches
  // (later releases first, since their entries may mention earlier resources).
  const RELEASES: Array<[number, RegExp]> = [
    [6, /automations?\b/i],
    [5, /work[- ]?management|workmgmt/i],
    [4, /\bcontacts\b/i],
    [3, /\bcontent\b|page creation/i],
    [2, /\busage\b/i],
    [1, /first release|initial release|workflow list/i],
  ];
  const classify = (entry: string) => RELEASES.find(([, re]) => re.test(entry))?.[0] ?? null;

  it('exists at the repository root', () => {
    expect(fs.existsSync(file)).toBe(true);
  });

  it('lists the six v1 releases in the spec order', () => {
    const found = entries(text()).map(classify).filter((n): n is number => n !== null);
    const firsts = [1, 2, 3, 4, 5, 6].map((n) => found.indexOf(n));
    expect(firsts.every((i) => i >= 0)).toBe(true);
    expect(firsts).toEqual([...firsts].sort((x, y) => x - y));
    expect(new Set(found)).toEqual(new Set([1, 2, 3, 4, 5, 6]));
  });

  it('names the contents of each release', () => {
    const md = text();
    for (const words of [
      ['API key', 'workflow'],
      ['run', 'usage', 'spend cap'],
      ['project', 'item', 'page'],
      ['contact', 'create', 'update'],
      ['sprint', 'key'],
      ['automation', 'enroll'],
    ]) {
      for (const w of words) expect(md.toLowerCase()).toContain(w.toLowerCase());
    }
  });

  it('lists every retirement the server announces', () => {
    const md = text();
    for (const r of RETIREMENTS) {
      expect(md).toContain(r.url.replace(/^\/v1/, '').replace(/:(\w+)/g, '{$1}'));
      expect(md).toContain(r.sunset);
    }
  });
});
