import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it('adds a webhook on /settings pointing at a loopback receiver, sends a test and shows it delivered', async () => {
    // The receiver: records each delivery (global setup lets the server reach loopback: WEBHOOK_ALLOW_PRIVATE_ADDRESSES).
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const session = await newSession(browser);
      const { page } = session;
      await signUp(session);
      await session.goto('/settings');
      const hooks = page.getByTestId('webhooks');
      await hooks.getByTestId('webhook-url').fill(url);
      await hooks.getByLabel('rinex.ready').check();
      await hooks.getByRole('button', { name: 'Add webhook' }).click();
      const secret = (await hooks.getByTestId('webhook-secret').textContent()) ?? '';
      expect(secret).not.toBe('');

      const row = hooks.getByTestId('webhook-row').filter({ hasText: url });
      await row.getByRole('button', { name: 'Delivery log' }).click();
      await row.getByRole('button', { name: 'Send test' }).click();
      // The sender polls every 2 s and the log every 3 s.
      await row.getByTestId('webhook-deliveries').getByText('delivered').waitFor({ timeout: 15_000 });
      await expect(row.getByTestId('webhook-deliveries').textContent()).resolves.toContain('HTTP 200');

      // What arrived is signed with the secret the page showed once (docs/machine-access.md).
      expect(received).toHaveLength(1);
      const { headers, body } = received[0] ?? { headers: {}, body: '' };
      expect(headers['portal-event']).toBe('webhook.test');
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(String(headers['portal-signature'])) ?? [];
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
