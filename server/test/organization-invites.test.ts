import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

const PUBLIC_URL = 'https://portal.example.test';

/**
 * Invite squatting (issue 16): an address invited before its owner registered may be signed up by anyone, so an
 * invite goes only to a user whose e-mail is verified, or to whoever holds the invite's secret link.
 */
describe(`invite acceptance on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  // One owner per organisation: a user may own only three.
  const owners = new Map<string, TestUser>();
  const ownerOf = (orgId: string) => owners.get(orgId) as TestUser;
  beforeAll(async () => {
    t = await buildTestApp({ publicUrl: PUBLIC_URL });
  });
  afterAll(() => t.close());

  async function newOrganization() {
    const owner = await t.buildUser();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/organization',
      headers: owner.headers,
      payload: { name: `Crew ${randomUUID().slice(0, 8)}` },
    });
    expect(res.statusCode).toBe(201);
    const orgId = new URL(res.json().value, 'http://x').searchParams.get('org') ?? '';
    owners.set(orgId, owner);
    return orgId;
  }
  /** Invites `email` and answers the secret link the inviter is given. */
  async function invite(orgId: string, email: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/org/${orgId}/invites`,
      headers: ownerOf(orgId).headers,
      payload: { email },
    });
    expect(res.statusCode).toBe(201);
    return res.json().link as string;
  }
  const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';
  const useLink = (user: TestUser, token: string) =>
    t.app.inject({ method: 'POST', url: '/api/invites/accept', headers: user.headers, payload: { token } });
  const answer = (user: TestUser, action: string, organization: string) =>
    t.app.inject({ method: 'PUT', url: '/api/invites', headers: user.headers, payload: { action, organization } });
  const isMember = async (user: TestUser, orgId: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/org/${orgId}/members`, headers: user.headers })).statusCode === 200;
  async function inviteOf(orgId: string, email: string) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/org/${orgId}/invites`,
      headers: ownerOf(orgId).headers,
    });
    return (res.json() as Array<{ email: string; status: string; acceptedBy: string | null }>).find(
      (i) => i.email === email.toLowerCase(),
    );
  }

  it('gives the inviter a secret link on PUBLIC_URL', async () => {
    const link = await invite(await newOrganization(), `someone-${randomUUID()}@example.test`);
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/invites/accept\\?token=[A-Za-z0-9_-]{43}$`));
  });

  it('says the link was not e-mailed when the portal has no mail server', async () => {
    const orgId = await newOrganization();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/org/${orgId}/invites`,
      headers: ownerOf(orgId).headers,
      payload: { email: `someone-${randomUUID()}@example.test` },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().mailed).toBe(false);
  });

  it('names the organisation and the inviter to whoever holds a valid link, logged in or not, and nothing otherwise', async () => {
    const orgId = await newOrganization();
    const owner = ownerOf(orgId);
    const org = await t.app.inject({ method: 'GET', url: `/api/org/${orgId}`, headers: owner.headers });
    const email = `previewed-${randomUUID()}@example.test`;
    const token = tokenOf(await invite(orgId, email));
    const preview = (value: string) =>
      t.app.inject({ method: 'POST', url: '/api/invites/preview', payload: { token: value } });

    const res = await preview(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ organization: { name: org.json().name }, inviter: owner.email });

    const madeUp = await preview(randomBytes(32).toString('base64url'));
    expect(madeUp.statusCode).toBe(404);
    expect(madeUp.json().code).toBe('invite_link_invalid');
    expect(madeUp.body).not.toContain(org.json().name);

    await t.app.inject({
      method: 'DELETE',
      url: `/api/org/${orgId}/invites`,
      headers: owner.headers,
      payload: { email },
    });
    const revoked = await preview(token);
    expect(revoked.statusCode).toBe(410);
    expect(revoked.json().code).toBe('invite_revoked');
    expect(revoked.body).not.toContain(org.json().name);
    expect(revoked.body).not.toContain(owner.email);
  });

  it('neither shows nor hands an invite to an unverified user who registered the invited address', async () => {
    const orgId = await newOrganization();
    const email = `squatted-${randomUUID()}@example.test`;
    await invite(orgId, email);
    const squatter = await t.buildUser({ email });

    const mine = await t.app.inject({ method: 'GET', url: '/api/invites', headers: squatter.headers });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual([]);
    for (const action of ['accept', 'decline']) {
      const res = await answer(squatter, action, orgId);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'email_not_verified', message: expect.stringContaining('Verify') });
    }

    expect(await isMember(squatter, orgId)).toBe(false);
    expect(await inviteOf(orgId, email)).toMatchObject({ status: 'pending', acceptedBy: null });
  });

  it('lets the verified owner of the address accept, which spends the link', async () => {
    const orgId = await newOrganization();
    const invitee = await t.buildUser({ emailVerified: true });
    const link = await invite(orgId, invitee.email);
    const mine = await t.app.inject({ method: 'GET', url: '/api/invites', headers: invitee.headers });
    expect(mine.json()).toEqual([expect.objectContaining({ organization: expect.objectContaining({ id: orgId }) })]);

    expect((await answer(invitee, 'accept', orgId)).statusCode).toBe(200);
    expect(await isMember(invitee, orgId)).toBe(true);
    expect(await inviteOf(orgId, invitee.email)).toMatchObject({ status: 'accepted', acceptedBy: invitee.email });
    const other = await t.buildUser();
    expect((await useLink(other, tokenOf(link))).statusCode).toBe(404);
    expect(await isMember(other, orgId)).toBe(false);
  });

  it('lets whoever holds the link join, whatever their e-mail, once', async () => {
    const orgId = await newOrganization();
    const invited = `colleague-${randomUUID()}@example.test`;
    const link = await invite(orgId, invited);
    const holder = await t.buildUser();

    const res = await useLink(holder, tokenOf(link));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      organization: { id: orgId, name: expect.any(String) },
      url: `/settings/organization?org=${orgId}`,
    });
    expect(await isMember(holder, orgId)).toBe(true);
    expect(await inviteOf(orgId, invited)).toMatchObject({ status: 'accepted', acceptedBy: holder.email });

    const second = await t.buildUser();
    const again = await useLink(second, tokenOf(link));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'invite_link_invalid' });
    expect(await isMember(second, orgId)).toBe(false);
  });

  it('lets only one of two users racing with the same link join', async () => {
    const orgId = await newOrganization();
    const token = tokenOf(await invite(orgId, `race-${randomUUID()}@example.test`));
    const [a, b] = await Promise.all([t.buildUser(), t.buildUser()]);
    const results = await Promise.all([useLink(a, token), useLink(b, token)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    expect([await isMember(a, orgId), await isMember(b, orgId)].filter(Boolean)).toHaveLength(1);
  });

  it('refuses a made-up token and changes nothing', async () => {
    const orgId = await newOrganization();
    const email = `pending-${randomUUID()}@example.test`;
    await invite(orgId, email);
    const guesser = await t.buildUser();
    const res = await useLink(guesser, randomBytes(32).toString('base64url'));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'invite_link_invalid', message: expect.any(String) });
    expect(await isMember(guesser, orgId)).toBe(false);
    expect(await inviteOf(orgId, email)).toMatchObject({ status: 'pending' });
  });

  it('keeps the link open when a member opens it, for the colleague it was meant for', async () => {
    const orgId = await newOrganization();
    const email = `kept-${randomUUID()}@example.test`;
    const token = tokenOf(await invite(orgId, email));
    const res = await useLink(ownerOf(orgId), token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'already_member' });
    expect(await inviteOf(orgId, email)).toMatchObject({ status: 'pending' });
    expect((await useLink(await t.buildUser(), token)).statusCode).toBe(200);
  });

  it('opens a declined invite with its link (accept after decline), but not one sent again with the old link', async () => {
    const orgId = await newOrganization();
    const invitee = await t.buildUser({ emailVerified: true });
    const first = tokenOf(await invite(orgId, invitee.email));
    expect((await answer(invitee, 'decline', orgId)).statusCode).toBe(200);
    const second = tokenOf(await invite(orgId, invitee.email));
    const holder = await t.buildUser();
    expect((await useLink(holder, first)).statusCode).toBe(404);

    expect((await answer(invitee, 'decline', orgId)).statusCode).toBe(200);
    expect((await useLink(holder, second)).statusCode).toBe(200);
    expect(await isMember(holder, orgId)).toBe(true);
  });

  it('asks an anonymous caller with a link to log in', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/invites/accept', payload: { token: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});
