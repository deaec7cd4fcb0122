import type { Page } from 'playwright-core';
import { inject } from 'vitest';

/**
 * Logs a browser page in without the login UI: signs in against the Auth Emulator's REST API and stores the
 * user where the Firebase JS SDK restores sessions from (local storage persistence), then reloads.
 * For shell journeys; the auth feature's journeys drive the real login modal (support/auth.ts).
 */
export async function logInThroughStorage(page: Page, email: string, password: string): Promise<void> {
  const host = inject('authEmulatorHost');
  const res = await fetch(
    `http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  const body = (await res.json()) as {
    idToken: string;
    refreshToken: string;
    expiresIn: string;
    localId: string;
    email: string;
    displayName?: string;
    error?: { message: string };
  };
  if (!res.ok) throw new Error(`sign-in of ${email} failed: ${body.error?.message}`);
  const user = {
    uid: body.localId,
    email: body.email,
    emailVerified: false,
    isAnonymous: false,
    ...(body.displayName ? { displayName: body.displayName } : {}),
    providerData: [],
    stsTokenManager: {
      refreshToken: body.refreshToken,
      accessToken: body.idToken,
      expirationTime: Date.now() + Number(body.expiresIn) * 1000,
    },
    createdAt: String(Date.now()),
    lastLoginAt: String(Date.now()),
    apiKey: 'demo-api-key',
    appName: '[DEFAULT]',
  };
  if (!page.url().startsWith('http')) await page.goto('/dashboard');
  await page.evaluate((json) => {
    window.localStorage.setItem('firebase:authUser:demo-api-key:[DEFAULT]', json);
  }, JSON.stringify(user));
  await page.reload();
}

/** Creates an Auth Emulator account (optionally without a display name) and returns its credentials. */
export async function createEmulatorUser(displayName?: string): Promise<{ email: string; password: string }> {
  const host = inject('authEmulatorHost');
  const email = `shell-${Date.now()}-${Math.round(Math.random() * 1e6)}@example.test`;
  const password = 'shell-user-2026';
  const base = `http://${host}/identitytoolkit.googleapis.com/v1`;
  const res = await fetch(`${base}/accounts:signUp?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  const body = (await res.json()) as { idToken: string };
  if (!res.ok) throw new Error(`sign-up failed: ${JSON.stringify(body)}`);
  if (displayName) {
    await fetch(`${base}/accounts:update?key=demo-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: body.idToken, displayName }),
    });
  }
  return { email, password };
}

export const DEMO_ADMIN = { email: 'admin@demo.gnss-portal.test', password: 'demo-admin-2026' };
export const DEMO_USER = { email: 'surveyor@demo.gnss-portal.test', password: 'demo-user-2026' };
