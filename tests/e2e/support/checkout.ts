import type { Page } from 'playwright-core';

/**
 * Buys with the Buy button of `priceId` on the current page and pays in the portal's own checkout page with the
 * sandbox provider's card form (docs/adr/0031): the same tab, no provider page. Resolves once the payment was
 * answered; the caller waits for success or the refusal it expects.
 */
export async function payInPortal(page: Page, priceId: string, card = '4242 4242 4242 4242'): Promise<void> {
  const button = page.getByTestId(`buy-${priceId}`).first();
  await button.click();
  await page.waitForURL(/\/checkout\?checkoutSessionId=/);
  await fillCard(page, card);
  const paid = page.waitForResponse((r) => r.url().includes('/api/sandbox/checkout/pay'));
  await page.getByTestId('sandbox-card-form').getByRole('button', { name: /^Pay / }).click();
  await paid;
}

/** Fills the sandbox card form on the page (checkout or a new saved card). */
export async function fillCard(page: Page, card: string, expiry = '12/34'): Promise<void> {
  const form = page.getByTestId('sandbox-card-form');
  await form.getByLabel('Card number').fill(card);
  await form.getByLabel('Expiry date').fill(expiry);
  await form.getByLabel('CVC').fill('123');
}
