// Requests to the routes the OpenAPI document leaves out (hidden: they take no API key and have
// checks of their own): unsubscribe links, the inbound SMS webhook, webhook triggers. No schema
// to check them against, so only the general rules: no 5xx, an X-Request-Id, and errors in the
// catalogue's body.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/db/db.js';
import { unsubscribeToken } from '../../src/delivery/unsubscribe.js';
import type { Violation } from './oracle.js';
import { errorBodyViolations } from './oracle.js';
import type { ApiDocument } from './document.js';
import type { Prng } from './prng.js';
import { oddString, uniqueEmail } from './values.js';

export const INBOUND_SECRET = 'fuzz-inbound-secret-0123456789';

export async function unsubscribeTokens(db: Db, accountId: string, contactIds: string[]): Promise<string[]> {
  return Promise.all(contactIds.map((c) => unsubscribeToken(db, accountId, c)));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function offDocumentRequest(rng: Prng, tokens: string[]): { route: string; req: InjectOptions } {
  const remoteAddress = `127.1.${rng.int(0, 255)}.${rng.int(1, 254)}`;
  const token = () => {
    const real = tokens.length ? rng.pick(tokens) : 'x';
    return rng.pick([real, real, real.slice(0, -1) + (real.endsWith('A') ? 'B' : 'A'), 'garbage', '%zz', 'a'.repeat(3000), encodeURIComponent(oddString(rng).replace(/[\ud800-\udfff]/g, '?')) || 'x']);
  };
  const sms = () =>
    rng.pick<unknown>([
      { from: `+1555${rng.int(1000000, 9999999)}`, text: rng.pick(['STOP', 'start', ' Stop! ', 'hello', 'UNSUBSCRIBE', '']) },
      { from: '', text: 'STOP' },
      { from: oddString(rng), text: oddString(rng) },
      { from: '123', text: 'STOP', provider_id: 'x' },
      { text: 'STOP' },
      [],
      null,
    ]);
  const hookBody = () =>
    rng.pick<unknown>([{ email: uniqueEmail(rng) }, { email: 'not an email' }, { email: uniqueEmail(rng), extra: 1 }, { email: uniqueEmail(rng), first_name: oddString(rng) }, {}]);
  const kind = rng.int(0, 3);
  if (kind === 0) {
    return { route: 'GET /unsubscribe/:token', req: { method: rng.pick(['GET', 'GET', 'PUT', 'DELETE']), url: `/unsubscribe/${token()}`, remoteAddress } };
  }
  if (kind === 1) {
    const [payload, ct] = rng.pick<[string | undefined, string | undefined]>([
      ['List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded'],
      ['--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--', 'multipart/form-data; boundary=x'],
      [undefined, undefined],
      ['{}', 'application/json'],
      ['x'.repeat(9000), 'text/plain'],
      ['<a/>', 'application/xml'],
    ]);
    return { route: 'POST /unsubscribe/:token', req: { method: 'POST', url: `/unsubscribe/${token()}`, payload, headers: ct ? { 'content-type': ct } : {}, remoteAddress } };
  }
  if (kind === 2) {
    const secret = rng.pick([INBOUND_SECRET, INBOUND_SECRET, 'wrong', '']);
    const body = rng.chance(0.1) ? `{"from":"+15550100","text":"${'x'.repeat(17_000)}"}` : JSON.stringify(sms());
    return {
      route: 'POST /inbound/sms',
      req: { method: 'POST', url: '/inbound/sms', payload: body, headers: { 'content-type': rng.pick(['application/json', 'application/json', 'text/plain']), ...(secret ? { 'x-switchboard-inbound-secret': secret } : {}) }, remoteAddress },
    };
  }
  const body = rng.chance(0.1) ? `{"email":"a@b.example","first_name":"${'x'.repeat(17_000)}"}` : JSON.stringify(hookBody());
  return { route: 'POST /hooks/automations/:secret', req: { method: 'POST', url: `/hooks/automations/${rng.hex(rng.pick([8, 43, 300]))}`, payload: body, headers: { 'content-type': 'application/json' }, remoteAddress } };
}

export function checkOffDocument(res: LightMyRequestResponse, doc: ApiDocument): Violation[] {
  const out: Violation[] = [];
  if (res.statusCode >= 500) out.push({ check: 'no-5xx', detail: `answered ${res.statusCode}` });
  const rid = res.headers['x-request-id'];
  if (typeof rid !== 'string' || !UUID.test(rid)) out.push({ check: 'x-request-id', detail: `X-Request-Id is ${JSON.stringify(rid)}` });
  if (res.statusCode >= 400) out.push(...errorBodyViolations(res, doc));
  return out;
}
