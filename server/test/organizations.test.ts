import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

const uniqueName = (prefix = 'Org') => `${prefix} ${randomUUID().slice(0, 8)}`;

describe(`organisations, invites and members on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const create = (user: TestUser, name: string) =>
    t.app.inject({ method: 'POST', url: '/api/organization', headers: user.headers, payload: { name } });
  const orgIdOf = (value: string) => new URL(value, 'http://x').searchParams.get('org') ?? '';

  it('creates an organisation, answers its URL and lists it among the creator’s teams as owner', async () => {
    const owner = await t.buildUser();
    const name = uniqueName('Fieldworks');
    const res = await create(owner, `  ${name}  `);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.success).toBe(true);
    const id = orgIdOf(body.value);
    const info = await t.app.inject({ method: 'GET', url: '/api/user', headers: owner.headers });
    expect(info.json().teams).toEqual([{ id, name, role: 'owner', url: body.value }]);
    const org = await t.app.inject({ method: 'GET', url: `/api/org/${id}`, headers: owner.headers });
    expect(org.json()).toMatchObject({ id, name, role: 'owner', memberCount: 1 });
  });

  it.each([
    ['   ', 'CanNotBeEmpty', 'The organization name can not be empty.'],
    [
      'a-!',
      'MinimumCharactersNotMet',
      'The organization name has to be at least 3 characters long. Excluding special characters.',
    ],
    [
      '@@ x y @@',
      'MinimumCharactersNotMet',
      'The organization name has to be at least 3 characters long. Excluding special characters.',
    ],
  ])('refuses %j with 400 %s and creates nothing', async (name, code, message) => {
    const user = await t.buildUser();
    const res = await create(user, name);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: code, code, message, reason: message });
    const info = await t.app.inject({ method: 'GET', url: '/api/user', headers: user.headers });
    expect(info.json().teams).toEqual([]);
  });

  it('refuses a name already taken, whatever its case', async () => {
    const a = await t.buildUser();
    const b = await t.buildUser();
    const name = uniqueName('Agro');
    expect((await create(a, name)).statusCode).toBe(201);
    const res = await create(b, name.toUpperCase());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'AlreadyTaken', message: 'This name is already taken.' });
  });

  it('stops a user at three owned organisations, also when the requests race', async () => {
    const user = await t.buildUser();
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => create(user, uniqueName())));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
    const refused = results.filter((r) => r.statusCode === 400);
    expect(refused).toHaveLength(2);
    for (const r of refused) {
      expect(r.json()).toMatchObject({
        error: 'MaximumOrganizationCreated',
        message: 'You have reached the maximum amount of organizations you can create.',
      });
    }
  });

  it('rejects a name over 32 characters as invalid input', async () => {
    const user = await t.buildUser();
    const res = await create(user, 'x'.repeat(33));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', field: 'name' });
  });

  it('asks anonymous callers to log in', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/organization', payload: { name: 'Nobody' } });
    expect(res.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/invites' })).statusCode).toBe(401);
  });

  describe('invites and members', () => {
    let owner: TestUser;
    let invitee: TestUser;
    let outsider: TestUser;
    let orgId: string;
    beforeAll(async () => {
      owner = await t.buildUser();
      invitee = await t.buildUser({ emailVerified: true });
      outsider = await t.buildUser();
      orgId = orgIdOf((await create(owner, uniqueName('Survey'))).json().value);
    });

    it('hides the organisation from outsiders', async () => {
      for (const url of [`/api/org/${orgId}`, `/api/org/${orgId}/members`, `/api/org/${orgId}/invites`]) {
        const res = await t.app.inject({ method: 'GET', url, headers: outsider.headers });
        expect(res.statusCode).toBe(404);
      }
      const invite = await t.app.inject({
        method: 'POST',
        url: `/api/org/${orgId}/invites`,
        headers: outsider.headers,
        payload: { email: outsider.email },
      });
      expect(invite.statusCode).toBe(404);
    });

    it('walks an invite through decline, acceptDeclined and membership', async () => {
      const sent = await t.app.inject({
        method: 'POST',
        url: `/api/org/${orgId}/invites`,
        headers: owner.headers,
        payload: { email: invitee.email.toUpperCase() },
      });
      expect(sent.statusCode).toBe(201);
      const again = await t.app.inject({
        method: 'POST',
        url: `/api/org/${orgId}/invites`,
        headers: owner.headers,
        payload: { email: invitee.email },
      });
      expect(again.statusCode).toBe(409);

      const mine = await t.app.inject({ method: 'GET', url: '/api/invites', headers: invitee.headers });
      expect(mine.json()).toEqual([
        expect.objectContaining({ organization: expect.objectContaining({ id: orgId }), status: 'pending' }),
      ]);

      const answer = (action: string) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/invites',
          headers: invitee.headers,
          payload: { action, organization: orgId },
        });
      expect((await answer('acceptDeclined')).statusCode).toBe(409);
      expect((await answer('decline')).statusCode).toBe(200);
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/org/${orgId}`, headers: invitee.headers })).statusCode,
      ).toBe(404);
      expect((await answer('accept')).statusCode).toBe(409);
      expect((await answer('acceptDeclined')).statusCode).toBe(200);

      const info = await t.app.inject({ method: 'GET', url: '/api/user', headers: invitee.headers });
      expect(info.json().teams).toEqual([expect.objectContaining({ id: orgId, role: 'member' })]);
      const invites = await t.app.inject({ method: 'GET', url: `/api/org/${orgId}/invites`, headers: owner.headers });
      expect(invites.json()).toEqual([
        expect.objectContaining({ email: invitee.email.toLowerCase(), status: 'accepted' }),
      ]);
    });

    it('lets members read the member list but not invite', async () => {
      const members = await t.app.inject({ method: 'GET', url: `/api/org/${orgId}/members`, headers: invitee.headers });
      expect(members.statusCode).toBe(200);
      expect(
        members
          .json()
          .map((m: { role: string }) => m.role)
          .sort(),
      ).toEqual(['member', 'owner']);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/org/${orgId}/invites`,
        headers: invitee.headers,
        payload: { email: 'someone@example.test' },
      });
      expect(res.statusCode).toBe(403);
    });

    it('lets the owner promote a member, and nobody change the owner', async () => {
      const promote = await t.app.inject({
        method: 'PUT',
        url: `/api/org/${orgId}/members`,
        headers: owner.headers,
        payload: { forMember: invitee.userId, role: 'admin' },
      });
      expect(promote.statusCode).toBe(200);
      const demoteOwner = await t.app.inject({
        method: 'PUT',
        url: `/api/org/${orgId}/members`,
        headers: invitee.headers,
        payload: { forMember: owner.userId, role: 'member' },
      });
      expect(demoteOwner.statusCode).toBe(403);
      const members = await t.app.inject({ method: 'GET', url: `/api/org/${orgId}/members`, headers: owner.headers });
      expect(members.json()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ userId: owner.userId, role: 'owner' }),
          expect.objectContaining({ userId: invitee.userId, role: 'admin' }),
        ]),
      );
    });

    it('revokes a pending invite, and says 404 for one that does not exist', async () => {
      const email = `later-${randomUUID()}@example.test`;
      await t.app.inject({
        method: 'POST',
        url: `/api/org/${orgId}/invites`,
        headers: owner.headers,
        payload: { email },
      });
      const revoke = () =>
        t.app.inject({
          method: 'DELETE',
          url: `/api/org/${orgId}/invites`,
          headers: owner.headers,
          payload: { email },
        });
      expect((await revoke()).statusCode).toBe(200);
      expect((await revoke()).statusCode).toBe(404);
    });
  });
});
