import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/auth';
import { launchBrowser, newSession } from './support/browser';
import { fillCard, payInPortal } from './support/checkout';

/** Seeded by seedDemoProducts (server/src/modules/billing/billing.seed.ts) in every e2e run. */
const TOKENS_100 = 'price_sbx_demo-tokens-100';
const RTK_MONTHLY = 'price_sbx_demo-sub-monthly';

type DataLayerEntry = { event?: string; value?: number; currency?: string; transactionId?: string };
const dataLayer = (page: Page) =>
  page.evaluate(() => (window as { dataLayer?: DataLayerEntry[] }).dataLayer ?? []) as Promise<DataLayerEntry[]>;

describe('billing in Chromium (sandbox provider, paid in the portal)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('buys a token pack and a subscription, sees balance, subscription and purchase events; cancels and resumes', async () => {
    const s = await newSession(browser);
    await signUp(s);

    // Token pack from /credits, paid in the portal's checkout page in the new tab the buy button opens.
    await s.goto('/credits');
    await s.page.getByTestId('token-balance').getByText('0', { exact: true }).waitFor();
    const tokenTab = await payInPortal(s.page, TOKENS_100);
    await tokenTab.getByTestId('checkout-success').waitFor();
    expect(await tokenTab.getByTestId('checkout-success').textContent()).toContain('100 tokens');
    await tokenTab.getByTestId('token-balance').getByText('100', { exact: true }).waitFor();
    // The tab with the buy button, not reloaded, shows the new balance in its header too.
    expect(s.page.url()).toMatch(/\/credits$/);
    await s.page.getByTestId('token-balance').getByText('100', { exact: true }).waitFor();
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
    await tokenTab.close();

    // Subscription from /subscriptions.
    await s.goto('/subscriptions');
    const subTab = await payInPortal(s.page, RTK_MONTHLY, '4242424242424242');
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
    await subTab.close();

    await s.goto('/credits');
    await s.page.getByTestId('credits-balance').getByText('100', { exact: true }).waitFor();

    // Saved cards: add two (the declining one is refused), make the second the default, remove the first.
    await s.goto('/settings/billing');
    const cards = s.page.getByTestId('payment-methods');
    await cards.getByText('No saved cards yet.').waitFor();
    const addCard = async (card: string, expiry: string) => {
      await cards.getByRole('button', { name: 'Add card' }).click();
      await fillCard(s.page, card, expiry);
      await cards.getByRole('button', { name: 'Save card' }).click();
    };
    await addCard('4000 0000 0000 0002', '12/34');
    await cards.getByText('Your card was declined. Try another card.').waitFor();
    await cards.getByRole('button', { name: 'Cancel' }).click();
    await addCard('4242 4242 4242 4242', '12/34');
    await cards.getByText('Visa ending in 4242').waitFor();
    await addCard('5555 5555 5555 4444', '01/35');
    await cards.getByText('Mastercard ending in 4444').waitFor();
    await cards.getByRole('button', { name: 'Make Mastercard ending in 4444 the default card' }).click();
    const mastercard = cards.getByTestId('payment-method').filter({ hasText: 'Mastercard ending in 4444' });
    await mastercard.getByText('Default', { exact: true }).waitFor();
    await cards.getByRole('button', { name: 'Remove Visa ending in 4242' }).click();
    await cards.getByText('Visa ending in 4242').waitFor({ state: 'detached' });
    expect(await cards.getByTestId('payment-method').count()).toBe(1);
    await s.page.reload();
    await mastercard.getByText('Default', { exact: true }).waitFor();
    await s.context.close();
  });

  it('a declined card leaves nothing bought', async () => {
    const s = await newSession(browser);
    await signUp(s);
    await s.goto('/credits');
    const checkout = await payInPortal(s.page, TOKENS_100, '4000 0000 0000 0002');
    await checkout.getByText('Your card was declined. Try another card.').waitFor();
    expect(checkout.url()).toContain('/checkout?checkoutSessionId=');
    await checkout.close();
    await s.goto('/credits');
    await s.page.getByTestId('credits-balance').getByText('0', { exact: true }).waitFor();
    await s.page.getByText('No token activity yet.').waitFor();
    await s.goto('/subscriptions');
    await s.page.getByText('You have no subscriptions yet.').waitFor();
    expect((await dataLayer(s.page)).filter((e) => e.event === 'tokenPurchase')).toHaveLength(0);
    await s.context.close();
  });
});
