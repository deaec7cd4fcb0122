import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { emulatorClient } from '../src/dev/auth-emulator.ts';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

describe(`sign-up open or invite-only on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let user: TestUser;
  let owner: TestUser;
  let orgId: string;
  const emulator = () => emulatorClient(inject('authEmulatorHost'));

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    user = await t.buildUser();
    owner = await t.buildUser();
    const created = await call('POST', '/api/organization', owner, { name: `Signup ${randomUUID().slice(0, 8)}` });
    orgId = new URL(created.json().value, 'http://x').searchParams.get('org') ?? '';
  });
  afterAll(() => t.close());

  function call(
    method: 'GET' | 'PATCH' | 'POST',
    url: string,
    who?: { headers: Record<string, string> },
    payload?: object,
  ) {
    return t.app.inject({ method, url, ...(who && { headers: who.headers }), ...(payload && { payload }) });
  }
  const setSignUp = async (signUp: string) => {
    const res = await call('PATCH', '/api/admin/settings', admin, { signUp });
    expect(res.statusCode).toBe(200);
  };
  /** Someone with a Firebase account who has never called the portal. */
  const newcomer = async (options: { email?: string; verified?: boolean; inviteToken?: string } = {}) => {
    const email = options.email ?? `new-${randomUUID()}@example.test`;
    const client = emulator();
    let { idToken, localId } = await client.signUp(email, 'correct-horse-battery');
    if (options.verified) {
      await client.markEmailVerified(localId);
      idToken = (await client.signIn(email, 'correct-horse-battery')).idToken;
    }
    const headers: Record<string, string> = { authorization: `Bearer ${idToken}` };
    if (options.inviteToken) headers['x-invite-token'] = options.inviteToken;
    return { uid: localId, headers };
  };
  const portalUser = (uid: string) =>
    t.db.selectFrom('users').select('id').where('firebase_uid', '=', uid).executeTakeFirst();
  const invite = async (email: string) => {
    const sent = await call('POST', `/api/org/${orgId}/invites`, owner, { email });
    expect(sent.statusCode).toBe(201);
    return new URL(sent.json().link).searchParams.get('token') ?? '';
  };

  it('answers 401 anonymous, 403 to a user and 400 naming signUp for an unknown mode, writing nothing', async () => {
    expect((await call('PATCH', '/api/admin/settings', undefined, { signUp: 'invite-only' })).statusCode).toBe(401);
    expect((await call('PATCH', '/api/admin/settings', user, { signUp: 'invite-only' })).statusCode).toBe(403);
    const bad = await call('PATCH', '/api/admin/settings', admin, { signUp: 'closed' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', field: 'signUp' });
    expect((await call('GET', '/api/admin/settings', admin)).json().values.signUp).toBe('open');
    expect((await call('GET', '/api/sign-up')).json()).toEqual({ signUp: 'open' });
  });

  it('records who changed it, before and after, and the public answer follows at once', async () => {
    await setSignUp('invite-only');
    const audit = await call('GET', '/api/admin/audit?action=settings.update&limit=1', admin);
    expect(audit.json().items[0]).toMatchObject({
      actorEmail: admin.email,
      targetId: 'signUp',
      before: { signUp: 'open' },
      after: { signUp: 'invite-only' },
    });
    expect((await call('GET', '/api/sign-up')).json()).toEqual({ signUp: 'invite-only' });
    await setSignUp('open');
    expect((await call('GET', '/api/sign-up')).json()).toEqual({ signUp: 'open' });
  });

  it('invite-only refuses a newcomer nobody invited with 403 and creates no user; known users carry on', async () => {
    await setSignUp('invite-only');
    const stranger = await newcomer({ verified: true });
    const refused = await call('GET', '/api/user', stranger);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'sign_up_invite_only',
      message: expect.stringContaining('invitation'),
    });
    expect(await portalUser(stranger.uid)).toBeUndefined();
    expect((await call('GET', '/api/user', user)).statusCode).toBe(200);

    await setSignUp('open');
    expect((await call('GET', '/api/user', stranger)).statusCode).toBe(200);
    expect(await portalUser(stranger.uid)).toBeDefined();
  });

  it('admits the holder of an open invite link, whatever their address, and they can then join', async () => {
    await setSignUp('invite-only');
    const token = await invite(`link-${randomUUID()}@example.test`);
    const holder = await newcomer({ inviteToken: token });
    expect((await call('GET', '/api/user', holder)).statusCode).toBe(200);
    const joined = await call('POST', '/api/invites/accept', holder, { token });
    expect(joined.statusCode).toBe(200);
    // A used link admits nobody else.
    const late = await newcomer({ inviteToken: token });
    expect((await call('GET', '/api/user', late)).json().code).toBe('sign_up_invite_only');
    await setSignUp('open');
  });

  it('admits a verified address with an open invite, not an unverified one, nor a revoked or expired invite', async () => {
    await setSignUp('invite-only');
    const email = `addressed-${randomUUID()}@example.test`;
    await invite(email);
    const unverified = await newcomer({ email });
    expect((await call('GET', '/api/user', unverified)).json().code).toBe('sign_up_invite_only');

    const otherEmail = `verified-${randomUUID()}@example.test`;
    await invite(otherEmail);
    expect((await call('GET', '/api/user', await newcomer({ email: otherEmail, verified: true }))).statusCode).toBe(
      200,
    );

    const revokedEmail = `revoked-${randomUUID()}@example.test`;
    const revokedToken = await invite(revokedEmail);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/org/${orgId}/invites`,
          headers: owner.headers,
          payload: { email: revokedEmail },
        })
      ).statusCode,
    ).toBe(200);
    const revoked = await newcomer({ email: revokedEmail, verified: true, inviteToken: revokedToken });
    expect((await call('GET', '/api/user', revoked)).statusCode).toBe(403);

    const expiredEmail = `expired-${randomUUID()}@example.test`;
    const expiredToken = await invite(expiredEmail);
    await sql`UPDATE organization_invites SET updated_at = now() - interval '3 days'
      WHERE organization_id = ${orgId} AND email = ${expiredEmail}`.execute(t.db);
    const patched = await call('PATCH', '/api/admin/settings', admin, { inviteLifetimeDays: 2 });
    expect(patched.statusCode).toBe(200);
    const expired = await newcomer({ email: expiredEmail, verified: true, inviteToken: expiredToken });
    expect((await call('GET', '/api/user', expired)).statusCode).toBe(403);
    await call('PATCH', '/api/admin/settings', admin, { inviteLifetimeDays: null, signUp: 'open' });
  });

  it('spends an invite link on the first sign-up it admits: of many newcomers at once exactly one gets in', async () => {
    await setSignUp('invite-only');
    const token = await invite(`once-${randomUUID()}@example.test`);
    const holders = await Promise.all(Array.from({ length: 6 }, () => newcomer({ inviteToken: token })));
    const answers = await Promise.all(holders.map((h) => call('GET', '/api/user', h)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 403, 403, 403, 403, 403]);
    const admitted = holders[answers.findIndex((a) => a.statusCode === 200)] as (typeof holders)[number];
    for (const [i, a] of answers.entries()) {
      if (a.statusCode === 403) expect(a.json().code).toBe('sign_up_invite_only');
      expect(await portalUser((holders[i] as (typeof holders)[number]).uid)).toEqual(
        a.statusCode === 200 ? { id: expect.any(String) } : undefined,
      );
    }
    // The one admitted keeps calling (several first calls at once, as a browser makes), and still may join.
    const again = await Promise.all([1, 2, 3].map(() => call('GET', '/api/user', admitted)));
    expect(again.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const joined = await call('POST', '/api/invites/accept', admitted, { token });
    expect(joined.statusCode).toBe(200);
    // Before anyone accepts it the link is spent all the same: a later newcomer with it is refused.
    const other = await invite(`later-${randomUUID()}@example.test`);
    const first = await newcomer({ inviteToken: other });
    expect((await call('GET', '/api/user', first)).statusCode).toBe(200);
    const second = await newcomer({ inviteToken: other });
    expect((await call('GET', '/api/user', second)).json().code).toBe('sign_up_invite_only');
    await setSignUp('open');
  });
});
