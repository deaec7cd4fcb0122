import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { emulatorClient } from '../../server/src/dev/auth-emulator';
import { apiAs, DEMO_ADMIN, DEMO_USER, logIn, signUp } from './support/auth';
import { launchBrowser, MOBILE, newSession } from './support/browser';

/**
 * The seeded accounts accept the version published here, so the e2e files after this one (same server) find them
 * as they were: without a terms dialog.
 */
async function acceptAsSeededUsers() {
  const emulator = emulatorClient(inject('authEmulatorHost'));
  for (const account of [DEMO_ADMIN, DEMO_USER]) {
    const { idToken } = await emulator.signIn(account.email, account.password);
    await fetch(`${inject('baseURL')}/api/user/terms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ accepted: true }),
    });
  }
}

describe('admin settings in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await acceptAsSeededUsers();
    await browser.close();
  });

  // Before the terms publication below, which would ask the seeded admin to accept it first.
  it('with sign-up by invitation only, the sign-up form says so and a newcomer nobody invited is turned away', async () => {
    const admin = await newSession(browser);
    await logIn(admin, DEMO_ADMIN);
    await admin.goto('/admin/settings/account-management');
    await admin.page.getByTestId('account-management-form').getByLabel('Who may sign up:').selectOption('invite-only');
    await admin.page.getByTestId('account-management-save').click();
    await admin.page.getByText('Saved. The new values apply from now on.').waitFor();
    try {
      const visitor = await newSession(browser);
      await visitor.goto('/signup');
      const form = visitor.page.getByTestId('signup-form');
      await form.getByTestId('signup-invite-only').getByText('Sign-up is by invitation only.').waitFor();
      const id = randomUUID().slice(0, 8);
      await form.getByTestId('auth-email').fill(`uninvited-${id}@example.test`);
      await form.getByTestId('auth-username').fill(`rover-${id}`);
      await form.getByTestId('auth-password').fill(`pw-${id}-secret`);
      await form.getByTestId('auth-confirm-password').fill(`pw-${id}-secret`);
      await form.getByTestId('auth-terms').check();
      await form.getByTestId('auth-submit').click();
      await visitor.page.getByText('New accounts are by invitation only').waitFor();
      // Signed out again, with no portal user behind the Firebase account.
      await visitor.page
        .getByRole('banner')
        .getByRole('button', { name: /log in/i })
        .waitFor();
      await visitor.context.close();
    } finally {
      const reset = await apiAs(admin, '/admin/settings', { method: 'PATCH', body: { signUp: 'open' } });
      await admin.context.close();
      expect(reset.status).toBe(200);
    }
  });

  it('an admin publishes a terms version and a logged-in user must accept it before continuing', async () => {
    const customer = await newSession(browser);
    await signUp(customer);
    await customer.goto('/dashboard');
    await customer.page.getByRole('heading', { level: 1 }).waitFor();

    const admin = await newSession(browser);
    await logIn(admin, DEMO_ADMIN);
    await admin.goto('/admin/settings/account-management');
    const form = admin.page.getByTestId('account-management-form');
    await form.waitFor();
    await expect(form.getByLabel('Accounts:').inputValue()).resolves.toMatch(/^\d+$/);
    await admin.screenshot('admin-settings-account-management-1440');
    await admin.page.setViewportSize(MOBILE);
    await admin.screenshot('admin-settings-account-management-375');
    await expect(admin.page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(375);

    // The operator dashboard draws its charts (uPlot, loaded on first draw) from the seeded portal.
    await admin.page.setViewportSize({ width: 1440, height: 900 });
    await admin.goto('/admin/dashboard');
    await admin.page.getByTestId('operator-stats').waitFor();
    await admin.page.locator('.uplot').first().waitFor();
    await admin.screenshot('admin-operator-dashboard-1440');
    await admin.page.setViewportSize(MOBILE);
    // The charts follow the new width when their resize observer fires, a frame or more after the viewport change.
    await expect
      .poll(() => admin.page.evaluate(() => document.documentElement.scrollWidth), { timeout: 10_000 })
      .toBeLessThanOrEqual(375);

    await admin.goto('/admin/settings/documents');
    const marker = `Fair use ${randomUUID().slice(0, 8)}`;
    const publishForm = admin.page.getByTestId('publish-form');
    await publishForm.waitFor();
    await publishForm.getByLabel('Title:').fill('Terms and conditions');
    await publishForm
      .locator('textarea')
      .fill(`# Terms\n\n## ${marker}\n\nOne rover per connection.\n\n<b id="raw-html">raw</b>`);
    await publishForm.getByTestId('markdown').getByRole('heading', { name: marker }).waitFor();
    await admin.page.getByTestId('publish-document').click();
    await admin.page.getByText('Every user will have to accept this version').waitFor();
    await admin.page.getByTestId('confirm-publish').click();
    const published = await admin.page.getByText(/^Version \d+ is published\.$/).textContent();
    const version = Number(published?.match(/\d+/)?.[0]);
    await expect(admin.page.getByTestId('current-version').textContent()).resolves.toContain(
      `Version ${version}, published`,
    );
    await admin.screenshot('admin-settings-documents-375');
    await admin.page.setViewportSize({ width: 1440, height: 900 });
    await admin.screenshot('admin-settings-documents-1440');

    // The customer, still logged in, is asked at the next start of the app and sees nothing else until accepting.
    await customer.page.reload();
    const dialog = customer.page.getByTestId('terms-dialog');
    await dialog.getByText(`Version ${version} of the terms and conditions`).waitFor();
    await expect(customer.page.getByRole('heading', { level: 1 }).count()).resolves.toBe(0);
    await expect(dialog.getByTestId('terms-dialog-continue').isDisabled()).resolves.toBe(true);
    await expect(dialog.getByRole('link', { name: 'terms and conditions' }).getAttribute('href')).resolves.toBe(
      '/legal/terms',
    );
    await dialog.getByTestId('terms-dialog-box').check();
    await dialog.getByTestId('terms-dialog-continue').click();
    await dialog.waitFor({ state: 'hidden' });
    await customer.page.getByRole('heading', { level: 1 }).waitFor();
    await expect(apiAs(customer, '/user')).resolves.toMatchObject({
      status: 200,
      body: { termsAcceptedAt: expect.any(String), termsVersion: version },
    });

    // The public page shows the version, its Markdown rendered and its raw HTML left out.
    const visitor = await newSession(browser);
    await visitor.goto('/legal/terms');
    await visitor.page.getByRole('heading', { name: marker }).waitFor();
    await expect(visitor.page.locator('#raw-html').count()).resolves.toBe(0);
    // This machine resolves no outside names (the tag manager's script); the app itself must log no error.
    const errors = [...customer.errors, ...admin.errors, ...visitor.errors];
    expect(errors.filter((e) => !e.includes('ERR_NAME_NOT_RESOLVED'))).toEqual([]);
    await Promise.all([customer.context.close(), admin.context.close(), visitor.context.close()]);
  });
});
