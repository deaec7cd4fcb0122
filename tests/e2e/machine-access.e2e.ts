import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signUp } from './support/auth';
import { launchBrowser, newSession } from './support/browser';

const run = promisify(execFile);

/** Issue 37: a key made on /settings, used by a machine (curl), and what it made shown to the person. */
describe('machine access in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('makes an API key on /settings and creates with curl an NTRIP account that shows on /accounts', async () => {
    const session = await newSession(browser);
    const { page } = session;
    await signUp(session);
    await session.goto('/settings');
    const keys = page.getByTestId('api-keys');
    await keys.getByTestId('api-key-name').fill('Fleet robot');
    await keys.getByLabel('create, change and delete NTRIP accounts').check();
    await keys.getByRole('button', { name: 'Create key' }).click();
    const key = (await keys.getByTestId('new-api-key').textContent()) ?? '';
    expect(key).toMatch(/^gnk_/);

    const { stdout } = await run('curl', [
      '-sS',
      '-X',
      'POST',
      `${inject('baseURL')}/api/ntrip-accounts`,
      '-H',
      `Authorization: Bearer ${key}`,
      '-H',
      'Content-Type: application/json',
      '-H',
      'Idempotency-Key: e2e-drone-1',
      '-d',
      '{"label":"Drone from curl"}',
    ]);
    expect(JSON.parse(stdout).account.label).toBe('Drone from curl');

    await session.goto('/accounts');
    await page.getByText('Drone from curl').first().waitFor();

    // The key's last use shows in its list, with no secret in it.
    await session.goto('/settings');
    const row = page.getByTestId('api-key-row').filter({ hasText: 'Fleet robot' });
    await row.getByText(/Last used: .* from /).waitFor();
    await expect(row.textContent()).resolves.not.toContain(key);
  });
});
