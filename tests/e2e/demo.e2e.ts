import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, logIn } from './support/auth';
import { launchBrowser, newSession, type Session } from './support/browser';

const FAILURE_TEXT = 'Sorry, something went wrong while submitting your request. Please try again later.';

async function fillAndSubmit(
  page: Page,
  request: { firstName: string; lastName: string; email: string },
  shoot: (name: string) => Promise<unknown> = async () => {},
) {
  await page.getByText('Step 1 of 2').waitFor();
  await shoot('demo-step-1');
  await page.getByText('Trusted by 200+ fleets').waitFor();
  await page.getByRole('button', { name: 'Request a Demo' }).click();
  await page.getByText('Step 2 of 2').waitFor();
  const submit = page.getByRole('button', { name: 'Submit' });
  expect(await submit.isDisabled()).toBe(true);
  await page.getByLabel(/^First name/).fill(request.firstName);
  await page.getByLabel(/^Last name/).fill(request.lastName);
  await page.getByLabel(/^E-mail/).fill(request.email);
  const phone = page.getByLabel(/^Phone number/);
  await phone.pressSequentially('06-1234 5678x');
  expect(await phone.inputValue()).toBe('06 12345678');
  await page.getByLabel(/^Company/).fill('Polder Fleet BV');
  await page.getByLabel(/^Message/).fill('We steer 40 tractors with RTK.');
  expect(await submit.isEnabled()).toBe(true);
  await shoot('demo-step-2-filled');
  await submit.click();
}

describe('sales-demo request in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('stores a request that an admin then sees; a reload shows Thank you! instead of step 1', async () => {
    const visitor = await newSession(browser);
    const email = `demo-${randomUUID().slice(0, 8)}@fleet.example`;
    await visitor.goto('/white-label?gclid=e2e-gclid-42');
    await fillAndSubmit(visitor.page, { firstName: 'Ada', lastName: 'Lovelace', email }, visitor.screenshot);
    const thanks = visitor.page.getByRole('dialog', { name: 'Thank you!' });
    await thanks.waitFor();
    await visitor.screenshot('demo-thank-you');
    const cookies = await visitor.context.cookies();
    const cookie = cookies.find((c) => c.name === 'demo_request_submitted');
    expect(cookie).toBeDefined();
    // Spec §9: 86400 s (js-cookie rounds to whole seconds of a day from now).
    expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(86_400 - 120);
    expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeLessThanOrEqual(86_400 + 5);

    await visitor.page.reload();
    await visitor.page.getByRole('dialog', { name: 'Thank you!' }).waitFor();
    expect(await visitor.page.getByRole('button', { name: 'Request a Demo' }).count()).toBe(0);

    const admin: Session = await newSession(browser);
    await logIn(admin, DEMO_ADMIN);
    await admin.goto('/admin/demo-requests');
    const row = admin.page.getByRole('row').filter({ hasText: email });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('Polder Fleet BV');
    expect(text).toContain('+31 6 12345678');
    expect(text).toContain('We steer 40 tractors with RTK.');
    expect(text).toContain('e2e-gclid-42');
    expect(text).toContain('/white-label?gclid=e2e-gclid-42');
    await admin.screenshot('demo-admin-list');
    // The admin menu leads there too.
    await admin.goto('/admin/map');
    await admin.page.getByRole('link', { name: 'Demo requests' }).first().click();
    await admin.page.waitForURL('**/admin/demo-requests');
    await visitor.context.close();
    await admin.context.close();
  });

  it('shows Submission Failed when the server answers 500, and sets no cookie', async () => {
    const s = await newSession(browser);
    await s.page.route('**/api/demo-requests', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":"internal","message":"x"}' }),
    );
    await s.goto('/white-label');
    await fillAndSubmit(s.page, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example' });
    const dialog = s.page.getByRole('dialog', { name: 'Submission Failed' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(FAILURE_TEXT);
    await s.screenshot('demo-submission-failed');
    expect((await s.context.cookies()).some((c) => c.name === 'demo_request_submitted')).toBe(false);
    await s.context.close();
  });
});
