import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { emulatorClient } from '../../server/src/dev/auth-emulator';
import { apiAs, DEMO_ADMIN, DEMO_USER, logIn, loginEvents, logOut, signUp } from './support/auth';
import { launchBrowser, newSession, type Session } from './support/browser';
import { installGapiShim } from './support/gapi-shim';

describe('authentication in Chromium against the Auth Emulator', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  const message = (s: Session) => s.page.getByTestId('login-modal').getByTestId('auth-message');

  it('signs up (the server creates the users row), logs out and logs in again, reporting role user', async () => {
    const s = await newSession(browser);
    await s.goto('/dashboard');
    // The sign-up's own GET /api/user is the call that creates the row.
    const userCall = s.page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/user' && r.request().method() === 'GET',
    );
    const account = await signUp(s);
    const created = await userCall;
    expect(created.status()).toBe(200);
    expect(await created.json()).toEqual(expect.objectContaining({ teams: [], isAdmin: false }));
    expect(created.request().headers().authorization).toMatch(/^Bearer ./);

    // The row as an admin sees it: created with the username as its display name.
    const admin = await newSession(browser);
    await logIn(admin, DEMO_ADMIN);
    const listed = await apiAs(admin, `/admin/users?search=${encodeURIComponent(account.email)}`);
    expect(listed.status).toBe(200);
    expect((listed.body as { items: unknown[] }).items).toEqual([
      expect.objectContaining({ email: account.email, displayName: account.username, disabled: false }),
    ]);
    await admin.context.close();
    // The sign-up recorded the ticked terms box, so the terms dialog never showed.
    await expect(apiAs(s, '/user')).resolves.toEqual({
      status: 200,
      body: expect.objectContaining({ teams: [], isAdmin: false, termsAcceptedAt: expect.any(String) }),
    });
    expect(await s.page.getByTestId('terms-dialog').count()).toBe(0);

    const [signUpEvent] = await loginEvents(s);
    expect(signUpEvent).toEqual({ event: 'login', userId: expect.any(String), userRole: 'user' });
    await expect(s.page.locator('button[aria-controls="user-menu"]').getAttribute('aria-label')).resolves.toContain(
      account.username,
    );

    await logOut(s);
    await logIn(s, account);
    const events = await loginEvents(s);
    expect(events.at(-1)).toEqual({ event: 'login', userId: signUpEvent?.userId, userRole: 'user' });
    expect(s.errors.filter((e) => e.includes('userInfo'))).toEqual([]);
    await s.context.close();
  });

  it('signs up while the session module is still on its way: the first calls carry the new account token', async () => {
    const s = await newSession(browser);
    // The module through which the app follows the Firebase session is a chunk of its own; on a busy server it once
    // arrived after the sign-up's POST /api/user/terms had gone out without a bearer token and was answered 401.
    let release: () => void = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    await s.page.route(/\/assets\/firebase-session-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const termsCall = s.page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/user/terms' && r.request().method() === 'POST',
    );
    const signedUp = signUp(s);
    const terms = await termsCall;
    release();
    await signedUp;
    expect(terms.request().headers().authorization).toMatch(/^Bearer ./);
    expect(terms.status()).toBe(200);
    expect(s.failedResponses).toEqual([]);
    await s.context.close();
  });

  it('reports role admin for the demo admin and user for the demo user', async () => {
    const admin = await newSession(browser);
    await logIn(admin, DEMO_ADMIN);
    expect((await loginEvents(admin)).at(-1)).toMatchObject({ event: 'login', userRole: 'admin' });
    await admin.context.close();

    const user = await newSession(browser);
    await logIn(user, DEMO_USER);
    expect((await loginEvents(user)).at(-1)).toMatchObject({ event: 'login', userRole: 'user' });
    await user.context.close();
  });

  it("shows the service's message for a wrong password and stays logged out", async () => {
    const s = await newSession(browser);
    await s.goto('/login');
    const form = s.page.getByTestId('login-form');
    await form.getByTestId('auth-email').fill(DEMO_USER.email);
    await form.getByTestId('auth-password').fill('not-the-password');
    await form.getByTestId('auth-submit').click();
    await expect.poll(() => message(s).getAttribute('data-type'), { timeout: 15_000 }).toBe('error');
    const code = await message(s).getAttribute('data-code');
    expect(['auth/invalid-credential', 'auth/wrong-password']).toContain(code);
    await expect(message(s).textContent()).resolves.toBe('The e-mail address or password is incorrect.');
    expect(await loginEvents(s)).toEqual([]);
    await s.context.close();
  });

  it('sends the password-reset e-mail through Firebase and confirms it', async () => {
    const emulator = emulatorClient(inject('authEmulatorHost'));
    const s = await newSession(browser);
    await s.goto('/login');
    await s.page.getByTestId('auth-forgot-password').click();
    const form = s.page.getByTestId('forgot-form');
    await form.getByTestId('auth-submit').click();
    await expect(message(s).textContent()).resolves.toBe('Please enter your e-mail address.');
    await form.getByTestId('auth-email').fill(DEMO_USER.email);
    await form.getByTestId('auth-submit').click();
    await expect
      .poll(() => message(s).textContent(), { timeout: 15_000 })
      .toBe('If an account exists for this address, an e-mail with a link to reset your password is on its way.');
    expect(await message(s).getAttribute('data-type')).toBe('info');
    const codes = await emulator.oobCodes();
    expect(codes).toContainEqual(expect.objectContaining({ email: DEMO_USER.email, requestType: 'PASSWORD_RESET' }));
    await s.context.close();
  });

  /** Picks a new account in the emulator's chooser and waits to be back in the app. */
  async function chooseNewGoogleAccount(s: Session, displayName: string) {
    await s.page.waitForURL(/\/emulator\/auth\/handler/);
    await s.page.locator('#add-account-button').click();
    await s.page.locator('#email-input').fill(`google-${Date.now()}@example.com`);
    await s.page.locator('#display-name-input').fill(displayName);
    await s.page.locator('#sign-in').click();
    await s.page.waitForURL((url) => !url.pathname.startsWith('/emulator/'));
  }

  it('signs in with Google by redirect through the emulator account chooser and returns logged in', async () => {
    const s = await newSession(browser);
    await installGapiShim(s.context);
    await s.goto('/login');
    await s.page.getByTestId('login-form').getByTestId('auth-google').click();
    await chooseNewGoogleAccount(s, 'Google Rover');

    // The log-in view created the account without the terms box: the app waits behind the dialog.
    const dialog = s.page.getByTestId('terms-dialog');
    await dialog.waitFor({ timeout: 30_000 });
    await expect(apiAs(s, '/user')).resolves.toMatchObject({ body: { termsAcceptedAt: null } });
    const proceed = dialog.getByTestId('terms-dialog-continue');
    expect(await proceed.isDisabled()).toBe(true);
    await dialog.getByTestId('terms-dialog-box').check();
    await proceed.click();
    await dialog.waitFor({ state: 'detached' });
    await expect(apiAs(s, '/user')).resolves.toMatchObject({ body: { termsAcceptedAt: expect.any(String) } });

    await s.page.waitForFunction(
      () => ((window as { dataLayer?: Array<{ event?: string }> }).dataLayer ?? []).some((e) => e.event === 'login'),
      undefined,
      { timeout: 30_000 },
    );
    expect((await loginEvents(s)).at(-1)).toEqual({ event: 'login', userId: expect.any(String), userRole: 'user' });
    await expect(s.page.locator('button[aria-controls="user-menu"]').getAttribute('aria-label')).resolves.toContain(
      'Google Rover',
    );
    await s.context.close();
  });

  it('signs up with Google from the sign-up view: the box ticked before the redirect counts, no dialog', async () => {
    const s = await newSession(browser);
    await installGapiShim(s.context);
    await s.goto('/signup');
    const form = s.page.getByTestId('signup-form');
    await form.getByTestId('auth-terms').check();
    await form.getByTestId('auth-google').click();
    await chooseNewGoogleAccount(s, 'Google Signup');
    await expect
      .poll(async () => ((await apiAs(s, '/user')).body as { termsAcceptedAt?: unknown }).termsAcceptedAt, {
        timeout: 30_000,
      })
      .toEqual(expect.any(String));
    await expect(s.page.locator('button[aria-controls="user-menu"]').getAttribute('aria-label')).resolves.toContain(
      'Google Signup',
    );
    expect(await s.page.getByTestId('terms-dialog').count()).toBe(0);
    await s.context.close();
  });
});
