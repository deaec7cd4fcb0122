import { deflateSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { emulatorClient } from '../../server/src/dev/auth-emulator';
import { logIn, logOut, signUp } from './support/auth';
import { launchBrowser, newSession } from './support/browser';

/** A valid 2×2 PNG built here (signature, IHDR, IDAT, IEND with their CRCs). */
function png(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const rows = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('account settings in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('renames, uploads a photo, changes the password and deletes the account', async () => {
    const emulator = emulatorClient(inject('authEmulatorHost'));
    const s = await newSession(browser);
    const account = await signUp(s);
    await s.goto('/settings');
    const page = s.page;
    await expect(page.getByTestId('settings-email').inputValue()).resolves.toBe(account.email);

    // Display name
    await page.getByTestId('settings-display-name').fill('Renamed Rover');
    await page.getByTestId('settings-save-profile').click();
    await page.getByTestId('profile-form').getByText('Your profile has been saved.').waitFor();
    await expect(page.locator('button[aria-controls="user-menu"]').getAttribute('aria-label')).resolves.toContain(
      'Renamed Rover',
    );

    // Photo upload: stored by the server, served from /api/users/{id}/photo, shown in the header
    const uploaded = page.waitForResponse(
      (r) => r.url().endsWith('/api/user/photo') && r.request().method() === 'POST',
    );
    await page.getByTestId('photo-file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png() });
    expect((await uploaded).status()).toBe(200);
    await page.getByTestId('profile-form').getByText('Your profile has been saved.').waitFor();
    const src = await page.locator('header a[href="/settings"] img').getAttribute('src');
    expect(src).toMatch(/\/api\/users\/[0-9a-f-]{36}\/photo\?v=/);
    const image = await page.evaluate(async (url) => {
      const res = await fetch(url as string);
      return { status: res.status, type: res.headers.get('content-type') };
    }, src);
    expect(image).toEqual({ status: 200, type: 'image/png' });

    // Password change with re-authentication, then the new password logs in
    await page.getByTestId('settings-current-password').fill('wrong-password');
    await page.getByTestId('settings-new-password').fill('brand-new-secret');
    await page.getByTestId('settings-confirm-password').fill('brand-new-secret');
    await page.getByTestId('settings-change-password').click();
    await page.getByTestId('password-form').getByText('The e-mail address or password is incorrect.').waitFor();
    await page.getByTestId('settings-current-password').fill(account.password);
    await page.getByTestId('settings-change-password').click();
    await page.getByTestId('password-form').getByText('Your password has been changed.').waitFor();
    await logOut(s);
    await logIn(s, { email: account.email, password: 'brand-new-secret' });

    // Delete: confirmation required, then the account is gone everywhere
    await s.goto('/settings');
    await page.getByTestId('settings-delete-account').click();
    const confirm = page.getByTestId('delete-confirm');
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await page.getByTestId('delete-password').fill('brand-new-secret');
    await page.getByTestId('delete-confirm-word').fill('DELETE');
    const deleted = page.waitForResponse((r) => r.url().endsWith('/api/user') && r.request().method() === 'DELETE');
    await confirm.click();
    expect((await deleted).status()).toBe(204);
    await page.waitForURL('**/dashboard');
    await page
      .getByRole('banner')
      .getByRole('button', { name: /log in/i })
      .waitFor();
    await expect(emulator.signIn(account.email, 'brand-new-secret')).rejects.toThrow(/EMAIL_NOT_FOUND|USER_NOT_FOUND/);
    await s.context.close();
  });
});
