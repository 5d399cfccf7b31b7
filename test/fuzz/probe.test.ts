import { it } from 'vitest';
import { testApp } from '../helpers/app.js';
import { buildWorld } from './world.js';
it('probe', async () => {
  const t = await testApp();
  const w = await buildWorld(t.db);
  const h = { authorization: `Bearer ${w.keys.main}` };
  for (const url of ['/v1/usage', '/v1/usage?from=0001-01-01&to=9999-12-31', '/v1/usage?from=0001-01-01', '/v1/usage?to=9999-12-31', '/v1/contacts?changed_since=0001-01-01T00:00:00Z', '/v1/contacts?q=a%25', '/v1/workflows?limit=100']) {
    const t0 = Date.now();
    const r = await t.app.inject({ method: 'GET', url, headers: h });
    console.log(url, Date.now() - t0, 'ms', r.statusCode, r.body.length, r.body.slice(0, 200));
  }
  await t.close();
}, 300_000);
