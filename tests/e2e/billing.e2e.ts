import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/auth';
import { launchBrowser, newSession } from './support/browser';

/** Seeded by seedDemoProducts (server/src/modules/billing/billing.seed.ts) in every e2e run. */
const TOKENS_100 = 'price_sbx_demo-tokens-100';
const RTK_MONTHLY = 'price_sbx_demo-sub-monthly';

type DataLayerEntry = { event?: string; value?: number; currency?: string; transactionId?: string };
const dataLayer = (page: Page) =>
  page.evaluate(() => (window as { dataLayer?: DataLayerEntry[] }).dataLayer ?? []) as Promise<DataLayerEntry[]>;

/**
 * Clicks Buy and pays on the sandbox checkout page with the card. The page opens in a new tab, or in this window
 * when the browser blocks the tab (spec §4); answers the page that shows the checkout.
 */
async function buyInSandbox(page: Page, priceId: string, card: string): Promise<Page> {
  const button = page.getByTestId(`buy-${priceId}`).first();
  await button.waitFor();
  const newTab = page
    .context()
    .waitForEvent('page', { timeout: 20_000 })
    .catch(() => undefined);
  const sameWindow = page
    .waitForURL(/\/api\/sandbox\/checkout\//, { timeout: 20_000 })
    .then(() => page)
    .catch(() => undefined);
  await button.click();
  const checkout = await Promise.race([newTab, sameWindow]);
  if (!checkout) throw new Error(`no checkout page opened; still at ${page.url()}`);
  await checkout.waitForLoadState();
  if (!checkout.url().includes('/api/sandbox/checkout/')) await checkout.waitForURL(/\/api\/sandbox\/checkout\//);
  await checkout.locator('#card').fill(card);
  await checkout.locator('#pay').click();
  return checkout;
}

describe('billing in Chromium (sandbox checkout)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('buys a token pack and a subscription, sees balance, subscription and purchase events; cancels and resumes', async () => {
    const s = await newSession(browser);
    await signUp(s);

    // Token pack from /credits.
    await s.goto('/credits');
    const tokenTab = await buyInSandbox(s.page, TOKENS_100, '4242 4242 4242 4242');
    await tokenTab.waitForURL(/\/checkout\?checkoutSessionId=/);
    await tokenTab.getByTestId('checkout-success').waitFor();
    expect(await tokenTab.getByTestId('checkout-success').textContent()).toContain('100 tokens');
    await tokenTab.getByTestId('token-balance').getByText('100', { exact: true }).waitFor();
    const tokenEvents = (await dataLayer(tokenTab)).filter((e) => e.event === 'tokenPurchase');
    expect(tokenEvents).toEqual([
      expect.objectContaining({
        event: 'tokenPurchase',
        value: 10,
        currency: 'EUR',
        transactionId: expect.any(String),
      }),
    ]);
    // A reload of the return page does not report the purchase again.
    await tokenTab.reload();
    await tokenTab.getByTestId('checkout-success').waitFor();
    expect((await dataLayer(tokenTab)).filter((e) => e.event === 'tokenPurchase')).toHaveLength(0);

    // Subscription from /subscriptions.
    await s.goto('/subscriptions');
    const subTab = await buyInSandbox(s.page, RTK_MONTHLY, '4242424242424242');
    await subTab.getByTestId('checkout-success').waitFor();
    const subEvents = (await dataLayer(subTab)).filter((e) => e.event === 'subscriptionPurchase');
    expect(subEvents).toEqual([expect.objectContaining({ value: 49, currency: 'EUR' })]);
    await subTab.getByTestId('checkout-continue').click();
    await subTab.waitForURL(/\/subscriptions$/);
    await subTab.getByText('Active', { exact: true }).first().waitFor();

    // Cancel, then resume.
    await subTab.getByRole('button', { name: 'Cancel', exact: true }).first().click();
    await subTab.getByText('Cancels at period end').first().waitFor();
    await subTab.getByRole('button', { name: 'Resume', exact: true }).first().click();
    await subTab.getByText('Active', { exact: true }).first().waitFor();
    await subTab.screenshot({ path: 'artifacts/screenshots/billing-subscriptions-1440.png' }).catch(() => undefined);

    // The header of the first tab shows the balance too once it refreshes.
    await s.goto('/credits');
    await s.page.getByTestId('credits-balance').getByText('100', { exact: true }).waitFor();
    await s.context.close();
  });

  it('a declined card leaves nothing bought', async () => {
    const s = await newSession(browser);
    await signUp(s);
    await s.goto('/credits');
    const tab = await buyInSandbox(s.page, TOKENS_100, '4000 0000 0000 0002');
    await tab.getByText('Your card was declined.').waitFor();
    expect(tab.url()).toContain('/api/sandbox/checkout/');
    await s.page.reload();
    await s.page.getByTestId('credits-balance').getByText('0', { exact: true }).waitFor();
    await s.page.getByText('No token activity yet.').waitFor();
    await s.goto('/subscriptions');
    await s.page.getByText('You have no subscriptions yet.').waitFor();
    expect((await dataLayer(s.page)).filter((e) => e.event === 'tokenPurchase')).toHaveLength(0);
    await s.context.close();
  });
});
