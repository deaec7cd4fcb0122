import { randomUUID } from 'node:crypto';
import { organizationChangedSchema } from '@portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer } from '../src/modules/ntrip/ntrip.authorizer.ts';
import { createNtripRepo } from '../src/modules/ntrip/ntrip.repo.ts';
import { payOnSandbox, sandboxIdOf } from './billing/support.ts';

import { testDatabaseKind } from './support/database.ts';
import {
  balanceOf,
  createNetwork,
  createOrganization,
  createProduct,
  createStation,
  grantTokens,
} from './support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Who = 'owner' | 'admin' | 'member' | 'outsider' | 'siteAdmin';
const WHO: Who[] = ['owner', 'admin', 'member', 'outsider', 'siteAdmin'];

/**
 * Organisations a company can run (issue 21, docs/adr/0026): every role against every action, the last-owner rule,
 * the invite lifecycle, organisation NTRIP accounts paid from the organisation's tokens, what the caster makes of a
 * member who left, and that one organisation's people reach nothing of another's.
 */
describe(`organisation management on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let siteAdmin: TestUser;
  let authorizer: ReturnType<typeof createAuthorizer>;
  let network: { id: string; slug: string };
  const near = () => `${network.slug.toUpperCase()}_NEAR`;

  const call = (user: TestUser, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, payload, headers: user.headers });

  async function inviteLink(orgId: string, by: TestUser, email: string) {
    const res = await call(by, 'POST', `/org/${orgId}/invites`, { email });
    expect(res.statusCode).toBe(201);
    return new URL(res.json().link).searchParams.get('token') ?? '';
  }
  async function join(orgId: string, by: TestUser, role: 'member' | 'admin' | 'owner' = 'member') {
    const user = await t.buildUser();
    const token = await inviteLink(orgId, by, user.email);
    expect((await call(user, 'POST', '/invites/accept', { token })).statusCode).toBe(200);
    if (role !== 'member') {
      const promoted = await call(by, 'PUT', `/org/${orgId}/members`, { forMember: user.userId, role });
      expect(promoted.statusCode).toBe(200);
      // The SPA parses the answer with this schema.
      expect(organizationChangedSchema.safeParse(promoted.json()).success).toBe(true);
    }
    return user;
  }
  async function roles(orgId: string) {
    const r = await sql<{ user_id: string; role: string }>`
      SELECT user_id::text AS user_id, role FROM organization_members WHERE organization_id = ${orgId}`.execute(t.db);
    return new Map(r.rows.map((row) => [row.user_id, row.role]));
  }
  async function orgTokens(orgId: string) {
    const r = await sql<{ token_balance: number }>`SELECT token_balance FROM organizations WHERE id = ${orgId}`.execute(
      t.db,
    );
    return Number(r.rows[0]?.token_balance);
  }

  /** An organisation with one of each role, and the two who are not in it. */
  async function crew() {
    const owner = await t.buildUser();
    const orgId = await createOrganization(t, owner);
    const admin = await join(orgId, owner, 'admin');
    const member = await join(orgId, owner);
    const outsider = await t.buildUser();
    const people: Record<Who, TestUser> = { owner, admin, member, outsider, siteAdmin };
    return { orgId, ...people, people };
  }

  beforeAll(async () => {
    // The caster's authorizer on the same database, told of access changes as main.ts wires it.
    let changed = () => {};
    t = await buildTestApp({ ntripAccounts: { access: { accessChanged: () => changed() } } });
    authorizer = createAuthorizer({ repo: createNtripRepo(t.db), ttlMs: 60_000, epochPollMs: 60_000 });
    changed = () => authorizer.invalidate();
    siteAdmin = await t.buildAdmin();
    network = await createNetwork(t.db, { price: 5 });
    await createStation(t.db, network.id, `ST${network.slug.slice(-6)}`);
  });
  afterAll(async () => {
    authorizer?.close();
    await t?.close();
  });

  describe('each role against each action', () => {
    let c: Awaited<ReturnType<typeof crew>>;
    beforeAll(async () => {
      c = await crew();
      await grantTokens(t, siteAdmin, c.owner, 1000);
      await grantTokens(t, siteAdmin, c.admin, 1000);
      await grantTokens(t, siteAdmin, c.member, 1000);
      await grantTokens(t, siteAdmin, c.outsider, 1000);
    });

    /** Runs the action once per role (each with what it needs made fresh) and compares the answers. */
    async function expectStatuses(
      expected: Record<Who, number>,
      action: (user: TestUser, who: Who) => Promise<{ statusCode: number }>,
    ) {
      const got: Partial<Record<Who, number>> = {};
      for (const who of WHO) got[who] = (await action(c.people[who], who)).statusCode;
      expect(got).toEqual(expected);
    }
    const reads = { owner: 200, admin: 200, member: 200, outsider: 404, siteAdmin: 404 };
    const manages = { owner: 200, admin: 200, member: 403, outsider: 404, siteAdmin: 404 };

    it('reads the organisation, its members and its NTRIP accounts: members only', async () => {
      await expectStatuses(reads, (u) => call(u, 'GET', `/org/${c.orgId}`));
      await expectStatuses(reads, (u) => call(u, 'GET', `/org/${c.orgId}/members`));
      await expectStatuses(reads, (u) => call(u, 'GET', `/org/${c.orgId}/ntrip-accounts`));
      await expectStatuses(reads, (u) => call(u, 'GET', `/org/${c.orgId}/tokens`));
    });

    it('renames, invites, lists and revokes invites: owners and admins', async () => {
      await expectStatuses(manages, (u) =>
        call(u, 'PATCH', `/org/${c.orgId}`, { name: `Renamed ${randomUUID()}`.slice(0, 30) }),
      );
      await expectStatuses({ ...manages, owner: 201, admin: 201 }, (u) =>
        call(u, 'POST', `/org/${c.orgId}/invites`, { email: `new-${randomUUID()}@example.test` }),
      );
      await expectStatuses(manages, (u) => call(u, 'GET', `/org/${c.orgId}/invites`));
      await expectStatuses(manages, async (u) => {
        const email = `revoke-${randomUUID()}@example.test`;
        await inviteLink(c.orgId, c.owner, email);
        return call(u, 'DELETE', `/org/${c.orgId}/invites`, { email });
      });
    });

    it('removes a plain member: owners and admins; only the owner makes someone admin', async () => {
      await expectStatuses(manages, async (u) => {
        const target = await join(c.orgId, c.owner);
        return call(u, 'DELETE', `/org/${c.orgId}/members`, { forMember: target.userId });
      });
      await expectStatuses({ ...manages, admin: 403 }, async (u) => {
        const target = await join(c.orgId, c.owner);
        return call(u, 'PUT', `/org/${c.orgId}/members`, { forMember: target.userId, role: 'admin' });
      });
      // An admin removes neither another admin nor an owner.
      const otherAdmin = await join(c.orgId, c.owner, 'admin');
      expect(
        (await call(c.admin, 'DELETE', `/org/${c.orgId}/members`, { forMember: otherAdmin.userId })).statusCode,
      ).toBe(403);
      expect((await call(c.admin, 'DELETE', `/org/${c.orgId}/members`, { forMember: c.owner.userId })).statusCode).toBe(
        403,
      );
      // Nor changes their roles.
      for (const target of [otherAdmin, c.owner]) {
        const res = await call(c.admin, 'PUT', `/org/${c.orgId}/members`, { forMember: target.userId, role: 'member' });
        expect(res.statusCode).toBe(403);
      }
      expect((await roles(c.orgId)).get(otherAdmin.userId)).toBe('admin');
      expect((await roles(c.orgId)).get(c.owner.userId)).toBe('owner');
    });

    it('leaves: everyone but the last owner; transfers ownership: owners only', async () => {
      const leavers = await crew();
      await expectStatuses({ owner: 409, admin: 200, member: 200, outsider: 404, siteAdmin: 404 }, (_u, who) =>
        call(leavers.people[who], 'POST', `/org/${leavers.orgId}/leave`),
      );
      expect([...(await roles(leavers.orgId)).entries()]).toEqual([[leavers.owner.userId, 'owner']]);

      await expectStatuses({ owner: 200, admin: 403, member: 403, outsider: 404, siteAdmin: 404 }, async (u, who) => {
        if (who !== 'owner') return call(u, 'POST', `/org/${c.orgId}/transfer`, { forMember: c.member.userId });
        const fresh = await crew();
        return call(fresh.owner, 'POST', `/org/${fresh.orgId}/transfer`, { forMember: fresh.member.userId });
      });
      const after = await roles(c.orgId);
      expect([after.get(c.owner.userId), after.get(c.admin.userId), after.get(c.member.userId)]).toEqual([
        'owner',
        'admin',
        'member',
      ]);
    });

    it('moves tokens in, makes accounts and activates them with the organisation’s tokens: owners and admins', async () => {
      await expectStatuses(manages, (u) => call(u, 'POST', `/org/${c.orgId}/tokens`, { tokenAmount: 100 }));
      expect(await orgTokens(c.orgId)).toBe(200);
      expect(await balanceOf(t, c.owner)).toBe(900);
      expect(await balanceOf(t, c.member)).toBe(1000);

      await expectStatuses({ ...manages, owner: 201, admin: 201 }, (u) =>
        call(u, 'POST', `/org/${c.orgId}/ntrip-accounts`, { label: 'Truck' }),
      );
      const account = (await call(c.owner, 'POST', `/org/${c.orgId}/ntrip-accounts`, { label: 'Drone' })).json()
        .account as { id: string };
      await expectStatuses({ ...manages, owner: 201, admin: 201 }, (u) =>
        call(u, 'POST', '/tokens', { accountId: account.id, feedNetworkId: network.id, days: 2 }),
      );
      // Two activations of 2 days at 5 a day, from the organisation; nobody's own tokens.
      expect(await orgTokens(c.orgId)).toBe(180);
      for (const who of ['owner', 'admin', 'member', 'outsider'] as const) {
        expect(await balanceOf(t, c[who])).toBe(who === 'owner' || who === 'admin' ? 900 : 1000);
      }
      await expectStatuses(reads, (u) => call(u, 'GET', `/ntrip-accounts/${account.id}`));
      await expectStatuses({ ...manages, owner: 204, admin: 204 }, async (u, who) => {
        if (who === 'member' || who === 'outsider' || who === 'siteAdmin') {
          return call(u, 'DELETE', `/ntrip-accounts/${account.id}`);
        }
        const made = (await call(c.owner, 'POST', `/org/${c.orgId}/ntrip-accounts`, { label: 'Spare' })).json();
        return call(u, 'DELETE', `/ntrip-accounts/${made.account.id}`);
      });
    });

    it('an organisation’s account is in no member’s personal list, and a member cannot spend on it', async () => {
      const made = (
        await call(c.owner, 'POST', `/org/${c.orgId}/ntrip-accounts`, {
          label: 'For the member',
          holderId: c.member.userId,
        })
      ).json();
      const personal = (await call(c.member, 'GET', '/ntrip-accounts')).json().items as { id: string }[];
      expect(personal.map((a) => a.id)).not.toContain(made.account.id);
      const others = (await call(c.owner, 'POST', `/org/${c.orgId}/ntrip-accounts`, { label: 'The owner’s' })).json();
      const listed = (await call(c.member, 'GET', `/org/${c.orgId}/ntrip-accounts`)).json().items;
      // What the member may do with each, so the SPA offers only that (issue 32).
      expect(listed).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id: made.account.id,
            organization: expect.objectContaining({
              holderUserId: c.member.userId,
              canManage: false,
              canRenewPassword: true,
            }),
          }),
          expect.objectContaining({
            id: others.account.id,
            organization: expect.objectContaining({ canManage: false, canRenewPassword: false }),
          }),
        ]),
      );
      expect((await call(c.member, 'POST', `/ntrip-accounts/${others.account.id}/password`)).statusCode).toBe(403);
      await call(c.owner, 'DELETE', `/ntrip-accounts/${others.account.id}`);
      const before = await orgTokens(c.orgId);
      const res = await call(c.member, 'POST', '/tokens', {
        accountId: made.account.id,
        feedNetworkId: network.id,
        days: 1,
      });
      expect(res.statusCode).toBe(403);
      expect(await orgTokens(c.orgId)).toBe(before);
      // The member who uses it renews its password; they cannot rename or switch it off.
      expect((await call(c.member, 'POST', `/ntrip-accounts/${made.account.id}/password`)).statusCode).toBe(200);
      expect((await call(c.member, 'PATCH', `/ntrip-accounts/${made.account.id}`, { label: 'Mine' })).statusCode).toBe(
        403,
      );
    });

    it('answers an activation short of organisation tokens with 402 and spends nothing', async () => {
      const { orgId, owner } = await crew();
      const made = (await call(owner, 'POST', `/org/${orgId}/ntrip-accounts`, { label: 'Broke' })).json();
      await grantTokens(t, siteAdmin, owner, 500);
      const res = await call(owner, 'POST', '/tokens', {
        accountId: made.account.id,
        feedNetworkId: network.id,
        days: 3,
      });
      expect(res.statusCode).toBe(402);
      expect(res.json()).toMatchObject({ code: 'insufficient_tokens', needed: 15, balance: 0 });
      expect(await balanceOf(t, owner)).toBe(500);
    });

    it('deletes the organisation: owners and admins, with its name typed again', async () => {
      await expectStatuses(manages, async (u, who) => {
        if (who === 'member' || who === 'outsider' || who === 'siteAdmin') {
          const name = (await call(c.owner, 'GET', `/org/${c.orgId}`)).json().name;
          return call(u, 'DELETE', `/org/${c.orgId}`, { name });
        }
        const fresh = await crew();
        const name = (await call(fresh.owner, 'GET', `/org/${fresh.orgId}`)).json().name;
        const wrong = await call(fresh[who], 'DELETE', `/org/${fresh.orgId}`, { name: `${name}x` });
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json().code).toBe('name_mismatch');
        const res = await call(fresh[who], 'DELETE', `/org/${fresh.orgId}`, { name });
        expect((await call(fresh.owner, 'GET', `/org/${fresh.orgId}`)).statusCode).toBe(404);
        return res;
      });
      expect((await call(c.owner, 'GET', `/org/${c.orgId}`)).statusCode).toBe(200);
    });
  });

  describe('the last owner', () => {
    it('can neither leave, nor be demoted, nor be removed; transferring ownership keeps one', async () => {
      const { orgId, owner, admin, member } = await crew();
      const leave = await call(owner, 'POST', `/org/${orgId}/leave`);
      expect(leave.statusCode).toBe(409);
      expect(leave.json().code).toBe('last_owner');
      const demote = await call(owner, 'PUT', `/org/${orgId}/members`, { forMember: owner.userId, role: 'admin' });
      expect(demote.json().code).toBe('last_owner');
      expect((await call(owner, 'DELETE', `/org/${orgId}/members`, { forMember: owner.userId })).json().code).toBe(
        'last_owner',
      );
      expect((await call(admin, 'DELETE', `/org/${orgId}/members`, { forMember: owner.userId })).statusCode).toBe(403);
      expect((await roles(orgId)).get(owner.userId)).toBe('owner');

      // Only an owner transfers, to a member.
      expect((await call(admin, 'POST', `/org/${orgId}/transfer`, { forMember: admin.userId })).statusCode).toBe(403);
      expect((await call(owner, 'POST', `/org/${orgId}/transfer`, { forMember: randomUUID() })).statusCode).toBe(404);
      expect((await call(owner, 'POST', `/org/${orgId}/transfer`, { forMember: member.userId })).statusCode).toBe(200);
      const after = await roles(orgId);
      expect([after.get(owner.userId), after.get(member.userId)]).toEqual(['admin', 'owner']);
      // The former owner is an admin now and may leave; the new one may not.
      expect((await call(member, 'POST', `/org/${orgId}/leave`)).json().code).toBe('last_owner');
      expect((await call(owner, 'POST', `/org/${orgId}/leave`)).statusCode).toBe(200);
      expect((await call(admin, 'POST', `/org/${orgId}/leave`)).statusCode).toBe(200);
      expect([...(await roles(orgId)).entries()]).toEqual([[member.userId, 'owner']]);
    });

    it('with two owners leaving at once, one leaves and the other stays owner', async () => {
      const { orgId, owner } = await crew();
      const second = await join(orgId, owner, 'owner');
      const results = await Promise.all([
        call(owner, 'POST', `/org/${orgId}/leave`),
        call(second, 'POST', `/org/${orgId}/leave`),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect([...(await roles(orgId)).values()].filter((r) => r === 'owner')).toHaveLength(1);
    });
  });

  describe('the invite lifecycle', () => {
    const answer = (user: TestUser, action: string, organization: string) =>
      call(user, 'PUT', '/invites', { action, organization });
    const statusOf = async (orgId: string, owner: TestUser, email: string) =>
      ((await call(owner, 'GET', `/org/${orgId}/invites`)).json() as { email: string; status: string }[]).find(
        (i) => i.email === email,
      )?.status;

    it('accepts, declines, accepts after decline, by verified address and by link; a wrong address gets nothing', async () => {
      const owner = await t.buildUser();
      const orgId = await createOrganization(t, owner);
      const invitee = await t.buildUser({ emailVerified: true });
      await inviteLink(orgId, owner, invitee.email);

      const wrong = await t.buildUser({ emailVerified: true });
      expect((await call(wrong, 'GET', '/invites')).json()).toEqual([]);
      expect((await answer(wrong, 'accept', orgId)).statusCode).toBe(404);

      expect((await answer(invitee, 'decline', orgId)).statusCode).toBe(200);
      expect(await statusOf(orgId, owner, invitee.email)).toBe('declined');
      expect((await answer(invitee, 'accept', orgId)).json().code).toBe('invite_not_open');
      expect((await answer(invitee, 'acceptDeclined', orgId)).statusCode).toBe(200);
      expect((await roles(orgId)).get(invitee.userId)).toBe('member');

      // By link: declined with it, then accepted with it.
      const colleague = await t.buildUser();
      const token = await inviteLink(orgId, owner, `colleague-${randomUUID()}@example.test`);
      expect((await call(colleague, 'POST', '/invites/decline', { token })).statusCode).toBe(200);
      expect((await roles(orgId)).has(colleague.userId)).toBe(false);
      expect((await call(colleague, 'POST', '/invites/accept', { token })).statusCode).toBe(200);
      expect((await roles(orgId)).get(colleague.userId)).toBe('member');
      expect((await call(colleague, 'POST', '/invites/accept', { token })).json().code).toBe('invite_link_invalid');
    });

    it('says a revoked invite was revoked and an expired one expired, by link and by address', async () => {
      const owner = await t.buildUser();
      const orgId = await createOrganization(t, owner);
      const revokedUser = await t.buildUser({ emailVerified: true });
      const revoked = await inviteLink(orgId, owner, revokedUser.email);
      expect((await call(owner, 'DELETE', `/org/${orgId}/invites`, { email: revokedUser.email })).statusCode).toBe(200);
      expect(await statusOf(orgId, owner, revokedUser.email)).toBe('revoked');
      const byLink = await call(await t.buildUser(), 'POST', '/invites/accept', { token: revoked });
      expect([byLink.statusCode, byLink.json().code]).toEqual([410, 'invite_revoked']);
      expect((await answer(revokedUser, 'accept', orgId)).json().code).toBe('invite_revoked');
      expect((await call(revokedUser, 'GET', '/invites')).json()).toEqual([]);

      // Invites expire when the operator sets a lifetime (docs/adr/0028), counted from their sending.
      const lateUser = await t.buildUser({ emailVerified: true });
      const late = await inviteLink(orgId, owner, lateUser.email);
      expect(await statusOf(orgId, owner, lateUser.email)).toBe('pending');
      const lifetime = (days: number | null) =>
        call(siteAdmin, 'PATCH', '/admin/settings', { inviteLifetimeDays: days });
      expect((await lifetime(1)).statusCode).toBe(200);
      await sql`UPDATE organization_invites SET updated_at = now() - interval '25 hours'
        WHERE organization_id = ${orgId} AND email = ${lateUser.email}`.execute(t.db);
      expect(await statusOf(orgId, owner, lateUser.email)).toBe('expired');
      const lateLink = await call(await t.buildUser(), 'POST', '/invites/accept', { token: late });
      expect([lateLink.statusCode, lateLink.json().code]).toEqual([410, 'invite_expired']);
      expect((await answer(lateUser, 'accept', orgId)).json().code).toBe('invite_expired');
      expect((await roles(orgId)).size).toBe(1);

      // Either can be sent again, and the new link works.
      const again = await inviteLink(orgId, owner, lateUser.email);
      expect((await call(lateUser, 'POST', '/invites/accept', { token: again })).statusCode).toBe(200);
      expect((await lifetime(null)).statusCode).toBe(200);
    });
  });

  describe('organisation NTRIP accounts at the caster', () => {
    it('refuses a removed member’s organisation account with the plain reason, and closes it', async () => {
      const { orgId, owner, admin } = await crew();
      await grantTokens(t, siteAdmin, owner, 100);
      expect((await call(owner, 'POST', `/org/${orgId}/tokens`, { tokenAmount: 100 })).statusCode).toBe(200);
      const made = await call(admin, 'POST', `/org/${orgId}/ntrip-accounts`, { label: 'Admin rover' });
      const { account, password } = made.json() as { account: { id: string; username: string }; password: string };
      expect(
        (await call(admin, 'POST', '/tokens', { accountId: account.id, feedNetworkId: network.id, days: 1 }))
          .statusCode,
      ).toBe(201);
      expect(await authorizer.authorize(account.username, password, near(), new Date())).toMatchObject({
        allowed: true,
      });

      expect((await call(owner, 'DELETE', `/org/${orgId}/members`, { forMember: admin.userId })).statusCode).toBe(200);
      expect(await authorizer.authorize(account.username, password, near(), new Date())).toEqual({
        allowed: false,
        reason: 'disabled',
        accountId: account.id,
        disabled: 'membership',
      });
      // The removed member no longer sees it; the owner still does.
      expect((await call(admin, 'GET', `/ntrip-accounts/${account.id}`)).statusCode).toBe(404);
      expect((await call(owner, 'GET', `/ntrip-accounts/${account.id}`)).statusCode).toBe(200);
    });

    it('a member’s personal grants do not cover the organisation’s account, nor one organisation’s another’s', async () => {
      const a = await crew();
      const b = await crew();
      await grantTokens(t, siteAdmin, a.owner, 100);
      const personal = (await call(a.owner, 'POST', '/ntrip-accounts', { label: 'Own' })).json();
      expect(
        (await call(a.owner, 'POST', '/tokens', { accountId: personal.account.id, feedNetworkId: network.id, days: 1 }))
          .statusCode,
      ).toBe(201);
      const orgAccount = (await call(a.owner, 'POST', `/org/${a.orgId}/ntrip-accounts`, { label: 'Shared' })).json();
      expect(
        await authorizer.authorize(personal.account.username, personal.password, near(), new Date()),
      ).toMatchObject({
        allowed: true,
      });
      expect(
        await authorizer.authorize(orgAccount.account.username, orgAccount.password, near(), new Date()),
      ).toMatchObject({ allowed: false, reason: 'no_grant' });

      // Organisation B's owner and admin reach nothing of A's, and cannot pay for A's account from B.
      for (const user of [b.owner, b.admin]) {
        expect((await call(user, 'GET', `/ntrip-accounts/${orgAccount.account.id}`)).statusCode).toBe(404);
        expect(
          (
            await call(user, 'POST', '/tokens', {
              accountId: orgAccount.account.id,
              feedNetworkId: network.id,
              days: 1,
            })
          ).statusCode,
        ).toBe(404);
        expect((await call(user, 'GET', `/org/${a.orgId}/members`)).statusCode).toBe(404);
        expect((await call(user, 'DELETE', `/org/${a.orgId}/members`, { forMember: a.member.userId })).statusCode).toBe(
          404,
        );
        expect((await call(user, 'POST', `/org/${a.orgId}/ntrip-accounts`, { label: 'Intruder' })).statusCode).toBe(
          404,
        );
        // Nothing else of A's answers them either, and nothing of A's changes.
        const name = (await call(a.owner, 'GET', `/org/${a.orgId}`)).json().name;
        const email = `isolated-${randomUUID()}@example.test`;
        for (const [method, url, payload] of [
          ['GET', `/org/${a.orgId}`],
          ['GET', `/org/${a.orgId}/tokens`],
          ['GET', `/org/${a.orgId}/invites`],
          ['POST', `/org/${a.orgId}/invites`, { email }],
          ['DELETE', `/org/${a.orgId}/invites`, { email: a.member.email }],
          ['PATCH', `/org/${a.orgId}`, { name: `Taken over ${randomUUID().slice(0, 8)}` }],
          ['PUT', `/org/${a.orgId}/members`, { forMember: a.member.userId, role: 'admin' }],
          ['POST', `/org/${a.orgId}/transfer`, { forMember: user.userId }],
          ['POST', `/org/${a.orgId}/tokens`, { tokenAmount: 1 }],
          ['POST', `/org/${a.orgId}/leave`],
          ['DELETE', `/org/${a.orgId}`, { name }],
        ] as [Method, string, object?][]) {
          expect((await call(user, method, url, payload)).statusCode, `${method} ${url}`).toBe(404);
        }
        expect((await call(a.owner, 'GET', `/org/${a.orgId}`)).json().name).toBe(name);
      }
      // Nor make an account in B for someone who is only in A.
      const foreign = await call(b.owner, 'POST', `/org/${b.orgId}/ntrip-accounts`, {
        label: 'Foreign',
        holderId: a.member.userId,
      });
      expect(foreign.statusCode).toBe(404);
      expect((await roles(a.orgId)).size).toBe(3);
    });

    it('deleting the organisation ends its subscriptions first, then its accounts at the caster', async () => {
      const { orgId, owner } = await crew();
      const product = await createProduct(t, siteAdmin, {
        kind: 'subscription',
        name: `Org plan ${randomUUID().slice(0, 6)}`,
        pricingTable: 'RTK',
        amount: 4900,
        currency: 'EUR',
        interval: 'MONTHLY',
        networkIds: [network.id],
      });
      const checkout = await call(owner, 'POST', `/checkout/subscription?priceId=${product.priceId}&orgId=${orgId}`);
      expect(checkout.statusCode).toBe(200);
      await payOnSandbox(t, await sandboxIdOf(t, checkout.json().checkoutSessionId), '4242424242424242');
      const made = (await call(owner, 'POST', `/org/${orgId}/ntrip-accounts`, { label: 'Fleet' })).json();
      expect(await authorizer.authorize(made.account.username, made.password, near(), new Date())).toMatchObject({
        allowed: true,
      });
      const name = (await call(owner, 'GET', `/org/${orgId}`)).json().name;
      expect((await call(owner, 'DELETE', `/org/${orgId}`, { name })).statusCode).toBe(200);

      const subs = await sql<{ status: string; ended_at: Date | null }>`
        SELECT s.status, s.ended_at FROM subscriptions s JOIN products p ON p.id = s.product_id
        WHERE p.price_id = ${product.priceId}`.execute(t.db);
      expect(subs.rows).toEqual([expect.objectContaining({ status: 'cancelled', ended_at: expect.any(Date) })]);
      const open = await sql`SELECT 1 FROM access_grants g JOIN subscriptions s ON s.id::text = g.reference_id
        JOIN products p ON p.id = s.product_id WHERE p.price_id = ${product.priceId} AND g.ended_at IS NULL`.execute(
        t.db,
      );
      expect(open.rows).toEqual([]);
      expect((await authorizer.authorize(made.account.username, made.password, near(), new Date())).allowed).toBe(
        false,
      );
      expect((await call(owner, 'GET', '/user')).json().teams ?? []).not.toEqual(
        expect.arrayContaining([expect.objectContaining({ id: orgId })]),
      );
    });
  });
});
