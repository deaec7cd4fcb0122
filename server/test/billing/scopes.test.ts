import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../support/database.ts';
import { createNetwork, createProduct } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';
import { payOnSandbox, standardProducts, startCheckout } from './support.ts';

const NOT_LOGGED_IN = { code: 'unauthenticated', message: 'User is not logged in' };
const SOME_UUID = '00000000-0000-4000-8000-000000000000';

type Call = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object };

describe(`billing call scopes on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let owner: TestUser;
  let stranger: TestUser;
  let products: Awaited<ReturnType<typeof standardProducts>>;
  let subscriptionId: string;
  let checkoutSessionId: string;

  const call = (c: Call, user?: TestUser) =>
    t.app.inject({ method: c.method, url: c.url, payload: c.payload, headers: user?.headers ?? {} });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    owner = await t.buildUser();
    stranger = await t.buildUser();
    products = await standardProducts(t, admin, [(await createNetwork(t.db)).id]);
    const bought = await startCheckout(t, owner, 'subscription', products.monthly.priceId);
    await payOnSandbox(t, bought.sandboxId, '4242424242424242');
    checkoutSessionId = bought.checkoutSessionId;
    const subs = await call({ method: 'GET', url: '/api/subscriptions' }, owner);
    subscriptionId = subs.json().subscriptions[0].id;
  });
  afterAll(() => t.close());

  const userCalls = (): Call[] => [
    { method: 'POST', url: `/api/checkout/subscription?priceId=${products.monthly.priceId}` },
    { method: 'POST', url: `/api/checkout/product?priceId=${products.tokens.priceId}` },
    { method: 'GET', url: `/api/checkout?checkoutSessionId=${checkoutSessionId}` },
    { method: 'GET', url: `/api/org/${SOME_UUID}/checkout?checkoutSessionId=${checkoutSessionId}` },
    { method: 'GET', url: '/api/getCustomerSecret' },
    { method: 'GET', url: '/api/subscriptions' },
    { method: 'GET', url: `/api/org/${SOME_UUID}/subscriptions` },
    { method: 'DELETE', url: `/api/org/${SOME_UUID}/subscriptions`, payload: { subscriptionId } },
    { method: 'PUT', url: '/api/subscriptions/cancel', payload: { subscriptionId } },
    { method: 'PUT', url: '/api/subscriptions/resume', payload: { subscriptionId } },
    { method: 'GET', url: '/api/tokens/history' },
    { method: 'GET', url: '/api/billing/payments' },
  ];
  const adminCalls = (): Call[] => [
    { method: 'GET', url: '/api/admin/subscriptions' },
    { method: 'POST', url: '/api/admin/subscriptions', payload: { userId: SOME_UUID, priceId: 'x', days: 1 } },
    { method: 'DELETE', url: '/api/admin/subscriptions', payload: { subscriptionId } },
    { method: 'PUT', url: '/api/admin/subscriptions/cancel', payload: { subscriptionId } },
    { method: 'PUT', url: '/api/admin/subscriptions/resume', payload: { subscriptionId } },
    { method: 'PUT', url: '/api/admin/tokens', payload: { userId: SOME_UUID, tokenAmount: 5, reason: 'Support case' } },
    { method: 'GET', url: '/api/admin/products' },
    { method: 'POST', url: '/api/admin/products', payload: {} },
    { method: 'PUT', url: `/api/admin/products/${SOME_UUID}`, payload: {} },
    { method: 'DELETE', url: `/api/admin/products/${SOME_UUID}` },
  ];

  it('anonymous callers get 401 "User is not logged in" from every user and admin call', async () => {
    for (const c of [...userCalls(), ...adminCalls()]) {
      const res = await call(c);
      expect({ call: `${c.method} ${c.url}`, status: res.statusCode, body: res.json() }).toEqual({
        call: `${c.method} ${c.url}`,
        status: 401,
        body: NOT_LOGGED_IN,
      });
    }
  });

  it('signed-in users get 403 from every admin call', async () => {
    for (const c of adminCalls()) {
      const res = await call(c, owner);
      expect({ call: `${c.method} ${c.url}`, status: res.statusCode }).toEqual({
        call: `${c.method} ${c.url}`,
        status: 403,
      });
    }
  });

  it('anyone reads the subscription and token pricing tables; preview products only admins', async () => {
    await createProduct(t, admin, {
      kind: 'subscription',
      name: 'Coming soon',
      pricingTable: 'RTK',
      amount: 100,
      currency: 'EUR',
      interval: 'WEEKLY',
      previewMode: true,
    });
    const anonymous = await call({ method: 'GET', url: '/api/stripe/subscription-pricing-tables' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual([{ name: 'RTK', data: [expect.objectContaining({ name: 'RTK Monthly' })] }]);
    const asAdmin = await call({ method: 'GET', url: '/api/stripe/subscription-pricing-tables' }, admin);
    expect(asAdmin.json()[0].data.map((p: { name: string }) => p.name)).toEqual(['Coming soon', 'RTK Monthly']);
    for (const caller of [stranger, undefined]) {
      const tokens = await call({ method: 'GET', url: '/api/tokenProducts' }, caller);
      expect(tokens.statusCode).toBe(200);
      expect(tokens.json()).toEqual([
        {
          name: 'Tokens',
          data: [expect.objectContaining({ type: 'Token', creditsAmount: 100, amount: 1000, currency: 'EUR' })],
        },
      ]);
    }
  });

  it("another user can neither read the owner's checkout session nor touch the owner's subscription", async () => {
    const checkout = await call(
      { method: 'GET', url: `/api/checkout?checkoutSessionId=${checkoutSessionId}` },
      stranger,
    );
    expect(checkout.statusCode).toBe(404);
    for (const action of ['cancel', 'resume']) {
      const res = await call(
        { method: 'PUT', url: `/api/subscriptions/${action}`, payload: { subscriptionId } },
        stranger,
      );
      expect(res.statusCode).toBe(404);
    }
    const theirs = await call({ method: 'GET', url: '/api/subscriptions' }, stranger);
    expect(theirs.json()).toEqual({ subscriptions: [], tokenAmount: 0 });
    const payments = await call({ method: 'GET', url: '/api/billing/payments' }, stranger);
    expect(payments.json()).toEqual({ payments: [] });
    const own = await call({ method: 'GET', url: '/api/subscriptions' }, owner);
    expect(own.json().subscriptions[0].status).toBe('active');
  });

  it('the owner and an admin read the checkout session', async () => {
    const url = `/api/checkout?checkoutSessionId=${checkoutSessionId}`;
    expect((await call({ method: 'GET', url }, owner)).statusCode).toBe(200);
    expect((await call({ method: 'GET', url }, admin)).statusCode).toBe(200);
  });

  it('organisation checkout: 404 for an unknown organisation, a non-member, and a personal session', async () => {
    const url = (org: string) => `/api/org/${org}/checkout?checkoutSessionId=${checkoutSessionId}`;
    expect((await call({ method: 'GET', url: url(SOME_UUID) }, owner)).statusCode).toBe(404);
    expect((await call({ method: 'GET', url: url('not-a-uuid') }, owner)).statusCode).toBe(404);
    const created = await call({ method: 'POST', url: '/api/organization', payload: { name: 'Survey Crew' } }, owner);
    expect(created.statusCode).toBe(201);
    const orgId = new URLSearchParams(String(created.json().value).split('?')[1]).get('org') ?? '';
    expect((await call({ method: 'GET', url: url(orgId) }, stranger)).statusCode).toBe(404);
    // The session was bought personally: it is not the organisation's (organization-subscriptions.test.ts).
    expect((await call({ method: 'GET', url: url(orgId) }, owner)).statusCode).toBe(404);
  });

  it('admins list every subscription with its owner', async () => {
    const res = await call({ method: 'GET', url: '/api/admin/subscriptions' }, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().subscriptions).toEqual([
      expect.objectContaining({ id: subscriptionId, userId: owner.userId, userEmail: owner.email }),
    ]);
  });

  it('admins grant tokens; unknown users are 404', async () => {
    const res = await call(
      {
        method: 'PUT',
        url: '/api/admin/tokens',
        payload: { userId: stranger.userId, tokenAmount: 25, reason: 'Support case' },
      },
      admin,
    );
    expect(res.json()).toEqual({ userId: stranger.userId, tokenAmount: 25 });
    const unknown = await call(
      {
        method: 'PUT',
        url: '/api/admin/tokens',
        payload: { userId: SOME_UUID, tokenAmount: 25, reason: 'Support case' },
      },
      admin,
    );
    expect(unknown.statusCode).toBe(404);
    const zero = await call(
      {
        method: 'PUT',
        url: '/api/admin/tokens',
        payload: { userId: stranger.userId, tokenAmount: 0, reason: 'Support case' },
      },
      admin,
    );
    expect(zero.statusCode).toBe(400);
  });

  it("PUT /admin/tokens takes the spec's body { userId, tokenAmount }; a reason is recorded only when given", async () => {
    const bare = await call(
      { method: 'PUT', url: '/api/admin/tokens', payload: { userId: stranger.userId, tokenAmount: 7 } },
      admin,
    );
    expect(bare.statusCode).toBe(200);
    const before = bare.json().tokenAmount;
    const reasoned = await call(
      {
        method: 'PUT',
        url: '/api/admin/tokens',
        payload: { userId: stranger.userId, tokenAmount: 3, reason: 'Goodwill after outage' },
      },
      admin,
    );
    expect(reasoned.json()).toEqual({ userId: stranger.userId, tokenAmount: before + 3 });
    const history = (await call({ method: 'GET', url: '/api/tokens/history' }, stranger)).json();
    expect(history.entries.slice(0, 2).map((e: { delta: number; note: string | null }) => [e.delta, e.note])).toEqual([
      [3, 'Goodwill after outage'],
      [7, null],
    ]);
  });

  it('the Stripe webhook does not exist while the sandbox is the provider', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(404);
  });
});
