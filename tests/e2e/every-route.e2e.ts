import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_ADMIN, DEMO_USER, logIn } from './support/auth';
import { launchBrowser, newSession, type Session } from './support/browser';

/** Every route of src/app/routes.tsx, parameters filled where a page needs one. */
const ROUTES = [
  '/dashboard',
  '/marketplace',
  '/white-label',
  '/help',
  '/legal/terms',
  '/legal/privacy',
  '/legal/dpa',
  '/status',
  '/login',
  '/signup',
  '/register',
  '/invites/accept',
  '/map',
  '/accounts',
  '/credits',
  '/rinex',
  '/subscriptions',
  '/settings/organization',
  '/settings/billing',
  '/settings',
  '/checkout',
  '/admin/map',
  '/admin/products',
  '/admin/products/credits',
  '/admin/products/non-billable-subscriptions',
  '/admin/dashboard',
  '/admin/feed',
  '/admin/rinex',
  '/admin/users',
  '/admin/demo-requests',
  '/admin/subscriptions',
  '/admin/accounts',
  '/admin/organizations',
  '/admin/networks',
  '/admin/audit',
  '/admin/outbox',
  '/admin/settings',
  '/admin/settings/tax-management',
  '/admin/settings/invoices',
  '/admin/settings/account-management',
  '/admin/settings/documents',
];

/**
 * What went wrong in a page: console errors and uncaught exceptions, requests that failed or were answered with an
 * error status, requests to any origin but the portal's own and the Auth Emulator (the sign-in service this build
 * was configured with, as Google's would be in production), and more API requests than browsing can afford.
 */
function watch(session: Session) {
  const { page } = session;
  const own = new URL(inject('baseURL')).origin;
  const allowed = new Set([own, `http://${inject('authEmulatorHost')}`]);
  const problems: string[] = [];
  let apiRequests = 0;
  let inFlight = 0;
  let lastChange = Date.now();
  const settle = () => {
    inFlight -= 1;
    lastChange = Date.now();
  };
  page.on('request', (request) => {
    const url = request.url();
    if (/^https?:/.test(url) && !allowed.has(new URL(url).origin)) problems.push(`other origin: ${url}`);
    if (url.startsWith(`${own}/api/`)) apiRequests += 1;
    inFlight += 1;
    lastChange = Date.now();
  });
  page.on('requestfinished', settle);
  page.on('requestfailed', (request) => {
    settle();
    problems.push(`failed: ${request.url()} (${request.failure()?.errorText})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  return {
    /** Until no request has been open for 300 ms (five seconds at most: some admin pages poll). */
    async quiet(): Promise<void> {
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && (inFlight > 0 || Date.now() - lastChange < 300)) await sleep(100);
    },
    /** The problems since the last call, console errors and too many API requests included. */
    take(): string[] {
      const found = [...problems, ...session.errors.map((e) => `console: ${e}`)];
      if (apiRequests > MAX_API_REQUESTS) found.push(`${apiRequests} API requests`);
      apiRequests = 0;
      problems.length = 0;
      session.errors.length = 0;
      return found;
    },
  };
}

/**
 * API requests one page view may make: at this many a visitor could open 25 pages a minute before the anonymous
 * rate limit (300 a minute, ADR 0015), which reading pages never comes near.
 */
const MAX_API_REQUESTS = 12;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A client-side navigation, as a click on a link makes it: the router follows history. */
async function navigate(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

async function visitAll(session: Session, watcher: ReturnType<typeof watch>): Promise<string[]> {
  const problems: string[] = [];
  for (const path of ROUTES) {
    await navigate(session.page, path);
    await watcher.quiet();
    problems.push(...watcher.take().map((p) => `${path}: ${p}`));
  }
  return problems;
}

describe('every route, logged out, as a user and as an admin', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('logged out (a first visit, the cookie question unanswered): no console error, failed request or other origin', async () => {
    const session = await newSession(browser, undefined, { consentAnswered: false });
    const watcher = watch(session);
    await session.goto('/dashboard');
    await session.page.getByTestId('consent-banner').waitFor();
    await watcher.quiet();
    const problems = [
      ...watcher.take().map((p) => `/dashboard (first load): ${p}`),
      ...(await visitAll(session, watcher)),
    ];
    expect(problems).toEqual([]);
    await session.context.close();
  }, 150_000);

  for (const [role, account] of [
    ['user', DEMO_USER],
    ['admin', DEMO_ADMIN],
  ] as const) {
    it(`as ${role}: no console error, failed request or other origin`, async () => {
      const session = await newSession(browser);
      const watcher = watch(session);
      await logIn(session, account);
      await watcher.quiet();
      const problems = [...watcher.take().map((p) => `log-in: ${p}`), ...(await visitAll(session, watcher))];
      expect(problems).toEqual([]);
      await session.context.close();
    }, 150_000);
  }
});
