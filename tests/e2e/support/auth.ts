import { randomUUID } from 'node:crypto';
import type { Session } from './browser';

export interface Credentials {
  email: string;
  password: string;
}

/** Seeded by the server in e2e runs (SEED_DEMO): an admin and a personal user. */
export const DEMO_ADMIN: Credentials & { username: string } = {
  email: 'admin@demo.gnss-portal.test',
  password: 'demo-admin-2026',
  username: 'Demo Admin',
};
export const DEMO_USER: Credentials & { username: string } = {
  email: 'surveyor@demo.gnss-portal.test',
  password: 'demo-user-2026',
  username: 'Demo Surveyor',
};

/** How many `login` analytics events the page has pushed so far. */
export function loginEventCount(session: Session): Promise<number> {
  return session.page.evaluate(
    () =>
      ((window as { dataLayer?: Array<{ event?: string }> }).dataLayer ?? []).filter((e) => e.event === 'login').length,
  );
}

/**
 * Resolves once the modal has closed and the app has pushed a new `login` event (GET /api/user has answered). When
 * it does not come, the error says what the page showed and logged, and a screenshot is kept: a run once waited
 * here in vain with nothing else to go on.
 */
async function waitForLogin(session: Session, before: number): Promise<void> {
  await session.page.getByTestId('login-modal').waitFor({ state: 'hidden' });
  try {
    await session.page.waitForFunction(
      (n) =>
        ((window as { dataLayer?: Array<{ event?: string }> }).dataLayer ?? []).filter((e) => e.event === 'login')
          .length > n,
      before,
    );
  } catch (error) {
    const shot = await session.screenshot('login-event-missing').catch(() => 'no screenshot');
    const failed = session.failedResponses.join('\n  ') || 'none';
    throw new Error(
      `No login event after the modal closed on ${session.page.url()} (${shot}).\n` +
        `Console errors: ${session.errors.join('\n  ') || 'none'}\nAPI answers 4xx/5xx:\n  ${failed}`,
      { cause: error },
    );
  }
}

/**
 * Creates a new account through the real sign-up modal (/signup) and waits until the user is logged in and the
 * server has its users row. Unspecified fields get fresh values; returns what was used.
 */
export async function signUp(
  session: Session,
  options: { email?: string; password?: string; username?: string } = {},
): Promise<Credentials & { username: string }> {
  await session.goto('/signup');
  return signUpInOpenModal(session, options);
}

/** Like signUp, in the sign-up modal a page has already opened, so the visitor stays on that page. */
export async function signUpInOpenModal(
  session: Session,
  options: { email?: string; password?: string; username?: string } = {},
): Promise<Credentials & { username: string }> {
  const id = randomUUID().slice(0, 8);
  const account = {
    email: options.email ?? `e2e-${id}@example.test`,
    password: options.password ?? `pw-${id}-secret`,
    username: options.username ?? `rover-${id}`,
  };
  const form = session.page.getByTestId('signup-form');
  await form.getByTestId('auth-email').fill(account.email);
  await form.getByTestId('auth-username').fill(account.username);
  await form.getByTestId('auth-password').fill(account.password);
  await form.getByTestId('auth-confirm-password').fill(account.password);
  await form.getByTestId('auth-terms').check();
  const before = await loginEventCount(session);
  await form.getByTestId('auth-submit').click();
  await waitForLogin(session, before);
  return account;
}

/** Logs in through the real login modal (/login) and waits until the app knows the user's role. */
export async function logIn(session: Session, credentials: Credentials): Promise<void> {
  await session.goto('/login');
  const form = session.page.getByTestId('login-form');
  await form.getByTestId('auth-email').fill(credentials.email);
  await form.getByTestId('auth-password').fill(credentials.password);
  const before = await loginEventCount(session);
  await form.getByTestId('auth-submit').click();
  await waitForLogin(session, before);
}

/** Logs out through the side menu's user menu and waits for the header's Log in button. */
export async function logOut(session: Session): Promise<void> {
  await session.page.locator('button[aria-controls="user-menu"]').click();
  await session.page.locator('#user-menu').getByRole('button').last().click();
  await session.page
    .getByRole('banner')
    .getByRole('button', { name: /log in/i })
    .waitFor();
}

/** The `login` events the page has pushed to window.dataLayer. */
export function loginEvents(session: Session): Promise<Array<{ event: string; userId: string; userRole: string }>> {
  return session.page.evaluate(() =>
    ((window as { dataLayer?: Array<{ event?: string }> }).dataLayer ?? []).filter((e) => e.event === 'login'),
  ) as Promise<Array<{ event: string; userId: string; userRole: string }>>;
}

/** The signed-in user's Firebase ID token, read from the SDK's IndexedDB store in the page. */
export function idToken(session: Session): Promise<string> {
  return session.page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('firebaseLocalStorageDb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result
            .transaction('firebaseLocalStorage', 'readonly')
            .objectStore('firebaseLocalStorage')
            .getAll();
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            const entry = (
              request.result as Array<{ fbase_key?: string; value?: { stsTokenManager?: { accessToken?: string } } }>
            ).find((e) => e.fbase_key?.startsWith('firebase:authUser:'));
            const token = entry?.value?.stsTokenManager?.accessToken;
            if (token) resolve(token);
            else reject(new Error('No signed-in user in this page'));
          };
        };
      }),
  );
}

/** Calls the portal API from the page as the signed-in user; answers the status and the parsed JSON body. */
export async function apiAs(
  session: Session,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  const token = await idToken(session);
  return session.page.evaluate(
    async ({ path, token, init }) => {
      const res = await fetch(`/api${path}`, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    { path, token, init },
  );
}
