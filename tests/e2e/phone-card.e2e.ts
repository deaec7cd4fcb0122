import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/auth';
import { launchBrowser, MOBILE, newSession } from './support/browser';
import { buyTokens, createNtripAccount } from './support/ntrip';

/** What sticks out sideways: the page, the dialog's scrolling body, and any tab outside the screen. */
async function sideways(page: Page, dialog: Locator): Promise<string[]> {
  const found = await dialog.evaluate((box) => {
    const out: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth) {
      // The outermost elements reaching past the screen's right edge name the cause.
      const past = [...document.body.querySelectorAll<HTMLElement>('*')].filter(
        (el) => el.getBoundingClientRect().right > window.innerWidth + 1,
      );
      const outermost = past.filter((el) => !past.includes(el.parentElement as HTMLElement));
      const names = outermost.map(
        (el) => `${el.tagName.toLowerCase()}.${el.className.split(' ').slice(0, 4).join('.')}`,
      );
      out.push(`page ${root.scrollWidth} px wide: ${names.slice(0, 5).join(', ')}`);
    }
    for (const el of box.querySelectorAll<HTMLElement>('*')) {
      if (el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
        out.push(`${el.tagName.toLowerCase()}.${el.className.split(' ').slice(0, 3).join('.')} scrolls sideways`);
    }
    for (const tab of box.querySelectorAll<HTMLElement>('[role="tab"]')) {
      const r = tab.getBoundingClientRect();
      if (r.left < 0 || r.right > window.innerWidth) out.push(`tab ${tab.textContent} at ${r.left}–${r.right} px`);
    }
    return out;
  });
  return [...new Set(found)].map((f) => `${new URL(page.url()).pathname}: ${f}`);
}

describe('the connection card on a phone (375 px)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('opens every tab of the account dialog without sideways scroll; the typed position survives a tab switch', async () => {
    const session = await newSession(browser, MOBILE);
    const { page } = session;
    await signUp(session);
    await buyTokens(session);
    await session.goto('/accounts');
    await createNtripAccount(page, 'Phone rover');

    await page.getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Phone rover' });
    const card = dialog.getByTestId('connection-card');
    await card.getByTestId('card-no-access').waitFor();
    // A position in Rotterdam picks the network to activate, and stays for the account.
    await card.getByLabel('Latitude (°):').fill('51.93');
    await card.getByLabel('Longitude (°):').fill('4.48');
    await card.getByTestId('card-no-access').getByRole('button', { name: 'Activate' }).click();
    const activate = page.getByRole('dialog', { name: 'Activate tokens' });
    await activate.getByTestId('activation-suggested').waitFor();
    expect(await activate.getByTestId('activation-suggested').textContent()).toContain('covers your position');
    expect(await sideways(page, activate)).toEqual([]);
    await activate.getByRole('button', { name: /^Activate for/ }).click();
    await page.getByRole('dialog', { name: 'Activated' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();

    // Back on the card: the position is still there, and the line sends it.
    const line = card.getByTestId('str2str-line');
    await line.waitFor();
    expect(await line.textContent()).toContain('-p 51.9300000 4.4800000');

    const problems: string[] = [];
    for (const tab of ['Usage', 'Connected now', 'Refused attempts', 'Manage', 'Connection']) {
      const button = dialog.getByRole('tab', { name: tab });
      await button.click();
      await page.waitForFunction((el) => el?.getAttribute('aria-selected') === 'true', await button.elementHandle());
      await page.waitForLoadState('networkidle');
      await session.screenshot(`account-dialog-375-${tab.toLowerCase().replaceAll(' ', '-')}`);
      problems.push(...(await sideways(page, dialog)).map((p) => `${tab}: ${p}`));
    }
    expect(problems).toEqual([]);
    expect(await card.getByLabel('Latitude (°):').inputValue()).toBe('51.93');
    expect(await line.textContent()).toContain('-p 51.9300000 4.4800000');
    await session.context.close();
  }, 180_000);
});
