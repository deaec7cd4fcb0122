import { createHmac, createSign, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { DEMO_PROJECT_ID, emulatorClient } from '../src/dev/auth-emulator.ts';
import { firebaseVerifier } from '../src/http/firebase-verifier.ts';
import { createTestDatabase, testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

const b64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** The claims of a Firebase ID token for a project, as the Auth Emulator mints them. */
function claims(user: TestUser, options: { projectId?: string; issuedSecondsAgo?: number; lifetime?: number } = {}) {
  const projectId = options.projectId ?? DEMO_PROJECT_ID;
  const now = Math.floor(Date.now() / 1000);
  const iat = now - (options.issuedSecondsAgo ?? 0);
  return {
    iss: `https://securetoken.google.com/${projectId}`,
    aud: projectId,
    // In emulator mode firebase-admin also refuses sign-ins older than the account (revocation check): keep it now.
    auth_time: now,
    user_id: user.uid,
    sub: user.uid,
    iat,
    exp: iat + (options.lifetime ?? 3600),
    email: user.email,
    email_verified: false,
    firebase: { identities: { email: [user.email] }, sign_in_provider: 'password' },
  };
}

/** Unsigned, like the emulator's own tokens: only the claims decide. */
const unsigned = (payload: object) => `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;

function signedRs256(payload: object): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const head = `${b64url({ alg: 'RS256', kid: 'not-a-google-key', typ: 'JWT' })}.${b64url(payload)}`;
  const signature = createSign('RSA-SHA256').update(head).sign(privateKey).toString('base64url');
  return `${head}.${signature}`;
}

function signedHs256(payload: object): string {
  const head = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}`;
  return `${head}.${createHmac('sha256', 'guessed-secret').update(head).digest('base64url')}`;
}

const UNAUTHENTICATED = { code: 'unauthenticated', message: 'User is not logged in' };

describe(`bearer token checks on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    // Every route is called with every bad token below, all from one address: failed tokens count against the
    // address's anonymous budget (rate-limit.test.ts), which these checks must not run into.
    t = await buildTestApp({ anonymousRequestsPerMinute: 100_000 });
    user = await t.buildUser();
  });
  afterAll(() => t.close());

  const getUser = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/api/user', headers: authorization ? { authorization } : {} });

  it('accepts a well-formed token crafted here (so the rejections below are about one flaw each)', async () => {
    const res = await getUser(`Bearer ${unsigned(claims(user))}`);
    expect(res.statusCode).toBe(200);
  });

  it.each<[string, () => string | undefined]>([
    ['no Authorization header', () => undefined],
    ['an empty bearer', () => 'Bearer '],
    ['a non-JWT string', () => 'Bearer not-a-token'],
    ['a JWT with an unparsable payload', () => 'Bearer eyJhbGciOiJub25lIn0.!!!.'],
    ['an expired token', () => `Bearer ${unsigned(claims(user, { issuedSecondsAgo: 7200 }))}`],
    ['a token expiring a second ago', () => `Bearer ${unsigned(claims(user, { issuedSecondsAgo: 3601 }))}`],
    ['a token of another project', () => `Bearer ${unsigned(claims(user, { projectId: 'demo-other-project' }))}`],
    [
      'a token of the right audience but another issuer',
      () => `Bearer ${unsigned({ ...claims(user), iss: 'https://securetoken.google.com/demo-other-project' })}`,
    ],
    ['a token without a subject', () => `Bearer ${unsigned({ ...claims(user), sub: '' })}`],
    ['a token signed RS256 with a key that is not Firebase’s', () => `Bearer ${signedRs256(claims(user))}`],
    ['a token signed HS256 with a guessed secret', () => `Bearer ${signedHs256(claims(user))}`],
    [
      'a real token with its signature part replaced',
      () => `Bearer ${user.token.replace(/\.[^.]*$/, '.c2lnbmF0dXJl')}`,
    ],
    ['a real token under another scheme', () => `Basic ${user.token}`],
  ])('answers 401 unauthenticated for %s', async (_name, header) => {
    const res = await getUser(header());
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(UNAUTHENTICATED);
  });

  it('answers 401 for every bad token on every route that requires a user', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const bad = [
      undefined,
      'Bearer bad',
      `Bearer ${unsigned(claims(user, { issuedSecondsAgo: 7200 }))}`,
      `Bearer ${unsigned(claims(user, { projectId: 'demo-other-project' }))}`,
      `Bearer ${signedRs256(claims(user))}`,
    ];
    let protectedRoutes = 0;
    for (const [path, methods] of Object.entries(spec.paths)) {
      const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      for (const method of Object.keys(methods)) {
        const verb = method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
        const anonymous = await t.app.inject({ method: verb, url });
        if (anonymous.statusCode !== 401) continue;
        protectedRoutes++;
        for (const authorization of bad) {
          const res = await t.app.inject({ method: verb, url, headers: authorization ? { authorization } : {} });
          expect({ route: `${verb} ${path}`, status: res.statusCode, code: res.json().code }).toEqual({
            route: `${verb} ${path}`,
            status: 401,
            code: 'unauthenticated',
          });
        }
      }
    }
    expect(protectedRoutes).toBeGreaterThan(0);
  });

  it('answers 403 account_disabled for a valid token of a disabled account', async () => {
    const disabled = await t.buildUser();
    await t.db.updateTable('users').set({ disabled: true }).where('id', '=', disabled.userId).execute();
    const res = await getUser(disabled.headers.authorization);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('account_disabled');
  });
});

describe(`rate limit of anonymous calls on ${testDatabaseKind()}`, () => {
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('answers 429 rate_limited per IP after the limit, other IPs and signed-in callers unaffected', async () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
    const app = await buildApp({
      db: handle.db,
      verifier: firebaseVerifier(DEMO_PROJECT_ID),
      anonymousRequestsPerMinute: 3,
    });
    try {
      const from = (ip: string) => app.inject({ method: 'GET', url: '/api/meta', remoteAddress: ip });
      for (let i = 0; i < 3; i++) expect((await from('203.0.113.7')).statusCode).toBe(200);
      const limited = await from('203.0.113.7');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ code: 'rate_limited', message: expect.any(String) });
      expect(limited.headers['retry-after']).toBeDefined();
      expect((await from('203.0.113.8')).statusCode).toBe(200);
      // A verified caller from the limited address is limited by its account, not by the anonymous budget.
      const { idToken } = await emulatorClient(inject('authEmulatorHost')).signUp(
        `limited-${Date.now()}@example.test`,
        'correct-horse-battery',
      );
      for (let i = 0; i < 4; i++) {
        const signedIn = await app.inject({
          method: 'GET',
          url: '/api/user',
          remoteAddress: '203.0.113.7',
          headers: { authorization: `Bearer ${idToken}` },
        });
        expect(signedIn.statusCode).toBe(200);
      }
    } finally {
      await app.close();
    }
  });

  it('does not let an anonymous caller escape the limit by sending a made-up Authorization header', async () => {
    const app = await buildApp({
      db: handle.db,
      verifier: firebaseVerifier(DEMO_PROJECT_ID),
      anonymousRequestsPerMinute: 2,
    });
    try {
      const call = () =>
        app.inject({
          method: 'GET',
          url: '/api/meta',
          remoteAddress: '203.0.113.9',
          headers: { authorization: 'Bearer made-up' },
        });
      await call();
      await call();
      expect((await call()).statusCode).toBe(429);
    } finally {
      await app.close();
    }
  });
});
