import type { Page } from 'playwright-core';

/**
 * Buys with the Buy button of `priceId` on `page` and pays in the portal's own checkout page, which the button opens
 * in a new tab (spec §4), with the sandbox provider's card form (docs/adr/0031). Resolves with that tab once the
 * payment was answered; the caller waits there for success or the refusal it expects, and `page` stays where it was.
 */
export async function payInPortal(page: Page, priceId: string, card = '4242 4242 4242 4242'): Promise<Page> {
  const opened = page.context().waitForEvent('page');
  await page.getByTestId(`buy-${priceId}`).first().click();
  const tab = await opened;
  await tab.waitForURL(/\/checkout\?checkoutSessionId=/);
  await fillCard(tab, card);
  const paid = tab.waitForResponse((r) => r.url().includes('/api/sandbox/checkout/pay'));
  await tab.getByTestId('sandbox-card-form').getByRole('button', { name: /^Pay / }).click();
  await paid;
  return tab;
}

/** Fills the sandbox card form on the page (checkout or a new saved card). */
export async function fillCard(page: Page, card: string, expiry = '12/34'): Promise<void> {
  const form = page.getByTestId('sandbox-card-form');
  await form.getByLabel('Card number').fill(card);
  await form.getByLabel('Expiry date').fill(expiry);
  await form.getByLabel('CVC').fill('123');
}
