// Work management made in the hub, in a real browser: an owner starts it in a project (choosing
// the key prefix), makes an item, edits its fields and assigns it to herself, comments, edits and
// deletes her comment, moves it on the board; a member comments too and finds no Edit on the owner's comment. /v1 then
// reads the item, its fields and its history as the hub wrote them. Every screen: a screenshot and
// axe (the phone walk covers these screens at 390 px).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHub, type Hub, type SeedOutput } from './harness.js';

const OWNER = { email: 'olivia@acme.example', password: 'correct horse battery staple' };
const MEMBER = { email: 'mo@acme.example', password: 'another long passphrase' };

let hub: Hub;
let ids: SeedOutput['accounts'][string];

beforeAll(async () => {
  hub = await openHub('work');
  const out = await hub.seed({
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        users: [
          { ref: 'olivia', email: OWNER.email, role: 'owner', password: OWNER.password, name: 'Olivia Owner' },
          { ref: 'mo', email: MEMBER.email, role: 'member', password: MEMBER.password, name: 'Mo Member' },
        ],
        keys: [{ ref: 'reader', name: 'Reader', scopes: ['workmgmt:read'] }],
        projects: [{ ref: 'site', name: 'Website' }],
      },
    ],
  });
  ids = out.accounts.acme;
  await hub.signIn(OWNER.email, OWNER.password);
}, 180_000);
afterAll(() => hub?.close());

