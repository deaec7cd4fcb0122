import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer } from '../../src/modules/ntrip/ntrip.authorizer.ts';
import { createNtripRepo } from '../../src/modules/ntrip/ntrip.repo.ts';

import { testDatabaseKind } from '../support/database.ts';
import { createAccount, createNetwork, createOrganization, createProduct } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';
import { grantsOf, openGrants, payOnSandbox, sandboxIdOf, standardProducts } from './support.ts';

const SOME_UUID = '00000000-0000-4000-8000-000000000000';

describe(`organisation subscriptions (docs/adr/0010) on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let owner: TestUser;
  let orgAdmin: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let otherOwner: TestUser;
  let orgId: string;
  let otherOrgId: string;
  let products: Awaited<ReturnType<typeof standardProducts>>;
  let weekly: { priceId: string };
  let subscriptionId: string;
  let otherSubscriptionId: string;
  let checkoutSessionId: string;
  let personalCheckoutSessionId: string;
  let networkId: string;

  const inject = (
    user: TestUser | undefined,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: user?.headers ?? {} });
  const list = (user: TestUser, org = orgId) => inject(user, 'GET', `/api/org/${org}/subscriptions`);
  const cancel = (user: TestUser, payload: object, org = orgId) =>
    inject(user, 'DELETE', `/api/org/${org}/subscriptions`, payload);

  async function join(org: string, by: TestUser, user: TestUser, role: 'member' | 'admin') {
    const sent = await inject(by, 'POST', `/api/org/${org}/invites`, { email: user.email });
    expect(sent.statusCode).toBe(201);
    // Test users' e-mails are unverified: they join with the invite's link, as a colleague handed it would.
    const token = new URL(sent.json().link).searchParams.get('token');
    expect((await inject(user, 'POST', '/api/invites/accept', { token })).statusCode).toBe(200);
    if (role === 'admin') {
      const res = await inject(by, 'PUT', `/api/org/${org}/members`, { forMember: user.userId, role });
      expect(res.statusCode).toBe(200);
    }
  }

  /** Buys a subscription for an organisation through the sandbox, as the SPA's buy button and card page do. */
  async function buyFor(user: TestUser, org: string, priceId: string) {
    const res = await inject(user, 'POST', `/api/checkout/subscription?priceId=${priceId}&orgId=${org}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { url: string; checkoutSessionId: string };
    const paid = await payOnSandbox(t, await sandboxIdOf(t, body.checkoutSessionId), '4242424242424242');
    expect(paid.statusCode).toBeLessThan(400);
    return body.checkoutSessionId;
  }

  /** Everything a refused call must leave as it was: the subscription row and its grants. */
  async function snapshot(id: string) {
    const row = await sql`SELECT status, cancel_at_period_end, ended_at, organization_id::text AS org, updated_at
      FROM subscriptions WHERE id = ${id}`.execute(t.db);
    return { row: row.rows, grants: await grantsOf(t.db, id) };
  }

  beforeAll(async () => {
    t = await buildTestApp();
    const admin = await t.buildAdmin();
    [owner, orgAdmin, member, stranger, otherOwner] = await Promise.all([
      t.buildUser(),
      t.buildUser(),
      t.buildUser(),
      t.buildUser(),
      t.buildUser(),
    ]);
    networkId = (await createNetwork(t.db)).id;
    products = await standardProducts(t, admin, [networkId]);
    weekly = await createProduct(t, admin, {
      kind: 'subscription',
      name: 'RTK Weekly',
      pricingTable: 'RTK',
      amount: 1500,
      currency: 'EUR',
      interval: 'WEEKLY',
    });
    orgId = await createOrganization(t, owner, 'Survey Crew');
    otherOrgId = await createOrganization(t, otherOwner, 'Drone Fleet');
    await join(orgId, owner, orgAdmin, 'admin');
    await join(orgId, owner, member, 'member');
    checkoutSessionId = await buyFor(owner, orgId, products.monthly.priceId);
    await buyFor(otherOwner, otherOrgId, products.monthly.priceId);
    subscriptionId = (await list(owner)).json().subscriptions[0].id;
    otherSubscriptionId = (await list(otherOwner, otherOrgId)).json().subscriptions[0].id;
    const personal = await inject(owner, 'POST', `/api/checkout/subscription?priceId=${weekly.priceId}`);
    personalCheckoutSessionId = personal.json().checkoutSessionId;
  });
  afterAll(() => t.close());

  it('a bought subscription belongs to the organisation: every member lists it, the buyer personally does not', async () => {
    for (const user of [owner, orgAdmin, member]) {
      const res = await list(user);
      expect(res.statusCode).toBe(200);
      expect(res.json().subscriptions).toEqual([
        expect.objectContaining({
          id: subscriptionId,
          organizationId: orgId,
          userId: owner.userId,
          userEmail: owner.email,
          productName: 'RTK Monthly',
          status: 'active',
          amount: 4900,
          currency: 'EUR',
        }),
      ]);
    }
    const personal = await inject(owner, 'GET', '/api/subscriptions');
    expect(personal.json().subscriptions).toEqual([]);
  });

  it('says per caller whether the role allows cancelling: owners and admins yes, members no', async () => {
    const canCancel = async (user: TestUser) => (await list(user)).json().subscriptions[0].canCancel;
    expect(await canCancel(owner)).toBe(true);
    expect(await canCancel(orgAdmin)).toBe(true);
    expect(await canCancel(member)).toBe(false);
  });

  it('non-members and unknown or malformed organisations get 404; anonymous callers 401', async () => {
    for (const [user, org] of [
      [stranger, orgId],
      [otherOwner, orgId],
      [owner, SOME_UUID],
    ] as const) {
      const res = await list(user, org);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'not_found', message: 'Organisation was not found.' });
    }
    const malformed = await list(owner, 'not-a-uuid');
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toEqual({ code: 'not_found', message: 'This address names no record.', field: 'orgId' });
    expect((await inject(undefined, 'GET', `/api/org/${orgId}/subscriptions`)).statusCode).toBe(401);
  });

  it('keeps organisations apart: each lists only its own subscriptions', async () => {
    expect((await list(otherOwner, otherOrgId)).json().subscriptions.map((s: { id: string }) => s.id)).toEqual([
      otherSubscriptionId,
    ]);
    expect((await list(owner)).json().subscriptions.map((s: { id: string }) => s.id)).toEqual([subscriptionId]);
  });

  it('refuses bad input with 400 and a code, changing nothing', async () => {
    const before = await snapshot(subscriptionId);
    for (const payload of [{ subscriptionId: 'nope' }, {}, { subscriptionId: 42 }]) {
      const res = await cancel(owner, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
    }
    const noBody = await inject(owner, 'DELETE', `/api/org/${orgId}/subscriptions`);
    expect(noBody.statusCode).toBe(400);
    expect(await snapshot(subscriptionId)).toEqual(before);
  });

  it('refuses plain members (403), outsiders and other organisations (404), changing nothing', async () => {
    const before = await snapshot(subscriptionId);
    const otherBefore = await snapshot(otherSubscriptionId);
    const refusals: [TestUser, string, string, number][] = [
      [member, orgId, subscriptionId, 403],
      [stranger, orgId, subscriptionId, 404],
      // An owner of another organisation, through their own organisation's route.
      [otherOwner, otherOrgId, subscriptionId, 404],
      // This organisation's owner aiming at another organisation's subscription.
      [owner, orgId, otherSubscriptionId, 404],
      [owner, otherOrgId, otherSubscriptionId, 404],
      [owner, orgId, SOME_UUID, 404],
    ];
    for (const [user, org, id, status] of refusals) {
      const res = await cancel(user, { subscriptionId: id }, org);
      expect({ org, id, status: res.statusCode }).toEqual({ org, id, status });
      expect(res.json()).toEqual({ code: status === 403 ? 'forbidden' : 'not_found', message: expect.any(String) });
    }
    // Nor through the personal calls: an organisation's subscription is not the member's own.
    for (const action of ['cancel', 'resume']) {
      const res = await inject(member, 'PUT', `/api/subscriptions/${action}`, { subscriptionId });
      expect(res.statusCode).toBe(404);
    }
    expect(await snapshot(subscriptionId)).toEqual(before);
    expect(await snapshot(otherSubscriptionId)).toEqual(otherBefore);
  });

  it('an organisation admin cancels it to its period end; a repeated DELETE changes nothing more', async () => {
    const res = await cancel(orgAdmin, { subscriptionId });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: subscriptionId, status: 'cancelling', cancelAtPeriodEnd: true });
    // Access runs to the period end it was paid for.
    expect(openGrants(await grantsOf(t.db, subscriptionId))).toHaveLength(1);
    const before = await snapshot(subscriptionId);
    const again = await cancel(owner, { subscriptionId });
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe('cancelling');
    expect(await snapshot(subscriptionId)).toEqual(before);
    expect((await list(otherOwner, otherOrgId)).json().subscriptions[0].status).toBe('active');
  });

  it("owners and admins resume it through the user-scope call; the buyer's personal list still excludes it", async () => {
    const res = await inject(owner, 'PUT', '/api/subscriptions/resume', { subscriptionId });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('active');
    expect((await inject(owner, 'GET', '/api/subscriptions')).json().subscriptions).toEqual([]);
  });

  it('only owners and admins buy for the organisation; an organisation cannot buy the same plan twice', async () => {
    const url = (org: string, priceId = weekly.priceId) => `/api/checkout/subscription?priceId=${priceId}&orgId=${org}`;
    const count = async () =>
      Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM checkout_sessions`.execute(t.db)).rows[0]?.n);
    const before = await count();
    expect((await inject(member, 'POST', url(orgId))).statusCode).toBe(403);
    expect((await inject(stranger, 'POST', url(orgId))).statusCode).toBe(404);
    expect((await inject(owner, 'POST', url('not-a-uuid'))).statusCode).toBe(400);
    const twice = await inject(orgAdmin, 'POST', url(orgId, products.monthly.priceId));
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('already_subscribed');
    expect(await count()).toBe(before);
    const bought = await inject(orgAdmin, 'POST', url(orgId));
    expect(bought.statusCode).toBe(200);

    // What pays the open session is its buyer's alone; the other members only follow it.
    const read = (user: TestUser) =>
      inject(user, 'GET', `/api/org/${orgId}/checkout?checkoutSessionId=${bought.json().checkoutSessionId}`);
    expect((await read(orgAdmin)).json()).toMatchObject({
      status: 'open',
      provider: 'sandbox',
      clientSecret: expect.stringMatching(/_secret_/),
    });
    for (const user of [owner, member]) {
      const other = (await read(user)).json();
      expect(other.status).toBe('open');
      expect(other).not.toHaveProperty('clientSecret');
    }
  });

  it('organisation checkout: members read its sessions; personal sessions and outsiders get 404', async () => {
    const url = (org: string, id: string) => `/api/org/${org}/checkout?checkoutSessionId=${id}`;
    const read = await inject(member, 'GET', url(orgId, checkoutSessionId));
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: checkoutSessionId, status: 'complete', subscriptionId });
    expect((await inject(stranger, 'GET', url(orgId, checkoutSessionId))).statusCode).toBe(404);
    expect((await inject(otherOwner, 'GET', url(otherOrgId, checkoutSessionId))).statusCode).toBe(404);
    expect((await inject(owner, 'GET', url(orgId, personalCheckoutSessionId))).statusCode).toBe(404);
    // The buyer still reads it as their own session too, as for a personal purchase.
    expect((await inject(owner, 'GET', `/api/checkout?checkoutSessionId=${checkoutSessionId}`)).statusCode).toBe(200);
  });

  it("returns from the sandbox to a page that reads the organisation's session through the organisation", async () => {
    const buyer = await t.buildUser();
    const org = await createOrganization(t, buyer, 'Return Crew');
    const res = await inject(buyer, 'POST', `/api/checkout/subscription?priceId=${weekly.priceId}&orgId=${org}`);
    const { url, checkoutSessionId: id } = res.json() as { url: string; checkoutSessionId: string };
    const returnUrl = `http://localhost:8080/checkout?checkoutSessionId=${id}&orgId=${org}`;
    expect(url).toBe(returnUrl);
    const sandboxId = await sandboxIdOf(t, id);

    const orgRead = `/api/org/${org}/checkout?checkoutSessionId=${id}`;
    expect((await inject(buyer, 'GET', orgRead)).json()).toMatchObject({ status: 'open', provider: 'sandbox' });
    const page = await inject(undefined, 'GET', `/api/sandbox/checkout/${sandboxId}`);
    expect(page.body).toContain(`${returnUrl}&cancelled=true`.replaceAll('&', '&amp;'));
    const paid = await payOnSandbox(t, sandboxId, '4242424242424242');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(returnUrl);

    const back = new URL(returnUrl).searchParams;
    const read = await inject(
      buyer,
      'GET',
      `/api/org/${back.get('orgId')}/checkout?checkoutSessionId=${back.get('checkoutSessionId')}`,
    );
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id, status: 'complete', type: 'Subscription' });
    expect(read.json()).not.toHaveProperty('clientSecret');
  });

  it("gives every member's NTRIP accounts the networks, and nobody else's", async () => {
    expect(openGrants(await grantsOf(t.db, subscriptionId))).toEqual([
      expect.objectContaining({ owner_user_id: owner.userId, source: 'subscription' }),
    ]);
    const authorizer = createAuthorizer({ repo: createNtripRepo(t.db), ttlMs: 0, epochPollMs: 60_000 });
    try {
      const slug = (
        await t.db.selectFrom('networks').select('slug').where('id', '=', networkId).executeTakeFirstOrThrow()
      ).slug;
      const mountpoint = `${slug.toUpperCase()}_NEAR`;
      for (const [user, allowed] of [
        [owner, true],
        [member, true],
        [stranger, false],
        // Through their own organisation's subscription to the same plan.
        [otherOwner, true],
      ] as const) {
        const { account, password } = await createAccount(t, user);
        const decision = await authorizer.authorize(account.username, password, mountpoint, new Date());
        expect({ user: user.email, allowed: decision.allowed }).toEqual({ user: user.email, allowed });
      }
      const listed = (await inject(member, 'GET', '/api/ntrip-accounts')).json().items[0];
      expect(listed).toMatchObject({
        status: 'active',
        grants: [expect.objectContaining({ networkId, allAccounts: true })],
      });
    } finally {
      authorizer.close();
    }
  });

  it("an organisation deleted with its last member's account leaves its subscription to the member who paid", async () => {
    const solo = await t.buildUser();
    const soloOrg = await createOrganization(t, solo, 'Solo Surveys');
    await buyFor(solo, soloOrg, products.monthly.priceId);
    const [bought] = (await list(solo, soloOrg)).json().subscriptions;
    expect((await inject(solo, 'DELETE', '/api/user')).statusCode).toBe(204);
    const row = await sql<{ org: string | null; user_id: string }>`
      SELECT organization_id::text AS org, user_id::text AS user_id FROM subscriptions WHERE id = ${bought.id}`.execute(
      t.db,
    );
    expect(row.rows).toEqual([{ org: null, user_id: solo.userId }]);
    // The organisation the others are in keeps its access when a member who bought for it leaves the portal.
    expect((await inject(member, 'DELETE', '/api/user')).statusCode).toBe(204);
    expect(openGrants(await grantsOf(t.db, subscriptionId))).toHaveLength(1);
  });
});
