import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, signUp } from './support/auth';
import { DESKTOP, launchBrowser, MOBILE, newSession } from './support/browser';
import { DEMO_ADMIN, logInThroughStorage } from './support/storage-login';

/** A sign-up, an admin session and a few dialogs; a shared machine needs more than the default 90 s at times. */
const JOURNEY_TIMEOUT_MS = 150_000;

const ADMIN_LISTS = [
  '/admin/users',
  '/admin/accounts',
  '/admin/subscriptions',
  '/admin/organizations',
  '/admin/audit',
  '/admin/demo-requests',
  '/admin/products/credits',
  '/admin/networks',
  '/admin/feed',
  '/admin/rinex',
  '/admin/outbox',
  '/admin/map',
  '/admin/products/billable-subscriptions',
  '/admin/products/non-billable-subscriptions',
];

describe('the back office in Chromium (issue 20)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it(
    'an admin finds a customer with the picker, grants 50 tokens and makes an NTRIP account; the customer sees both and the audit log shows the grant',
    async () => {
      const customer = await newSession(browser);
      const account = await signUp(customer);
      await customer.page.getByTestId('token-balance').getByText('0', { exact: true }).waitFor();

      const admin = await newSession(browser);
      await logInThroughStorage(admin.page, DEMO_ADMIN.email, DEMO_ADMIN.password);
      await admin.goto('/admin/users');
      const picker = admin.page.getByRole('combobox', { name: 'Open a customer:' });
      await picker.pressSequentially(account.email.slice(0, 12), { delay: 20 });
      await admin.page.getByRole('option', { name: new RegExp(account.email.replace(/[.+]/g, '\\$&')) }).click();
      await admin.page.waitForURL(/\/admin\/users\/[0-9a-f-]{36}$/);
      const customerId = new URL(admin.page.url()).pathname.split('/').at(-1) ?? '';
      await admin.page.getByRole('heading', { name: account.username }).waitFor();

      // Grant 50 tokens with a reason, confirming the balance before and after.
      await admin.page.getByRole('button', { name: 'Grant or take back tokens' }).click();
      const dialog = admin.page.getByRole('dialog');
      await dialog.getByLabel('Tokens:').fill('50');
      await dialog.getByLabel('Reason:').fill('Goodwill after the outage of 25 November');
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByText('Grant 50 tokens? The balance goes from 0 to 50.').waitFor();
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await admin.page.getByTestId('customer-balance').getByText('50', { exact: true }).waitFor();
      await admin.page.getByTestId('customer-ledger').getByText('Goodwill after the outage of 25 November').waitFor();

      // An NTRIP account for the customer; its password is shown once.
      await admin.page.getByRole('button', { name: 'Create NTRIP account' }).click();
      await dialog.getByLabel('Label:').fill('Excavator 3');
      await dialog.getByRole('button', { name: 'Create account' }).click();
      const password = await dialog.getByTestId('ntrip-password').textContent();
      expect(password?.length).toBeGreaterThanOrEqual(12);
      await dialog.getByRole('button', { name: 'Done' }).click();
      await admin.page.getByTestId('customer-ntrip').getByText('Excavator 3').waitFor();

      // The customer page at both widths, without sideways page scroll on a phone.
      await admin.screenshot('admin-customer-1440');
      await admin.page.setViewportSize(MOBILE);
      await admin.page.getByTestId('customer-balance').waitFor();
      await admin.page.waitForTimeout(300);
      await admin.screenshot('admin-customer-375');
      expect(await admin.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
      await admin.page.setViewportSize(DESKTOP);

      // The customer sees the new balance and the account.
      await customer.goto('/accounts');
      await customer.page.getByTestId('token-balance').getByText('50', { exact: true }).waitFor();
      await customer.page.getByText('Excavator 3').first().waitFor();

      // The audit log shows the grant with before and after.
      await admin.goto('/admin/audit');
      await admin.page.getByLabel('Action:').fill('tokens.grant');
      await admin.page.getByLabel('Who:').fill(DEMO_ADMIN.email);
      const grant = admin.page.getByTestId('audit-entry').filter({ hasText: `user ${customerId}` });
      await grant.getByText('Before and after').click();
      const before = grant.getByRole('figure').filter({ hasText: 'Before' });
      const after = grant.getByRole('figure').filter({ hasText: 'After' });
      expect(await grant.getByText('tokens.grant').count()).toBe(1);
      expect(await grant.textContent()).toContain(DEMO_ADMIN.email);
      expect(JSON.parse((await before.locator('pre').textContent()) ?? '')).toEqual({ tokenAmount: 0 });
      expect(JSON.parse((await after.locator('pre').textContent()) ?? '')).toEqual({
        tokenAmount: 50,
        delta: 50,
        reason: 'Goodwill after the outage of 25 November',
      });
      expect(customer.errors).toEqual([]);

      // The customer's organisation has an NTRIP account of its own; its back-office page lists it.
      const org = await apiAs(customer, '/organization', {
        method: 'POST',
        body: { name: `Dredging ${customerId.slice(0, 6)}` },
      });
      const orgId = new URL((org.body as { value: string }).value, 'http://portal').searchParams.get('org');
      const made = await apiAs(customer, `/org/${orgId}/ntrip-accounts`, {
        method: 'POST',
        body: { label: 'Dredger 1' },
      });
      expect(made.status).toBe(201);
      await admin.goto(`/admin/organizations/${orgId}`);
      const orgAccounts = admin.page.getByRole('region', { name: 'NTRIP accounts' });
      await orgAccounts.getByTestId('customer-ntrip').getByText('Dredger 1').waitFor();
      await orgAccounts.getByRole('link', { name: account.email }).waitFor();

      // Item 7: every admin page fits a 375 px phone without sideways page scroll.
      const networks = await apiAs(admin, '/admin/networks');
      const networkId = (networks.body as { items: Array<{ id: string }> }).items[0]?.id;
      expect(networkId).toBeDefined();
      await admin.page.setViewportSize(MOBILE);
      const wide: string[] = [];
      for (const path of [
        ...ADMIN_LISTS,
        `/admin/organizations/${orgId}`,
        `/admin/networks/${networkId}`,
        `/admin/feed/${networkId}`,
      ]) {
        await admin.goto(path);
        await admin.page.getByRole('heading', { level: 1 }).first().waitFor();
        await admin.page.waitForLoadState('networkidle');
        const width = await admin.page.evaluate(() => document.documentElement.scrollWidth);
        if (width > MOBILE.width) wide.push(`${path}: ${width} px`);
      }
      expect(wide).toEqual([]);
    },
    JOURNEY_TIMEOUT_MS,
  );
});
