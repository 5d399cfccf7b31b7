// Try again in a real browser (issue 26, part 8). A run that failed (a fetch the address guard
// refuses) → Run again → the new run's page opens, links "Retry of run …" back to the first, which
// links "Retried as run …" to it. A text message the SMS provider refused (a local webhook that
// answers 400 once, then 200) → its page offers Re-send to the owner → the new message's page
// opens, names the message it re-sends, and is delivered while the first stays not delivered.
// Every screen: a screenshot and axe at 1280 px, the run pages at 390 px too.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { until } from '../delivery/support.js';
import { openHub, SHOTS, type Hub, type SeedOutput } from './harness.js';

const OWNER = { email: 'olivia@acme.example', password: 'a long owner passphrase' };

let hub: Hub;
let ids: SeedOutput['accounts'][string];
let provider: http.Server;
/** What the SMS provider was asked, in order; it refuses the first text and takes the rest. */
const texts: string[] = [];

beforeAll(async () => {
  provider = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      texts.push(body);
      res.writeHead(texts.length === 1 ? 400 : 200).end();
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/sms`;
  hub = await openHub('try-again', { SWITCHBOARD_SMS_TRANSPORT: 'http', SWITCHBOARD_SMS_WEBHOOK_URL: url, SWITCHBOARD_SEND_MAX_ATTEMPTS: '1' });
  const out = await hub.seed({
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        credit_micros: 50_000_000,
        users: [{ ref: 'olivia', email: OWNER.email, role: 'owner', name: 'Olivia Owner', password: OWNER.password }],
        keys: [{ ref: 'crm', name: 'CRM', scopes: ['automations:enroll'] }],
        projects: [{ ref: 'site', name: 'Website' }],
        workflows: [
          // A private address: the fetch guard refuses it, so the run fails at once (no traffic).
          { ref: 'broken', name: 'Fetch the intranet', status: 'active', blocks: [{ id: 'fetch', kind: 'source.web', config: { url: 'http://127.0.0.1:9/' } }] },
        ],
        contacts: [{ ref: 'sam', email: 'sam@example.org', first_name: 'Sam', phone: '+15550100007', sms_consent: 'granted' }],
        automations: [
          {
            ref: 'remind',
            name: 'Reminder',
            project: 'site',
            status: 'published',
            trigger: { type: 'manual', label: 'Enrolled by hand' },
            steps: [{ id: 's1', name: 'Reminder text', type: 'sms.send', config: { body: 'Your appointment is tomorrow.' } }],
          },
        ],
      },
    ],
  });
  ids = out.accounts.acme;
  hub.page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await hub.signIn(OWNER.email, OWNER.password);
}, 180_000);

afterAll(async () => {
  await hub?.close();
  await new Promise<void>((resolve) => (provider ? provider.close(() => resolve()) : resolve()));
});

beforeEach(() => {
  onTestFailed(async () => {
    await hub.page.screenshot({ path: path.join(SHOTS, 'try-again', 'failed.png'), fullPage: true }).catch(() => {});
    console.error(`page at failure: ${hub.page.url()}\n${await hub.page.locator('body').innerText().catch(() => '')}`);
  });
});

const onRunPage = (u: URL) => /^\/runs\/[0-9a-f-]{36}$/.test(u.pathname);
const onMessagePage = (u: URL) => /^\/messages\/[0-9a-f-]{36}$/.test(u.pathname);

describe('try again', { timeout: 240_000 }, () => {
  it('a failed run → Run again opens the retry, which links back as "Retry of run …"', async () => {
    const { page, baseUrl } = hub;
    await page.goto(`${baseUrl}/workflows/${ids.workflows.broken}`);
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.waitForURL(onRunPage);
    const first = new URL(page.url()).pathname;
    await page.locator('.page-head .badge', { hasText: 'failed' }).waitFor({ timeout: 60_000 });
    expect(await hub.visit('failed-run')).toEqual([]);

    await page.getByRole('button', { name: 'Run again' }).click();
    await page.waitForURL((u) => onRunPage(u) && u.pathname !== first);
    const retry = new URL(page.url()).pathname;
    const back = page.getByRole('link', { name: `Retry of run ${first.slice(-8)}` });
    await back.waitFor();
    await page.locator('.page-head .badge', { hasText: 'failed' }).waitFor({ timeout: 60_000 });
    expect(await hub.visit('retry')).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await hub.visit('retry-390')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 860 });

    await back.click();
    await page.waitForURL((u) => u.pathname === first);
    await page.getByRole('link', { name: `Retried as run ${retry.slice(-8)}` }).waitFor();
  });

  it('a text the provider refused → Re-send opens the new message, which is delivered', async () => {
    const { page, baseUrl } = hub;
    const enrolled = await fetch(`${baseUrl}/v1/automations/${ids.automations.remind}/enrollments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ids.keys.crm}`, 'content-type': 'application/json', 'idempotency-key': 'try-again-enroll-1' },
      body: JSON.stringify({ contact_ids: [ids.contacts.sam] }),
    });
    expect(enrolled.status, await enrolled.text()).toBe(200);
    // The engine runs the step, the sender asks the provider, which refuses: the message fails.
    const failedId = await until(async () => {
      const res = await page.request.get(`${baseUrl}/hub/api/messages?status=failed`);
      const list = (await res.json()) as { data: { id: string }[] };
      return list.data[0]?.id;
    }, 60_000, 'the refused text to be failed');

    await page.goto(`${baseUrl}/messages/${failedId}`);
    await page.locator('.badge-failed', { hasText: 'Not delivered' }).first().waitFor();
    expect(await hub.visit('failed-message')).toEqual([]);
    await page.getByRole('button', { name: 'Re-send', exact: true }).click();
    await page.waitForURL((u) => onMessagePage(u) && !u.pathname.endsWith(failedId));
    await page.getByRole('link', { name: 'Re-send of an earlier message' }).waitFor();
    // Queued, then delivered: the page reads the message again (every 10 s) until it is settled.
    await page.locator('.badge-sent', { hasText: 'Sent' }).waitFor({ timeout: 60_000 });
    expect(texts).toHaveLength(2);
    expect(JSON.parse(texts[1]).message_id).toBe(JSON.parse(texts[0]).message_id);
    expect(await hub.visit('re-sent-message')).toEqual([]);

    await page.getByRole('link', { name: 'Re-send of an earlier message' }).click();
    await page.waitForURL((u) => u.pathname.endsWith(failedId));
    await page.getByRole('link', { name: 'Re-sent as a new message' }).waitFor();
    expect(await page.getByRole('button', { name: /^Re-send/ }).count()).toBe(0);
  });
});
