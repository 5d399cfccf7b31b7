// The automation builder publishes more than once in one visit: version 1, an edit, then
// "Publish…" opens the review of version 2 without a reload, and publishing it says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hub } from './harness.js';
import { openWithDrip } from './automation-builder-support.js';

describe('publishing again in the same visit', { timeout: 180_000 }, () => {
  let hub: Hub;
  let automationId: string;

  beforeAll(async () => {
    ({ hub, automationId } = await openWithDrip('automation-publish-again'));
  }, 180_000);

  afterAll(async () => {
    await hub?.close();
  });

  it('publishes version 1, takes an edit, and opens the review of version 2 at once', async () => {
    const page = hub.page;
    await page.goto(`${hub.baseUrl}/automations/${automationId}/build`);
    await page.getByRole('heading', { name: 'Drip', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Publish…' }).click();
    const first = page.getByRole('dialog', { name: 'Publish version 1?' });
    await first.getByRole('button', { name: 'Publish version 1' }).click();
    await page.getByText('Version 1 published.').waitFor();
    await first.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Edit settings of First email' }).click();
    await page.getByRole('textbox', { name: 'Subject' }).fill('Hello again');
    // Publish… pressed straight after typing: the draft is saved first, then the review opens.
    await page.getByRole('button', { name: 'Publish…' }).click();
    const second = page.getByRole('dialog', { name: 'Publish version 2?' });
    await second.getByRole('list', { name: 'Changes to First email' }).waitFor();
    expect(await hub.visit('publish-v2-same-visit')).toEqual([]);
    await second.getByRole('button', { name: 'Publish version 2' }).click();
    await page.getByText('Version 2 published.').waitFor();
    await second.waitFor({ state: 'hidden' });
  });
});
