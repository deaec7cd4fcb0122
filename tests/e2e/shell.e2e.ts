import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildSpaIfStale, root } from '../../scripts/launch.ts';
import { DESKTOP, launchBrowser, MOBILE, newSession, type Session } from './support/browser';
import { serveSpa } from './support/static-server';
import { createEmulatorUser, DEMO_ADMIN, DEMO_USER, logInThroughStorage } from './support/storage-login';

const pathOf = (s: Session) => new URL(s.page.url()).pathname;

/** Lets data, fonts and the map settle before a screenshot (a live map never goes network-idle). */
async function settle(s: Session) {
  await s.page.waitForLoadState('load');
  await s.page
    .waitForFunction(() => document.querySelectorAll('[role="status"]').length === 0, undefined, {
      timeout: 10_000,
    })
    .catch(() => undefined);
  // A coverage map (catalogue feature) draws its stations asynchronously.
  if (await s.page.getByTestId('coverage-map').count()) {
    await s.page
      .locator('[data-testid="map-cluster"], [data-testid="map-station"], .maplibregl-marker')
      .first()
      .waitFor({ timeout: 20_000 })
      .catch(() => undefined);
  }
  await s.page.waitForTimeout(1200);
}

describe('app shell in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('redirects logged-out visitors to /dashboard from personal and admin paths; an unknown one is not found', async () => {
    const s = await newSession(browser);
    await s.goto('/nowhere/at/all');
    await s.page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(pathOf(s)).toBe('/nowhere/at/all');
    for (const path of ['/map', '/subscriptions', '/admin/users', '/admin/whatever', '/']) {
      await s.goto(path);
      await s.page.waitForURL('**/dashboard');
      expect(pathOf(s)).toBe('/dashboard');
    }
    await s.page.waitForFunction(() => document.title === 'Meridian RTK | Dashboard');
    const header = s.page.getByRole('banner');
    await header.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await header.getByRole('link', { name: /Meridian RTK home/ }).getAttribute('href')).toBe('/');
    expect(await header.getByRole('link', { name: 'Network coverage' }).getAttribute('href')).toBe('/marketplace');
    // The terms link of the default brand opens the portal's published terms in a new tab.
    expect(await s.page.getByRole('link', { name: 'Terms and conditions' }).getAttribute('target')).toBe('_blank');
    expect(await s.page.getByRole('link', { name: 'Terms and conditions' }).getAttribute('href')).toBe('/legal/terms');
    expect(s.errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);

    // /login, /signup and /register open the login modal over the public dashboard; Escape closes it.
    for (const path of ['/login', '/signup', '/register']) {
      await s.goto(path);
      await s.page.waitForURL('**/dashboard');
      const dialog = s.page.getByRole('dialog');
      await dialog.waitFor();
      await s.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }

    // The sign-up box's terms link opens the published terms (the demo's version 1) in a new tab.
    await s.goto('/signup');
    const signUpForm = s.page.getByTestId('signup-form');
    const [termsTab] = await Promise.all([
      s.context.waitForEvent('page'),
      signUpForm.getByRole('link', { name: /terms and conditions/i }).click(),
    ]);
    await termsTab.getByRole('heading', { level: 1, name: 'Terms and conditions' }).waitFor();
    await termsTab.getByText(/^Version 1 of /).waitFor();
    await termsTab.getByText('Meridian RTK B.V.', { exact: false }).first().waitFor();
    await termsTab.close();

    // Help in the menu goes to the help page, with the brand's support contact.
    await s.goto('/dashboard');
    await s.page.locator('#side-menu').getByRole('link', { name: 'Help' }).click();
    await s.page.waitForURL('**/help');
    await s.page.getByTestId('help-support').getByRole('link', { name: 'support@meridian-rtk.example' }).waitFor();
    await s.context.close();
  });

  it('shows the Restricted Access panel to a non-admin on /admin/users', async () => {
    const s = await newSession(browser);
    await logInThroughStorage(s.page, DEMO_USER.email, DEMO_USER.password);
    await s.goto('/admin/users');
    const panel = s.page.getByRole('region', { name: 'Restricted Access' });
    await panel.waitFor();
    await panel.getByText('You do not have the permissions to view this page.').waitFor();
    expect(await s.page.getByRole('button', { name: 'Personal' }).count()).toBe(0);
    await panel.getByRole('link', { name: 'Back to Dashboard' }).click();
    await s.page.waitForURL('**/dashboard');
    await s.context.close();
  });

  it('lets an admin see /admin/map; the switcher keeps the page name; unknown admin paths are not found', async () => {
    const s = await newSession(browser);
    await logInThroughStorage(s.page, DEMO_ADMIN.email, DEMO_ADMIN.password);
    await s.goto('/admin/does-not-exist');
    await s.page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await s.page.getByRole('link', { name: 'Go to the network map' }).click();
    await s.page.waitForURL('**/admin/map');
    await s.page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await s.page.getByText('Restricted Access').count()).toBe(0);
    await s.page.waitForFunction(() => document.title.startsWith('Meridian RTK | '));
    const nav = s.page.getByRole('navigation', { name: 'Main navigation' });
    // The menu marks the page once the route's navigation has settled, which may be a frame after the title.
    await expect.poll(() => nav.getByRole('link', { name: 'Map' }).getAttribute('aria-current')).toBe('page');
    await s.screenshot('admin-map-1440');

    await s.page.locator('#side-menu').getByRole('button', { name: 'Personal', exact: true }).click();
    // A glob '**/map' would also match the /admin/map we are leaving.
    await s.page.waitForURL((url) => url.pathname === '/map');
    expect(pathOf(s)).toBe('/map');
    expect(await nav.getByRole('link', { name: 'Map' }).getAttribute('aria-current')).toBe('page');
    await s.page.locator('#side-menu button[aria-pressed="true"]', { hasText: 'Personal' }).waitFor();
    await s.page.locator('#side-menu').getByRole('button', { name: 'Admin', exact: true }).click();
    await s.page.waitForURL('**/admin/map');
    await s.context.close();
  });

  it('remembers the side menu state across a reload', async () => {
    const s = await newSession(browser);
    await s.goto('/dashboard');
    const side = s.page.locator('#side-menu');
    await side.waitFor();
    expect(await side.getAttribute('data-state')).toBe('open');
    await s.page.getByRole('button', { name: 'Collapse menu' }).click();
    expect(await side.getAttribute('data-state')).toBe('closed');
    expect(await s.page.evaluate(() => localStorage.getItem('layout-sidemenu-open'))).toBe('false');
    await s.page.reload();
    await s.page.locator('#side-menu[data-state="closed"]').waitFor();
    const width = () => s.page.evaluate(() => document.getElementById('side-menu')?.getBoundingClientRect().width);
    await s.page.waitForFunction(() => document.getElementById('side-menu')?.getBoundingClientRect().width === 60);
    expect(await width()).toBe(60);
    await s.page.getByRole('button', { name: 'Expand menu' }).click();
    await s.page.waitForFunction(() => document.getElementById('side-menu')?.getBoundingClientRect().width === 260);
    expect(await s.page.evaluate(() => localStorage.getItem('layout-sidemenu-open'))).toBe('true');
    await s.page.reload();
    await s.page.locator('#side-menu[data-state="open"]').waitFor();
    await s.context.close();
  });

  it('at 375 px keeps the side menu closed and the hamburger menu shows RTK User for a user without a name', async () => {
    const account = await createEmulatorUser();
    const s = await newSession(browser, MOBILE);
    await s.page.addInitScript(() => localStorage.setItem('layout-sidemenu-open', 'true'));
    await logInThroughStorage(s.page, account.email, account.password);
    await s.goto('/dashboard');
    // An account made outside the sign-up form has not accepted the terms: the app waits behind that dialog.
    const terms = s.page.getByTestId('terms-dialog');
    await terms.getByTestId('terms-dialog-box').check();
    await terms.getByTestId('terms-dialog-continue').click();
    await s.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await s.page.locator('#side-menu').count()).toBe(0);
    await s.page.getByRole('button', { name: 'Open menu' }).click();
    const menu = s.page.locator('#mobile-menu');
    await menu.waitFor();
    expect(await menu.getByTestId('mobile-username').textContent()).toBe('RTK User');
    await menu.getByText(account.email).waitFor();
    const help = menu.getByRole('link', { name: /Need Help\?/ });
    expect(await help.getAttribute('href')).toBe('/help');
    await menu.getByRole('button', { name: 'Log out' }).waitFor();
    await s.screenshot('mobile-menu-375');
    // A route change closes the menu.
    await menu.getByRole('link', { name: 'Network coverage' }).click();
    await s.page.waitForURL('**/marketplace');
    await s.page.locator('#mobile-menu').waitFor({ state: 'detached' });
    await s.context.close();
  });

  it('takes the screenshots of /dashboard and /admin/map at 1440 and 375 px', async () => {
    for (const [width, viewport] of [
      ['1440', DESKTOP],
      ['375', MOBILE],
    ] as const) {
      const s = await newSession(browser, viewport);
      await s.goto('/dashboard');
      await s.page.getByRole('heading', { level: 1 }).waitFor();
      await settle(s);
      await s.screenshot(`dashboard-logged-out-${width}`);
      await logInThroughStorage(s.page, DEMO_ADMIN.email, DEMO_ADMIN.password);
      await s.goto('/dashboard');
      // Welcome back, or a welcome when this run's seed made the account less than a minute before.
      await s.page
        .getByText(/^Welcome( back| to .+), Demo Admin\.$/)
        .first()
        .waitFor();
      await settle(s);
      await s.screenshot(`dashboard-logged-in-${width}`);
      await s.goto('/admin/map');
      await s.page.getByRole('heading', { level: 1 }).first().waitFor();
      await settle(s);
      await s.screenshot(`admin-map-${width}`);
      await s.context.close();
    }
  });

  it('speaks Dutch with ?lng=nl and remembers the choice', async () => {
    const s = await newSession(browser, DESKTOP);
    await s.goto('/dashboard?lng=nl');
    await s.page.getByRole('banner').getByRole('button', { name: 'Inloggen' }).waitFor();
    await s.page
      .getByRole('navigation', { name: 'Hoofdnavigatie' })
      .getByRole('link', { name: 'Netwerkdekking' })
      .waitFor();
    expect(await s.page.evaluate(() => document.documentElement.lang)).toBe('nl');
    await settle(s);
    await s.screenshot('dashboard-logged-out-nl-1440');
    await s.goto('/dashboard');
    await s.page.getByRole('banner').getByRole('button', { name: 'Inloggen' }).waitFor();
    await s.context.close();
  });

  it('refuses to build with an unknown brand and lists the allowed keys', async () => {
    const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', 'dist-e2e-nope'],
        {
          cwd: root,
          env: { ...process.env, VITE_BRAND: 'nope' },
        },
      );
      let output = '';
      child.stdout.on('data', (c: Buffer) => {
        output += c.toString();
      });
      child.stderr.on('data', (c: Buffer) => {
        output += c.toString();
      });
      child.on('exit', (code) => resolve({ code, output }));
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('Unknown brand "nope"');
    expect(result.output).toContain('Allowed values: default, terraview');
  });

  it('the rebranded build shows a Powered by credit and no terms or help link', async () => {
    const outDir = 'dist-e2e-terraview';
    await buildSpaIfStale(
      { VITE_BRAND: 'terraview', VITE_FIREBASE_AUTH_EMULATOR_URL: `http://${inject('authEmulatorHost')}` },
      outDir,
    );
    const served = await serveSpa(join(root, outDir), inject('baseURL'));
    try {
      const context = await browser.newContext({ viewport: DESKTOP, baseURL: served.url });
      const page = await context.newPage();
      await page.goto('/dashboard');
      await page.getByText('Powered by').waitFor();
      await page.waitForFunction(() => document.title === 'TerraView Positioning | Dashboard');
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/brands/terraview/favicon.svg');
      expect(await page.getByRole('link', { name: 'Terms and conditions' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Help' }).count()).toBe(0);
      const accent = await page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--brand-primary').trim(),
      );
      expect(accent).toBe('#38bdf8');
      await page.screenshot({ path: join(root, 'artifacts/screenshots/rebranded-dashboard-1440.png') });
      await context.close();
    } finally {
      await served.close();
    }
  });
});