async function v1<T>(url: string): Promise<T> {
  const res = await fetch(`${hub.baseUrl}/v1${url}`, { headers: { authorization: `Bearer ${ids.keys.reader}` } });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

describe('work management in the hub', { timeout: 300_000 }, () => {
  it('an owner starts it in a project, makes and edits an item, comments; /v1 reads the same', async () => {
    const { page } = hub;
    page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
    await page.goto(`${hub.baseUrl}/work`);
    await page.getByRole('heading', { name: 'Work management', level: 1 }).waitFor();
    const open = page.getByRole('form', { name: 'Use work management in a project' });
    await open.getByLabel('Project').selectOption({ label: 'Website' });
    // The prefix is suggested from the project's name; a bad one is named before it is sent.
    await expect.poll(() => open.getByLabel('Key prefix').inputValue()).toBe('WEB');
    await open.getByLabel('Key prefix').fill('1x');
    await open.getByText('A capital letter, then up to 9 capitals or digits').waitFor();
    await open.getByLabel('Key prefix').fill('site');
    expect(await hub.visit('work-open')).toEqual([]);
    await open.getByRole('button', { name: 'Start using it' }).click();
    await page.getByRole('heading', { name: 'Website (SITE)', level: 1 }).waitFor();
    await page.getByText('No items match. Make one with New item.').waitFor();
    expect(await hub.visit('work-project-empty')).toEqual([]);

    // A new item: its key comes from the project's counter.
    await page.getByRole('link', { name: 'New item' }).click();
    await page.getByRole('heading', { name: 'New item', level: 1 }).waitFor();
    await page.getByLabel('Title').fill('Write the pricing page');
    await page.getByLabel('Type').selectOption('story');
    await page.getByLabel('Points').fill('3');
    await page.getByLabel('Labels').fill('site, launch');
    await page.getByLabel('Description').fill('Three plans, **monthly** and yearly.');
    expect(await hub.visit('work-new-item')).toEqual([]);
    await page.getByRole('button', { name: 'Create item' }).click();
    await page.getByRole('heading', { name: 'SITE-1 · Write the pricing page', level: 1 }).waitFor();
    expect(await hub.visit('work-item')).toEqual([]);

    // Edit: status and due date; then assign it to herself.
    const fields = page.getByRole('form', { name: 'Item fields' });
    await fields.getByLabel('Status').selectOption({ label: 'In progress' });
    await fields.getByLabel('Due date').fill('2027-01-15');
    await fields.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('button', { name: 'Assign to me' }).click();
    await page.getByText('Assignee: Olivia Owner').waitFor();
    await page.getByText('changed the status from To do to In progress').waitFor();
    // People by name in the history, never by id.
    await page.getByText('changed the assignee from nobody to Olivia Owner').waitFor();

    // Comments: add, edit, delete her own.
    const add = page.getByRole('form', { name: 'Add a comment' });
    await add.getByLabel('Comment').fill('Draft is in the shared folder.');
    await add.getByRole('button', { name: 'Add comment' }).click();
    await page.getByText('Draft is in the shared folder.').waitFor();
    // The box empties once the comment is in: the next one starts from nothing.
    await expect.poll(() => add.getByLabel('Comment').inputValue()).toBe('');
    await add.getByLabel('Comment').fill('Second thought: wait for legal.');
    await add.getByRole('button', { name: 'Add comment' }).click();
    await page.getByText('Second thought: wait for legal.').waitFor();
    await page.getByRole('button', { name: 'Edit' }).first().click();
    const editing = page.getByRole('form', { name: 'Edit your comment' });
    await editing.getByLabel('Your comment').fill('Draft is in the shared folder (v2).');
    await editing.getByRole('button', { name: 'Save comment' }).click();
    await page.getByText('Draft is in the shared folder (v2).').waitFor();
    await page.getByText(/\(edited /).waitFor();
    await page.getByRole('button', { name: 'Delete' }).nth(1).click();
    const confirm = page.getByRole('dialog', { name: 'Delete your comment?' });
    expect(await hub.visit('work-comment-delete')).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete comment' }).click();
    await page.getByText('Second thought: wait for legal.').waitFor({ state: 'detached' });
    expect(await hub.visit('work-item-edited')).toEqual([]);

    // The board: columns by status; the card moves with its menu (the keyboard's way).
    await page.getByRole('link', { name: '← Project' }).click();
    await page.getByRole('link', { name: 'Board' }).click();
    const inProgress = page.getByRole('region', { name: /^In progress/ });
    await inProgress.getByRole('link', { name: /SITE-1/ }).waitFor();
    expect(await hub.visit('work-board')).toEqual([]);
    await inProgress.getByLabel('Move SITE-1 to').selectOption({ label: 'In review' });
    await page.getByRole('region', { name: /^In review/ }).getByRole('link', { name: /SITE-1/ }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await hub.visit('work-board-phone')).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 860 });

    // /v1 reads what the hub wrote.
    const item = await v1<{ key: string; type: string; status: string; points: number; labels: string[]; due_date: string; assignee: { name: string }; description: string; history: Array<{ kind: string; text?: string; field?: string }> }>(
      `/workmgmt/projects/${ids.projects.site}/items/SITE-1`,
    );
    expect(item).toMatchObject({
      key: 'SITE-1',
      type: 'story',
      status: 'in_review',
      points: 3,
      labels: ['site', 'launch'],
      due_date: '2027-01-15',
      assignee: { name: 'Olivia Owner' },
      description: 'Three plans, **monthly** and yearly.',
    });
    expect(item.history.filter((h) => h.kind === 'comment').map((h) => h.text)).toEqual(['Draft is in the shared folder (v2).']);
    expect(item.history.filter((h) => h.kind === 'change').map((h) => h.field)).toEqual(expect.arrayContaining(['status', 'due_date', 'assignee']));
  });

  it("a member comments, and is offered no Edit or Delete on the owner's comment", async () => {
    const { page } = hub;
    await page.context().clearCookies();
    await hub.signIn(MEMBER.email, MEMBER.password);
    await page.goto(`${hub.baseUrl}/work`);
    await page.getByRole('link', { name: 'Website' }).click();
    // Members do not start work management anywhere; they work in it.
    expect(await page.getByRole('form', { name: 'Use work management in a project' }).count()).toBe(0);
    await page.getByRole('link', { name: 'SITE-1' }).click();
    await page.getByText('Draft is in the shared folder (v2).').waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    const add = page.getByRole('form', { name: 'Add a comment' });
    await add.getByLabel('Comment').fill('Legal said yes.');
    await add.getByRole('button', { name: 'Add comment' }).click();
    await page.getByText('Legal said yes.').waitFor();
    // Her own comment offers Edit; the owner's still does not.
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(1);
    expect(await hub.visit('work-item-member')).toEqual([]);
  });
});
