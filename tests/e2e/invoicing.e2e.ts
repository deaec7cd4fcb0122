import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO_ADMIN, logIn, signUp } from './support/auth';
import { DESKTOP, launchBrowser, MOBILE, newSession, SCREENSHOT_DIR } from './support/browser';
import { payInPortal } from './support/checkout';

/** Seeded by seedDemoProducts in every e2e run. */
const TOKENS_100 = 'price_sbx_demo-tokens-100';
const DOWNLOADS = join(SCREENSHOT_DIR, '..', 'downloads');

/** Downloads the file a click starts and answers its text as pdftotext (poppler-utils) reads it. */
async function pdfTextOf(page: Page, click: () => Promise<void>, name: string): Promise<string> {
  const download = page.waitForEvent('download');
  await click();
  mkdirSync(DOWNLOADS, { recursive: true });
  const file = join(DOWNLOADS, name);
  await (await download).saveAs(file);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('billing a business can run on, in Chromium (sandbox provider)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('company and VAT details, a purchase seen in another tab, the invoice PDF, an admin refund and its credit note', async () => {
    const admin = await newSession(browser);
    await logIn(admin, DEMO_ADMIN);
    // Seller in the Netherlands, prices include VAT: amounts other journeys expect stay the same.
    const saved = await apiAs(admin, '/admin/settings/tax', {
      method: 'PUT',
      body: {
        seller: {
          legalName: 'Polder GNSS B.V.',
          addressLine1: 'Dijkweg 1',
          postalCode: '2611 AB',
          city: 'Delft',
          country: 'NL',
          vatNumber: 'NL123456789B01',
        },
        invoicePrefix: 'E2E',
        pricesIncludeTax: true,
        reverseCharge: true,
        stripeAutomaticTax: false,
        rates: [
          { country: 'NL', rateBp: 2100 },
          { country: 'DE', rateBp: 1900 },
        ],
      },
    });
    expect(saved.status).toBe(200);

    const customer = await newSession(browser);
    const account = await signUp(customer);
    const page = customer.page;

    // Company and VAT details; a wrong VAT number is refused with the field named.
    await customer.goto('/settings/billing');
    // A new customer is first told there is no billing history yet (spec §8).
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).last().click();
    const details = page.getByTestId('billing-details');
    await details.locator('input[name=companyName]').fill('Vermessung GmbH');
    await details.locator('input[name=addressLine1]').fill('Hauptstr. 5');
    await details.locator('input[name=postalCode]').fill('10115');
    await details.locator('input[name=city]').fill('Berlin');
    await details.locator('select[name=country]').selectOption('DE');
    await details.locator('input[name=vatNumber]').fill('DE 12345');
    await details.getByRole('button', { name: 'Save' }).click();
    await details.getByText('This is not a VAT number of the chosen country.').waitFor();
    await details.locator('input[name=vatNumber]').fill('DE 123 456 789');
    await details.getByRole('button', { name: 'Save' }).click();
    await details.getByRole('status').getByText('Billing details saved.').waitFor();
    await details.getByText('Not verified yet: VAT is charged until we have checked the number.').waitFor();

    // No VAT registry is reachable: the admin checks the number and marks it verified on the customer's page; only
    // then is the sale reverse charged.
    const found = await apiAs(admin, `/admin/users?search=${encodeURIComponent(account.email)}&limit=1&offset=0`);
    const customerId = (found.body as { items: { id: string }[] }).items[0]?.id;
    await admin.goto(`/admin/users/${customerId}`);
    await admin.page.getByTestId('customer-billing-details').getByText('not verified').waitFor();
    await admin.page.getByRole('button', { name: 'Mark VAT number verified' }).click();
    await admin.page
      .getByTestId('customer-billing-details')
      .getByText(/^verified/)
      .waitFor();
    await customer.page.reload();
    await details.getByText('Verified: VAT on our invoices is reverse charged.').waitFor();

    // A second tab of the portal is open on the dashboard while the purchase happens elsewhere.
    const second = await customer.context.newPage();
    await second.goto('/dashboard');
    await second.getByTestId('token-balance').getByText('0', { exact: true }).waitFor();

    // Paid in the portal's own checkout page, in the tab the buy button opens.
    await customer.goto('/credits');
    const checkout = await payInPortal(page, TOKENS_100);
    await checkout.getByTestId('checkout-success').waitFor();
    // Neither the buying tab nor the second one was reloaded: the purchase reached both.
    await second.getByTestId('token-balance').getByText('100', { exact: true }).waitFor();
    await page.getByTestId('token-balance').getByText('100', { exact: true }).waitFor();
    await checkout.close();

    // The invoice: seller, company, VAT number, the reverse charged VAT line and the total.
    await customer.goto('/settings/billing');
    const invoiceRow = page.getByText(/^E2E-\d{4}-\d{6}$/).first();
    await invoiceRow.waitFor();
    const invoiceText = await pdfTextOf(
      page,
      () => page.getByRole('button', { name: 'PDF' }).first().click(),
      'invoice.pdf',
    );
    for (const expected of [
      'Invoice',
      'Polder GNSS B.V.',
      'NL123456789B01',
      'Vermessung GmbH',
      'DE123456789',
      'VAT 0%',
      'Total',
      'reverse charged',
    ]) {
      expect(invoiceText).toContain(expected);
    }
    const total = /Total\s+(€[\d,.]+)/.exec(invoiceText)?.[1];
    expect(total).toMatch(/^€\d+\.\d{2}$/);

    // The admin finds the payment and refunds it in full.
    await admin.goto('/admin/settings/payments');
    await admin.page.getByTestId('provider-health').getByText('Sandbox (offline)').waitFor();
    await admin.page.getByLabel(/Search/).fill(account.email);
    await admin.page.getByText(account.email).first().waitFor();
    await admin.page.getByRole('button', { name: 'Refund', exact: true }).first().click();
    const form = admin.page.getByTestId('refund-form');
    await form.getByRole('button', { name: /^Refund €/ }).click();
    await form.waitFor({ state: 'detached' });
    // Refunded in full: the search shows the one payment, which can no longer be refunded.
    await admin.page.getByRole('button', { name: 'Refund', exact: true }).waitFor({ state: 'detached' });

    // The customer's balance went back to 0 (nothing was spent) and the credit note is theirs to download.
    await customer.goto('/settings/billing');
    await page
      .getByText(/^E2E-CN-\d{4}-\d{6}$/)
      .first()
      .waitFor();
    await page.getByTestId('token-balance').getByText('0', { exact: true }).waitFor();
    const noteText = await pdfTextOf(
      page,
      () => page.getByRole('button', { name: 'PDF' }).first().click(),
      'credit-note.pdf',
    );
    expect(noteText).toContain('Credit note');
    expect(noteText).toContain('Vermessung GmbH');
    expect(noteText).toContain(`This credit note refunds ${total}`);

    // The three settings pages at phone and desktop widths.
    for (const [width, viewport] of [
      ['375', MOBILE],
      ['1440', DESKTOP],
    ] as const) {
      await admin.page.setViewportSize(viewport);
      for (const settingsPage of ['payments', 'tax-management', 'invoices']) {
        await admin.goto(`/admin/settings/${settingsPage}`);
        await admin.page.getByRole('heading', { level: 1 }).waitFor();
        await admin.page.waitForLoadState('networkidle');
        await admin.screenshot(`admin-settings-${settingsPage}-${width}`);
        const overflow = await admin.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
        expect({ settingsPage, width, overflow }).toEqual({ settingsPage, width, overflow: false });
      }
    }
    await customer.page.setViewportSize(MOBILE);
    await customer.goto('/settings/billing');
    await customer.page.getByTestId('billing-details').waitFor();
    await customer.screenshot('settings-billing-375');
    expect(customer.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
