import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newSession } from './support/browser';

describe('the built portal in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('serves the SPA on every client route and the API beside it', async () => {
    const s = await newSession(browser);
    await s.goto('/some/unknown/path');
    await s.page.waitForURL('**/dashboard');
    await expect(s.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBeTruthy();
    const meta = await s.page.evaluate(async () => (await fetch('/api/meta')).json());
    expect(meta).toEqual({ gtagID: '' });
    await s.context.close();
  });
});
