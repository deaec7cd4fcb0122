import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const SCREENSHOT_DIR = join(new URL('../../..', import.meta.url).pathname, 'artifacts/screenshots');

export const DESKTOP = { width: 1440, height: 900 };
export const MOBILE = { width: 375, height: 812 };

/** Debian's Chromium, never a downloaded browser; the flags keep it off the (closed) network. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Relative URLs resolve against the portal under test. */
  goto(path: string): Promise<void>;
  screenshot(name: string): Promise<string>;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  /** The portal API's answers with a 4xx or 5xx status so far, as `status method url`. */
  failedResponses: string[];
}

/**
 * A visitor who has answered the cookie question (no, so nothing loads from outside), so that the question does not
 * cover what a journey clicks; `{ consentAnswered: false }` for a first visit. `baseURL`: a portal a test started
 * itself instead of the run's.
 */
export async function newSession(
  browser: Browser,
  viewport = DESKTOP,
  { consentAnswered = true, baseURL = inject('baseURL') } = {},
): Promise<Session> {
  const context = await browser.newContext({ viewport, baseURL });
  if (consentAnswered) await context.addCookies([{ name: 'cookie_consent', value: 'denied', url: baseURL }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const failedResponses: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400 && r.url().includes('/api/'))
      failedResponses.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  return {
    context,
    page,
    errors,
    failedResponses,
    goto: async (path) => {
      await page.goto(path);
    },
    screenshot: async (name) => {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const file = join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: false });
      return file;
    },
  };
}
