import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/auth';
import { launchBrowser, newSession } from './support/browser';

describe('organisations in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('creates an organisation, invites a colleague who accepts, and both see it', async () => {
    const owner = await newSession(browser);
    await signUp(owner);
    await owner.goto('/settings/organization');
    const name = `Polder Surveys ${Date.now() % 100000}`;
    await owner.page.getByRole('button', { name: 'Create organisation' }).first().click();
    await owner.page.getByLabel('Organisation name:').fill(name);
    await owner.page.getByRole('dialog').getByRole('button', { name: 'Create organisation' }).click();
    await owner.page.getByRole('heading', { name: 'Organisation Created' }).waitFor();
    // The dialog fades in: wait for the message to show rather than sampling it once.
    await owner.page.getByText(`Your organisation, ${name}, has been created.`).waitFor();
    const events = await owner.page.evaluate(() => (window as { dataLayer?: unknown[] }).dataLayer ?? []);
    expect(events).toContainEqual(expect.objectContaining({ event: 'organizationCreated', name }));
    await owner.page.getByRole('button', { name: 'Visit Organisation' }).click();
    await owner.page.waitForURL(/\/settings\/organization\?org=/);

    const colleague = await newSession(browser);
    const colleagueAccount = await signUp(colleague);
    await owner.page.getByLabel('Invite by e-mail:').fill(colleagueAccount.email);
    await owner.page.getByRole('button', { name: 'Send invitation' }).click();
    await owner.page.getByText(colleagueAccount.email.toLowerCase()).first().waitFor();

    await colleague.goto('/settings/organization');
    await colleague.page.getByText(`${name} invited you to join.`).waitFor();
    await colleague.page.getByRole('button', { name: 'Accept', exact: true }).click();
    await colleague.page.getByRole('heading', { name: `Members of ${name}` }).waitFor();

    await owner.page.reload();
    await owner.page.getByText('Accepted').first().waitFor();
    await owner.screenshot('organization-1440');
    await owner.context.close();
    await colleague.context.close();
  });

  it('explains a taken name and keeps it for Try Again', async () => {
    const s = await newSession(browser);
    await signUp(s);
    await s.goto('/settings/organization');
    const taken = `Taken ${Date.now() % 100000}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      await s.page.getByRole('button', { name: 'Create organisation' }).first().click();
      await s.page.getByLabel('Organisation name:').fill(taken);
      await s.page.getByRole('dialog').getByRole('button', { name: 'Create organisation' }).click();
      if (attempt === 0) {
        await s.page.getByRole('button', { name: 'Visit Organisation' }).click();
      }
    }
    await s.page.getByRole('heading', { name: 'Organisation Creation Failed' }).waitFor();
    await s.page.getByText('This name is already taken.').waitFor();
    await s.page.getByRole('button', { name: 'Try Again' }).click();
    await expect(s.page.getByLabel('Organisation name:').inputValue()).resolves.toBe(taken);
    await s.context.close();
  });
});
