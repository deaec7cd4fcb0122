import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { emulatorClient } from '../../src/dev/auth-emulator.ts';
import { testDatabaseKind } from '../support/database.ts';
import { createNetwork, createOrganization, createProduct } from '../support/factories.ts';
import { fakeStripeApi, StripeFailure } from '../support/stripe-api.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';
import { grantsOf, openGrants, payOnSandbox, sandboxIdOf, standardProducts } from './support.ts';

/** Deleting a portal account ends what the person pays for, at the provider too (docs/adr/0009, 0010). */

const call = (
  t: TestContext,
  user: TestUser,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, payload, headers: user.headers });

async function subscriptionRow(t: TestContext, id: string) {
  const result = await sql<{ status: string; ended_at: Date | null; provider_subscription_id: string }>`
    SELECT status, ended_at, provider_subscription_id FROM subscriptions WHERE id = ${id}`.execute(t.db);
  return result.rows[0];
}

describe(`account deletion ends the subscriptions the user pays for, sandbox, on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let products: Awaited<ReturnType<typeof standardProducts>>;

  beforeAll(async () => {
    t = await buildTestApp();
    const admin = await t.buildAdmin();
    products = await standardProducts(t, admin, [(await createNetwork(t.db)).id]);
  });
  afterAll(() => t.close());

  /** Buys through the sandbox's checkout page and answers our subscription id. */
  async function buy(user: TestUser, priceId: string, orgId?: string) {
    const query = orgId ? `&orgId=${orgId}` : '';
    const res = await call(t, user, 'POST', `/api/checkout/subscription?priceId=${priceId}${query}`);
    expect(res.statusCode).toBe(200);
    const paid = await payOnSandbox(t, await sandboxIdOf(t, res.json().checkoutSessionId), '4242424242424242');
    expect(paid.statusCode).toBeLessThan(400);
    const checkout = await call(t, user, 'GET', `/api/checkout?checkoutSessionId=${res.json().checkoutSessionId}`);
    return checkout.json().subscriptionId as string;
  }

  async function sandboxStatus(providerSubscriptionId: string) {
    const row = await t.db
      .selectFrom('sandbox_objects')
      .select('data')
      .where('id', '=', providerSubscriptionId)
      .executeTakeFirstOrThrow();
    return (typeof row.data === 'string' ? JSON.parse(row.data) : row.data).status as string;
  }

  it('cancels personal and organisation subscriptions at the sandbox and ends their grants; others keep theirs', async () => {
    const leaving = await t.buildUser();
    const colleague = await t.buildUser();
    const orgId = await createOrganization(t, colleague, 'Staying Crew', [leaving]);
    await call(t, colleague, 'PUT', `/api/org/${orgId}/members`, { forMember: leaving.userId, role: 'admin' });
    const personal = await buy(leaving, products.monthly.priceId);
    const forOrganization = await buy(leaving, products.monthly.priceId, orgId);
    const colleagues = await buy(colleague, products.monthly.priceId);
    for (const id of [personal, forOrganization, colleagues]) {
      expect(openGrants(await grantsOf(t.db, id))).toHaveLength(1);
    }

    const res = await call(t, leaving, 'DELETE', '/api/user');
    expect(res.statusCode).toBe(204);

    for (const id of [personal, forOrganization]) {
      const row = await subscriptionRow(t, id);
      expect(row).toMatchObject({ status: 'cancelled', ended_at: expect.any(Date) });
      expect(await sandboxStatus(row?.provider_subscription_id ?? '')).toBe('canceled');
      expect(openGrants(await grantsOf(t.db, id))).toEqual([]);
    }
    // The organisation saw its subscription end; the colleague's own one is untouched.
    const orgList = (await call(t, colleague, 'GET', `/api/org/${orgId}/subscriptions`)).json();
    expect(orgList.subscriptions).toEqual([expect.objectContaining({ id: forOrganization, status: 'cancelled' })]);
    expect(await subscriptionRow(t, colleagues)).toMatchObject({ status: 'active', ended_at: null });
    expect(openGrants(await grantsOf(t.db, colleagues))).toHaveLength(1);
  });

  it('ends nothing when the deletion is refused for a sole organisation owner', async () => {
    const owner = await t.buildUser();
    const member = await t.buildUser();
    const orgId = await createOrganization(t, owner, 'Owned Crew', [member]);
    const personal = await buy(owner, products.monthly.priceId);
    const forOrganization = await buy(owner, products.monthly.priceId, orgId);

    const res = await call(t, owner, 'DELETE', '/api/user');

    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('sole_organization_owner');
    for (const id of [personal, forOrganization]) {
      expect(await subscriptionRow(t, id)).toMatchObject({ status: 'active', ended_at: null });
      expect(openGrants(await grantsOf(t.db, id))).toHaveLength(1);
    }
  });

  it('ends a manual subscription an admin gave, and leaves already ended ones as they were', async () => {
    const admin = await t.buildAdmin();
    const leaving = await t.buildUser();
    const manual = await createProduct(t, admin, {
      kind: 'subscription',
      name: 'Partner access',
      pricingTable: 'Manual',
      amount: 0,
      currency: 'EUR',
      interval: 'MONTHLY',
      billable: false,
    });
    const assigned = await call(t, admin, 'POST', '/api/admin/subscriptions', {
      userId: leaving.userId,
      priceId: manual.priceId,
      days: 30,
    });
    expect(assigned.statusCode).toBe(201);
    const ended = await buy(leaving, products.monthly.priceId);
    expect((await call(t, admin, 'DELETE', '/api/admin/subscriptions', { subscriptionId: ended })).statusCode).toBe(
      200,
    );
    const endedBefore = await subscriptionRow(t, ended);

    expect((await call(t, leaving, 'DELETE', '/api/user')).statusCode).toBe(204);

    expect(await subscriptionRow(t, assigned.json().id)).toMatchObject({ status: 'cancelled' });
    expect(await subscriptionRow(t, ended)).toEqual(endedBefore);
  });
});

/**
 * Stripe through the real SDK over a stub of its API (test/support/stripe-api.ts): the cancel goes out for
 * the leaving user's subscription, and a Stripe failure keeps the account.
 */
describe(`account deletion with Stripe on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let monthlyPrice: string;
  const fake = fakeStripeApi();

  beforeAll(async () => {
    t = await buildTestApp({
      billing: { provider: 'stripe', stripeClient: fake.stripe, publicUrl: 'http://portal.test' },
    });
    const admin = await t.buildAdmin();
    const monthly = await createProduct(t, admin, {
      kind: 'subscription',
      name: 'RTK Monthly',
      pricingTable: 'RTK',
      amount: 4900,
      currency: 'EUR',
      interval: 'MONTHLY',
      networkIds: [(await createNetwork(t.db)).id],
    });
    monthlyPrice = monthly.priceId;
  });
  afterAll(() => t.close());
  afterEach(() => expect(fake.unanswered.splice(0)).toEqual([]));

  /** Checkout completed at Stripe; the return page (GET /checkout) asks Stripe and records the subscription. */
  async function subscribe(user: TestUser) {
    const res = await call(t, user, 'POST', `/api/checkout/subscription?priceId=${monthlyPrice}`);
    expect(res.statusCode, res.body).toBe(200);
    const { checkoutSessionId } = res.json();
    const csId = fake.state.lastSession;
    const now = Math.floor(Date.now() / 1000);
    fake.state.subscriptions.set(`sub_${csId}`, {
      id: `sub_${csId}`,
      object: 'subscription',
      status: 'active',
      cancel_at_period_end: false,
      start_date: now,
      metadata: { checkoutSessionId },
      items: {
        data: [{ current_period_start: now, current_period_end: now + 30 * 86_400, price: { id: monthlyPrice } }],
      },
    });
    fake.state.sessions.set(csId, {
      id: csId,
      object: 'checkout.session',
      status: 'complete',
      payment_status: 'paid',
      amount_total: 4900,
      currency: 'eur',
      client_reference_id: checkoutSessionId,
      subscription: `sub_${csId}`,
      invoice: null,
      payment_intent: null,
    });
    const checkout = await call(t, user, 'GET', `/api/checkout?checkoutSessionId=${checkoutSessionId}`);
    return { id: checkout.json().subscriptionId as string, stripeId: `sub_${csId}` };
  }

  it('cancels the subscription at Stripe now, not at the period end, and ends its grants', async () => {
    const user = await t.buildUser();
    const sub = await subscribe(user);
    expect(openGrants(await grantsOf(t.db, sub.id))).toHaveLength(1);

    expect((await call(t, user, 'DELETE', '/api/user')).statusCode).toBe(204);

    expect(fake.sent(`DELETE /v1/subscriptions/${sub.stripeId}`)).toHaveLength(1);
    expect(await subscriptionRow(t, sub.id)).toMatchObject({ status: 'cancelled' });
    expect(openGrants(await grantsOf(t.db, sub.id))).toEqual([]);
  });

  it('keeps the account and its subscription when Stripe fails, answering 502', async () => {
    const emulator = emulatorClient(inject('authEmulatorHost'));
    const user = await t.buildUser();
    const sub = await subscribe(user);
    fake.failNext(
      'DELETE /v1/subscriptions/:id',
      new StripeFailure(500, { error: { type: 'api_error', message: 'Something went wrong on our end.' } }),
    );

    const res = await call(t, user, 'DELETE', '/api/user');

    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({
      code: 'payment_provider_unavailable',
      message: expect.stringMatching(/not deleted/),
    });
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: user.email, disabled: false });
    expect(await subscriptionRow(t, sub.id)).toMatchObject({ status: 'active', ended_at: null });
    expect(openGrants(await grantsOf(t.db, sub.id))).toHaveLength(1);
    await expect(emulator.signIn(user.email, 'correct-horse-battery')).resolves.toMatchObject({ localId: user.uid });

    // Once Stripe answers again, the same request completes the deletion.
    expect((await call(t, user, 'DELETE', '/api/user')).statusCode).toBe(204);
    expect(await subscriptionRow(t, sub.id)).toMatchObject({ status: 'cancelled' });
  });
});
