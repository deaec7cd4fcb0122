import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_ADMIN, DEMO_USER, logIn } from './support/auth';
import { launchBrowser, newSession, type Session } from './support/browser';

/** Every route of src/app/routes.tsx, parameters filled where a page needs one. */
const ROUTES = [
  '/dashboard',
  '/marketplace',
  '/white-label',
  '/status',
  '/help',
  '/legal/terms',
  '/legal/privacy',
  '/legal/dpa',
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

const LOCALES = join(new URL('../..', import.meta.url).pathname, 'public/locales');

function flatten(value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, key: string) => {
    if (typeof v === 'string') out.set(key, v);
    else if (v && typeof v === 'object') for (const [k, inner] of Object.entries(v)) walk(inner, `${key}.${k}`);
  };
  walk(value, '');
  return out;
}

/**
 * The English texts the Dutch locale files translate differently, cut at their placeholders and markup into the
 * literal pieces a page shows: those of at least two words and ten letters, so a word both languages share (Status,
 * RINEX, NTRIP) or a brand, product or unit name is never taken for a leftover.
 */
function englishPhrases(): string[] {
  const phrases = new Set<string>();
  for (const file of readdirSync(join(LOCALES, 'en'))) {
    const en = flatten(JSON.parse(readFileSync(join(LOCALES, 'en', file), 'utf8')));
    const nl = flatten(JSON.parse(readFileSync(join(LOCALES, 'nl', file), 'utf8')));
    for (const [key, text] of en) {
      const dutch = nl.get(key);
      if (dutch === undefined || dutch === text) continue;
      for (const piece of text.split(/\{\{[^}]*\}\}|<[^>]*>|\$t\([^)]*\)|[\n:;()"“”.!?…,]/)) {
        const phrase = piece.trim().replace(/\s+/g, ' ');
        if (phrase.split(' ').length >= 2 && phrase.replace(/[^A-Za-z]/g, '').length >= 10) phrases.add(phrase);
      }
    }
  }
  return [...phrases];
}

/**
 * What a page shows in its own language: its text, and the placeholders and labels of its fields and buttons. Text
 * marked as another language (a legal document published in English only, which the page says) is left out.
 */
function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const own = document.documentElement.lang;
    const labels = [...document.querySelectorAll('[placeholder], [aria-label], [title]')].flatMap((e) =>
      ['placeholder', 'aria-label', 'title'].map((a) => e.getAttribute(a) ?? ''),
    );
    // biome-ignore lint/performance/useDomNodeTextContent: the text shown, not that of hidden elements
    let text = document.body.innerText;
    for (const foreign of document.body.querySelectorAll<HTMLElement>('[lang]')) {
      // biome-ignore lint/performance/useDomNodeTextContent: as above
      if (foreign.lang !== own) text = text.replace(foreign.innerText, '');
    }
    return [text, ...labels].join('\n').replace(/\s+/g, ' ');
  });
}

/**
 * What the operator typed into the catalogue: the names of the pricing tables and of their products, shown as typed
 * in every language (a product's Dutch name is used where the operator gave one). The operator's data, not the
 * UI's text, so it is left out ("RTK Network Access", the demo's pricing table, is not an English leftover).
 */
async function operatorTexts(): Promise<string[]> {
  const tables = await Promise.all(
    ['/api/stripe/subscription-pricing-tables', '/api/tokenProducts'].map(async (path) => {
      const response = await fetch(`${inject('baseURL')}${path}`, { headers: { 'accept-language': 'nl' } });
      expect(response.status).toBe(200);
      return (await response.json()) as Array<{ name: string; data: Array<{ name: string }> }>;
    }),
  );
  return tables.flat().flatMap((table) => [table.name, ...table.data.map((product) => product.name)]);
}

/** English phrases and placeholder text on the page the Dutch UI shows, the operator's own texts left out. */
async function englishOn(page: Page, phrases: string[], operator: string[]): Promise<string[]> {
  let text = await visibleText(page);
  for (const typed of operator) if (typed.trim()) text = text.replaceAll(typed.trim().replace(/\s+/g, ' '), ' ');
  const found = phrases.filter((p) => new RegExp(`(^|[^A-Za-z])${escapeRegExp(p)}($|[^A-Za-z])`).test(text));
  if (/being prepared|wordt voorbereid/i.test(text)) found.push('placeholder: being prepared');
  return found.map((p) => `English: "${p}"`);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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

async function visitAll(
  session: Session,
  watcher: ReturnType<typeof watch>,
  english: string[] = [],
  operator: string[] = [],
): Promise<string[]> {
  const problems: string[] = [];
  for (const path of ROUTES) {
    await navigate(session.page, path);
    await watcher.quiet();
    problems.push(...watcher.take().map((p) => `${path}: ${p}`));
    if (english.length)
      problems.push(...(await englishOn(session.page, english, operator)).map((p) => `${path}: ${p}`));
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
    it(`as ${role}, in Dutch: no console error, failed request, other origin, English text or placeholder`, async () => {
      const session = await newSession(browser);
      await session.context.addCookies([{ name: 'i18next', value: 'nl', url: inject('baseURL') }]);
      const watcher = watch(session);
      await logIn(session, account);
      await watcher.quiet();
      const problems = [
        ...watcher.take().map((p) => `log-in: ${p}`),
        ...(await visitAll(session, watcher, englishPhrases(), await operatorTexts())),
      ];
      expect(problems).toEqual([]);
      await session.context.close();
    }, 150_000);
  }
});
