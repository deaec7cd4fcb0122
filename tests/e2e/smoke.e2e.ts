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
    // An unknown address is named on a page of its own (issue 32), not silently replaced by the dashboard.
    await s.page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(new URL(s.page.url()).pathname).toBe('/some/unknown/path');
    const meta = await s.page.evaluate(async () => (await fetch('/api/meta')).json());
    expect(meta).toEqual({ gtagID: '' });
    await s.context.close();
  });
});
