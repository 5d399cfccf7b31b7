// Journeys and messages in a real browser (issue 25, item 4). An account with a published welcome
// automation whose email is hostile (a script, a tracking image, a form and a meta refresh, all
// aimed at tracker.example): a contact created on the New contact page → the engine runs the
// automation → its timeline shows the run and the message → the message page shows the whole
// recipient and the body in a sandboxed frame that runs nothing and loads nothing (no request
// leaves for tracker.example; the body is served under its own CSP) → the run page says each step in words → back through the
// automation's runs and the Messages list. A member sees the message masked and without its body.
// Every screen: a screenshot and axe at 1280 and 390 px, and no horizontal scroll at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../delivery/support.js';
import { openHub, type Hub, type SeedOutput } from './harness.js';

const OWNER = { email: 'olivia@acme.example', password: 'correct horse battery staple' };
const MEMBER = { email: 'milo@acme.example', password: 'another long passphrase' };
const EMAIL = 'nina.new@example.org';
const TRACKER = 'tracker.example';
const HOSTILE_BODY =
  '<p>Hello {{first_name}}, welcome aboard.</p>' +
  `<script>document.body.setAttribute('data-ran', 'yes'); fetch('https://${TRACKER}/script');</script>` +
  `<img src="https://${TRACKER}/pixel.png" alt="">` +
  `<form action="https://${TRACKER}/form"><button>Go</button></form>` +
  `<meta http-equiv="refresh" content="0;url=https://${TRACKER}/refresh">`;

let hub: Hub;
let seeded: SeedOutput['accounts'][string];
/** Every URL the browser asked for, to show none went to the tracker. */
const requested: string[] = [];
/** Requests the frame's CSP stopped before they were sent. */
const blocked: string[] = [];
/** Requests to the tracker that got as far as the network. */
const reached: string[] = [];

beforeAll(async () => {
  hub = await openHub('journeys');
  const out = await hub.seed({
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        users: [
          { ref: 'olivia', email: OWNER.email, role: 'owner', password: OWNER.password, name: 'Olivia Owner' },
          { ref: 'milo', email: MEMBER.email, role: 'member', password: MEMBER.password, name: 'Milo Member' },
        ],
        projects: [{ ref: 'site', name: 'Website' }],
        automations: [
          {
            ref: 'welcome',
            name: 'Welcome series',
            project: 'site',
            status: 'published',
            trigger: { type: 'contact.created', label: 'Contact is created', config: {} },
            steps: [
              { id: 'e1', name: 'Welcome email', type: 'email.send', config: { subject: 'Welcome, {{first_name}}', body: HOSTILE_BODY } },
              { id: 't1', name: 'Tag as new', type: 'tag.add', config: { tag: 'new' } },
              { id: 'w1', name: 'Two days', type: 'wait', config: { duration: 'P2D' } },
              { id: 'e2', name: 'Tips email', type: 'email.send', config: { subject: 'Tips', body: 'Some tips.' } },
            ],
          },
        ],
      },
    ],
  });
  seeded = out.accounts.acme;
  hub.context.on('request', (r) => requested.push(r.url()));
  hub.context.on('requestfailed', (r) => {
    if (r.failure()?.errorText === 'csp') blocked.push(r.url());
  });
  // A request the page really sends to the network passes here (one a CSP blocks never does).
  await hub.context.route((url) => url.hostname === TRACKER, async (route) => {
    reached.push(route.request().url());
    await route.abort();
  });
  await hub.signIn(OWNER.email, OWNER.password);
}, 180_000);

afterAll(async () => {
  await hub?.close();
});

