// The base of unsubscribe links in a process without SWITCHBOARD_PUBLIC_URL (a development worker
// has no listener of its own): the URL the newest API process recorded in the store, read through
// a cache; the HOST/PORT one until any has. A worker that sends real email (SMTP) refuses to start
// without SWITCHBOARD_PUBLIC_URL at all.
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { forgetApiUrl, recordApiUrl } from '../../src/delivery/api-url-store.js';
import { forgetLinkBase, linkBase, unsubscribeHeaders } from '../../src/delivery/unsubscribe.js';
import { serve } from '../../src/cli/serve.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { enroll, engineTestFile, insertAutomation, outbox, startEngine, waitForRun } from '../engine/automations/support.js';

const f = engineTestFile();
const derived = loadConfig({}); // no SWITCHBOARD_PUBLIC_URL: http://127.0.0.1:8080
const TOKEN_PATH = /\/unsubscribe\/[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}$/;

beforeEach(async () => {
  await f.t.db.query('delete from api_urls');
  forgetLinkBase(f.t.db);
});

describe('links without SWITCHBOARD_PUBLIC_URL', () => {
  it('before any API process has recorded its URL: the one HOST and PORT give', async () => {
    expect(await linkBase(f.t.db, derived)).toBe('http://127.0.0.1:8080');
    const { link } = await unsubscribeHeaders(f.t.db, derived, f.w.acme, f.w.contacts.ann);
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:8080\/unsubscribe\//);
  });

  it('the URL an API process recorded where it really listens', async () => {
    await recordApiUrl(f.t.db, uuidv7(), 'https://127.0.0.1:43210');
    const { link, headers } = await unsubscribeHeaders(f.t.db, derived, f.w.acme, f.w.contacts.ann);
    expect(link.startsWith('https://127.0.0.1:43210/unsubscribe/')).toBe(true);
    expect(link).toMatch(TOKEN_PATH);
    expect(headers['List-Unsubscribe']).toBe(`<${link}>`);
  });

  it('the newest recorded wins; once that API process stops, the one still running', async () => {
    const older = uuidv7();
    const newer = uuidv7();
    await recordApiUrl(f.t.db, older, 'http://127.0.0.1:40001');
    await recordApiUrl(f.t.db, newer, 'http://127.0.0.1:40002');
    expect(await linkBase(f.t.db, derived)).toBe('http://127.0.0.1:40002');
    await forgetApiUrl(f.t.db, newer);
    forgetLinkBase(f.t.db);
    expect(await linkBase(f.t.db, derived)).toBe('http://127.0.0.1:40001');
    // A restart of the older process records it again as the newest.
    await recordApiUrl(f.t.db, newer, 'http://127.0.0.1:40003');
    await recordApiUrl(f.t.db, older, 'http://127.0.0.1:40001');
    forgetLinkBase(f.t.db);
    expect(await linkBase(f.t.db, derived)).toBe('http://127.0.0.1:40001');
  });

  it('is read through a cache, not once per message', async () => {
    await recordApiUrl(f.t.db, uuidv7(), 'http://127.0.0.1:40010');
    expect(await linkBase(f.t.db, derived)).toBe('http://127.0.0.1:40010');
    await recordApiUrl(f.t.db, uuidv7(), 'http://127.0.0.1:40011');
    expect(await linkBase(f.t.db, derived)).toBe('http://127.0.0.1:40010'); // cached
    forgetLinkBase(f.t.db); // what the cache's expiry does
    expect(await linkBase(f.t.db, derived)).toBe('http://127.0.0.1:40011');
  });

  it('SWITCHBOARD_PUBLIC_URL, when set, wins over any recorded URL', async () => {
    await recordApiUrl(f.t.db, uuidv7(), 'http://127.0.0.1:40020');
    const config = loadConfig({ SWITCHBOARD_PUBLIC_URL: 'https://hub.example.com/' });
    expect(await linkBase(f.t.db, config)).toBe('https://hub.example.com');
  });

  it('a store not migrated to this release yet (no api_urls): the one HOST and PORT give', async () => {
    await f.t.db.query('alter table api_urls rename to api_urls_hidden');
    try {
      expect(await linkBase(f.t.db, derived)).toBe('http://127.0.0.1:8080');
    } finally {
      await f.t.db.query('alter table api_urls_hidden rename to api_urls');
    }
  });

  it('an automation email sent by the engine links to the recorded URL', async () => {
    await recordApiUrl(f.t.db, uuidv7(), 'http://127.0.0.1:40030');
    const auto = await insertAutomation(f.t.db, f.w.acme, f.w.site, [{ id: 'e1', type: 'email.send', config: { subject: 'Hi', body: 'Hello {{first_name}}' } }]);
    await startEngine(f.t.db, f.engines);
    const run = await enroll(f.t.db, f.w.acme, auto, f.w.contacts.ann);
    await waitForRun(f.t.db, run, 'succeeded');
    const [mail] = await outbox(f.t.db, run);
    expect(mail.body).toMatch(/unsubscribe: http:\/\/127\.0\.0\.1:40030\/unsubscribe\/[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}\n$/);
  });
});

describe('a worker that sends real email', () => {
  const smtpWorker = {
    // Refused before the store is opened: nothing listens at this address.
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    SWITCHBOARD_EMAIL_TRANSPORT: 'smtp',
    SWITCHBOARD_SMTP_URL: 'smtp://127.0.0.1:1',
    LOG_LEVEL: 'silent',
  };

  it('refuses to start without SWITCHBOARD_PUBLIC_URL, naming it (development too)', async () => {
    let err = '';
    const code = await serve(loadConfig(smtpWorker), 'worker', { out: () => {}, err: (s) => (err += s) });
    expect(code).toBe(1);
    expect(err).toMatch(/^error: a worker that sends email over SMTP needs SWITCHBOARD_PUBLIC_URL/);
  });

  it('an API process recording its URL does not stand in for it', async () => {
    await recordApiUrl(f.t.db, uuidv7(), 'http://127.0.0.1:40040');
    let err = '';
    const code = await serve(loadConfig(smtpWorker), 'worker', { out: () => {}, err: (s) => (err += s) });
    expect(code).toBe(1);
    expect(err).toContain('SWITCHBOARD_PUBLIC_URL');
  });
});