/** axe at 1280 px, then at 390 px with no horizontal scroll; back to 1280. */
async function visitBothWidths(name: string): Promise<void> {
  const page = hub.page;
  expect(await hub.visit(name)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    expect(await hub.visit(`${name}-390`)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
  } finally {
    await page.setViewportSize({ width: 1280, height: 860 });
  }
}

/** What the browser asked of the tracker, sent or stopped. */
const toTracker = () => requested.filter((u) => new URL(u).hostname === TRACKER);

describe('journeys and messages', { timeout: 240_000 }, () => {
  let contactId: string;
  let messageUrl: string;

  it("a new contact's timeline shows its run and its welcome email, newest first", async () => {
    const page = hub.page;
    await page.goto(`${hub.baseUrl}/contacts/new`);
    await page.getByLabel('Email', { exact: true }).fill(EMAIL);
    await page.getByLabel('First name').fill('Nina');
    await page.getByRole('button', { name: 'Create contact' }).click();
    await page.getByRole('heading', { name: 'Nina', level: 1 }).waitFor();
    contactId = page.url().split('/').at(-1)!;
    const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
    // The engine runs the automation and the sender settles the email: reload until both show.
    await until(async () => {
      const text = (await timeline.count()) ? await timeline.innerText() : '';
      if (/Email “Welcome, Nina”[\s\S]*Sent/.test(text) && /Automation “Welcome series”[\s\S]*Waiting/.test(text)) return true;
      await page.reload();
      await page.waitForLoadState('networkidle');
      return false;
    }, 60_000, 'the run and the message on the timeline');
    const text = await timeline.innerText();
    // Newest first: the message (queued after the run started) above the run; the creation (audited
    // in the transaction that enrolled the contact) is there too.
    expect(text.indexOf('Email “Welcome, Nina”')).toBeLessThan(text.indexOf('Automation “Welcome series”'));
    expect(text).toContain('Created by Olivia Owner');
    await visitBothWidths('contact-timeline');
  });

  it('the message page shows the whole recipient and the body sandboxed: nothing runs, nothing loads', async () => {
    const page = hub.page;
    await page.getByRole('link', { name: 'Email “Welcome, Nina”' }).click();
    await page.getByRole('heading', { name: 'Email: Welcome, Nina', level: 1 }).waitFor();
    messageUrl = page.url();
    expect(messageUrl).toMatch(/\/messages\/[0-9a-f-]{36}$/);
    await page.getByText(EMAIL, { exact: true }).waitFor();
    await page.locator('main').getByText('Kept in the outbox: not delivered', { exact: true }).waitFor();
    const frame = page.locator('iframe[title="Body of “Welcome, Nina”"]');
    expect(await frame.getAttribute('sandbox')).toBe('');
    const src = (await frame.getAttribute('src')) ?? '';
    expect(src).toMatch(/^\/hub\/api\/messages\/[0-9a-f-]{36}\/body$/);
    // What serves the body does so under a policy that loads nothing and runs nothing.
    const served = await page.request.get(`${hub.baseUrl}${src}`);
    expect(served.headers()['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; form-action 'none'; base-uri 'none'; frame-ancestors 'self'; sandbox",
    );
    const body = page.frameLocator('iframe[title="Body of “Welcome, Nina”"]').locator('body');
    await body.getByText('Hello Nina, welcome aboard.').waitFor();
    // The attempt: answered by the outbox (development).
    await expect(page.getByRole('list', { name: 'Delivery attempts, oldest first' }).innerText()).resolves.toMatch(/Attempt 1[\s\S]*Accepted[\s\S]*the outbox/);
    await visitBothWidths('message');
    // The image was tried and stopped by the policy (the last thing before the refresh); the
    // script did not run, and nothing got out to the tracker.
    await until(async () => blocked.includes(`https://${TRACKER}/pixel.png`), 30_000, 'the image blocked by the CSP');
    expect(await body.getAttribute('data-ran')).toBeNull();
    expect(page.url()).toBe(messageUrl);
    expect(toTracker().every((u) => blocked.includes(u))).toBe(true);
    expect(reached).toEqual([]);
  });

  it('the run page says what each step did, and links the message and the contact', async () => {
    const page = hub.page;
    await page.getByRole('link', { name: 'the run' }).click();
    await page.getByRole('heading', { name: 'Welcome series for Nina', level: 1 }).waitFor();
    const steps = page.getByRole('list', { name: 'Steps, in the order they ran' });
    await expect(steps.innerText()).resolves.toMatch(
      /Started: Contact is created[\s\S]*Welcome email[\s\S]*Sent the email “Welcome, Nina”[\s\S]*Tag as new[\s\S]*Added the tag “new”[\s\S]*Two days[\s\S]*Waiting[\s\S]*Waiting 2 days/,
    );
    // Words for people: no step type ids on screen.
    expect(await page.locator('main').innerText()).not.toMatch(/email\.send|tag\.add|\bwait\b/);
    await visitBothWidths('automation-run');
    await page.getByRole('link', { name: 'See the email' }).click();
    await page.waitForURL(messageUrl);
    await page.goBack();
    await page.getByRole('link', { name: 'Nina', exact: true }).click();
    await page.waitForURL(`${hub.baseUrl}/contacts/${contactId}`);
  });

  it("an automation's runs and the Messages list open the run's and the message's pages", async () => {
    const page = hub.page;
    await page.goto(`${hub.baseUrl}/automations/${seeded.automations.welcome}`);
    await page.getByRole('link', { name: /^Run of Nina, started / }).click();
    await page.getByRole('heading', { name: 'Welcome series for Nina', level: 1 }).waitFor();
    await page.goto(`${hub.baseUrl}/messages`);
    await page.getByRole('link', { name: /^Message of / }).first().click();
    await page.waitForURL(messageUrl);
    expect(reached).toEqual([]);
  });

  it('a member sees the message with the recipient masked and no body', async () => {
    const page = hub.page;
    await hub.signIn(MEMBER.email, MEMBER.password);
    await page.goto(messageUrl);
    await page.getByRole('heading', { name: 'Email: Welcome, Nina', level: 1 }).waitFor();
    await page.getByText('n***@example.org').waitFor();
    await page.getByText('Only owners and admins can read a message’s body.').waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
    expect(await page.content()).not.toContain(EMAIL);
    await visitBothWidths('message-member');
    await hub.signIn(OWNER.email, OWNER.password);
  });
});
