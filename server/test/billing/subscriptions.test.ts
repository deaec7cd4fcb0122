import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../support/database.ts';
import { createNetwork, createProduct } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';
import { grantsOf, openGrants, payOnSandbox, standardProducts, startCheckout } from './support.ts';

const DAY = 86_400_000;

describe(`subscription transitions and their grants on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let now = new Date();
  let networks: string[];
  let products: Awaited<ReturnType<typeof standardProducts>>;

  beforeAll(async () => {
    t = await buildTestApp({ billing: { clock: () => now } });
    admin = await t.buildAdmin();
    networks = [(await createNetwork(t.db, { name: 'North' })).id, (await createNetwork(t.db, { name: 'South' })).id];
    products = await standardProducts(t, admin, networks);
  });
  afterAll(() => t.close());

  async function subscribe(user: TestUser) {
    const { sandboxId } = await startCheckout(t, user, 'subscription', products.monthly.priceId);
    await payOnSandbox(t, sandboxId, '4242424242424242');
    const res = await t.app.inject({ method: 'GET', url: '/api/subscriptions', headers: user.headers });
    return res.json().subscriptions[0] as { id: string; status: string; currentPeriodEnd: string };
  }
  const put = (user: TestUser, url: string, subscriptionId: string) =>
    t.app.inject({ method: 'PUT', url, headers: user.headers, payload: { subscriptionId } });
  const subscriptionsOf = async (user: TestUser) =>
    (await t.app.inject({ method: 'GET', url: '/api/subscriptions', headers: user.headers })).json().subscriptions;

  it('cancel keeps access to the period end, resume undoes it; the owner does both', async () => {
    const user = await t.buildUser();
    const sub = await subscribe(user);
    expect(
      openGrants(await grantsOf(t.db, sub.id))
        .map((g) => g.network_id)
        .sort(),
    ).toEqual([...networks].sort());

    const cancelled = await put(user, '/api/subscriptions/cancel', sub.id);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      status: 'cancelling',
      cancelAtPeriodEnd: true,
      canCancel: false,
      canResume: true,
    });
    const during = openGrants(await grantsOf(t.db, sub.id));
    expect(during).toHaveLength(2);
    expect(during.every((g) => new Date(g.valid_until).toISOString() === sub.currentPeriodEnd)).toBe(true);

    const twice = await put(user, '/api/subscriptions/cancel', sub.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('invalid_transition');

    const resumed = await put(user, '/api/subscriptions/resume', sub.id);
    expect(resumed.json()).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: false,
      canCancel: true,
      canResume: false,
    });
    expect(openGrants(await grantsOf(t.db, sub.id))).toHaveLength(2);
    expect((await put(user, '/api/subscriptions/resume', sub.id)).statusCode).toBe(409);
  });

  it('a cancelling subscription is cancelled at its period end and its grants end', async () => {
    const user = await t.buildUser();
    const sub = await subscribe(user);
    await put(user, '/api/subscriptions/cancel', sub.id);
    const saved = now;
    try {
      now = new Date(new Date(sub.currentPeriodEnd).getTime() + 1000);
      expect((await put(user, '/api/subscriptions/resume', sub.id)).statusCode).toBe(409);
      const [after] = await subscriptionsOf(user);
      expect(after).toMatchObject({ status: 'cancelled', canResume: false, canCancel: false });
      expect(after.endedAt).not.toBeNull();
      expect(openGrants(await grantsOf(t.db, sub.id))).toHaveLength(0);
    } finally {
      now = saved;
    }
  });

  it('the sandbox renews an active subscription whose period has ended: new period, invoice and grants', async () => {
    const user = await t.buildUser();
    const sub = await subscribe(user);
    const saved = now;
    try {
      now = new Date(new Date(sub.currentPeriodEnd).getTime() + DAY);
      const [after] = await subscriptionsOf(user);
      expect(after.status).toBe('active');
      expect(new Date(after.currentPeriodEnd).getTime()).toBeGreaterThan(now.getTime());
      expect(after.currentPeriodStart).toBe(sub.currentPeriodEnd);
      const grants = openGrants(await grantsOf(t.db, sub.id));
      expect(grants).toHaveLength(2);
      expect(grants.every((g) => new Date(g.valid_until).toISOString() === after.currentPeriodEnd)).toBe(true);
      const payments = await t.app.inject({ method: 'GET', url: '/api/billing/payments', headers: user.headers });
      expect(payments.json().payments).toHaveLength(2);
      // Asking again in the same period renews nothing.
      await subscriptionsOf(user);
      const again = await t.app.inject({ method: 'GET', url: '/api/billing/payments', headers: user.headers });
      expect(again.json().payments).toHaveLength(2);
    } finally {
      now = saved;
    }
  });

  it('admins cancel, resume and end any subscription; ending closes every grant', async () => {
    const user = await t.buildUser();
    const sub = await subscribe(user);
    expect((await put(admin, '/api/admin/subscriptions/cancel', sub.id)).json().status).toBe('cancelling');
    expect((await put(admin, '/api/admin/subscriptions/resume', sub.id)).json().status).toBe('active');
    const ended = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/subscriptions',
      headers: admin.headers,
      payload: { subscriptionId: sub.id },
    });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ status: 'cancelled' });
    expect(openGrants(await grantsOf(t.db, sub.id))).toHaveLength(0);
    expect((await put(user, '/api/subscriptions/resume', sub.id)).statusCode).toBe(409);
    // The user may buy it again once it has ended.
    const again = await subscribe(user);
    expect(again.id).not.toBe(sub.id);
    expect(again.status).toBe('active');
  });

  it('admins assign a manual (non-billable) subscription that expires after its days', async () => {
    const user = await t.buildUser();
    const manual = await createProduct(t, admin, {
      kind: 'subscription',
      name: 'Partner Access',
      pricingTable: 'Manual',
      amount: 0,
      currency: 'EUR',
      interval: 'MONTHLY',
      billable: false,
      networkIds: [networks[0]],
    });
    // Non-billable products are not for sale.
    const tables = await t.app.inject({ method: 'GET', url: '/api/stripe/subscription-pricing-tables' });
    expect(JSON.stringify(tables.json())).not.toContain('Partner Access');
    const buy = await t.app.inject({
      method: 'POST',
      url: `/api/checkout/subscription?priceId=${manual.priceId}`,
      headers: user.headers,
    });
    expect(buy.statusCode).toBe(404);

    const assigned = await t.app.inject({
      method: 'POST',
      url: '/api/admin/subscriptions',
      headers: admin.headers,
      payload: { userId: user.userId, priceId: manual.priceId, days: 10 },
    });
    expect(assigned.statusCode).toBe(201);
    const sub = assigned.json();
    expect(sub).toMatchObject({ status: 'active', billable: false, productName: 'Partner Access' });
    const grants = openGrants(await grantsOf(t.db, sub.id));
    expect(grants.map((g) => g.network_id)).toEqual([networks[0]]);

    const saved = now;
    try {
      now = new Date(saved.getTime() + 11 * DAY);
      const [after] = await subscriptionsOf(user);
      expect(after.status).toBe('expired');
      expect(openGrants(await grantsOf(t.db, sub.id))).toHaveLength(0);
    } finally {
      now = saved;
    }
  });

  it('editing a product price gives it a new priceId; archiving takes it off sale', async () => {
    const product = await createProduct(t, admin, {
      kind: 'token',
      name: '50 Tokens',
      pricingTable: 'Tokens',
      amount: 600,
      currency: 'USD',
      creditsAmount: 50,
    });
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/products/${product.id}`,
      headers: admin.headers,
      payload: { name: 'Fifty Tokens', bestChoice: true },
    });
    expect(renamed.json()).toMatchObject({ name: 'Fifty Tokens', bestChoice: true, priceId: product.priceId });
    const repriced = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/products/${product.id}`,
      headers: admin.headers,
      payload: { amount: 500 },
    });
    expect(repriced.json().amount).toBe(500);
    expect(repriced.json().priceId).not.toBe(product.priceId);
    const wrongField = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/products/${product.id}`,
      headers: admin.headers,
      payload: { interval: 'WEEKLY' },
    });
    expect(wrongField.statusCode).toBe(400);

    const saved = now;
    let archived: Awaited<ReturnType<typeof t.app.inject>>;
    try {
      now = new Date(saved.getTime() - 3 * DAY);
      archived = await t.app.inject({
        method: 'DELETE',
        url: `/api/admin/products/${product.id}`,
        headers: admin.headers,
      });
    } finally {
      now = saved;
    }
    expect(archived.json().archived).toBe(true);
    // The archived time is the billing clock's, as the module's other times are.
    const row = await t.db
      .selectFrom('products')
      .select('archived_at')
      .where('id', '=', product.id)
      .executeTakeFirstOrThrow();
    expect(new Date(row.archived_at as Date | string).getTime()).toBe(saved.getTime() - 3 * DAY);
    const user = await t.buildUser();
    const buy = await t.app.inject({
      method: 'POST',
      url: `/api/checkout/product?priceId=${repriced.json().priceId}`,
      headers: user.headers,
    });
    expect(buy.statusCode).toBe(404);
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/products?kind=token', headers: admin.headers });
    expect(list.json().products.map((p: { name: string }) => p.name)).not.toContain('Fifty Tokens');
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/admin/products?kind=token&includeArchived=true',
      headers: admin.headers,
    });
    expect(all.json().products.map((p: { name: string }) => p.name)).toContain('Fifty Tokens');
  });

  it('rejects invalid products', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/admin/products',
      headers: admin.headers,
      payload: { kind: 'token', name: 'X', pricingTable: 'T', amount: 1.5, currency: 'EUR', creditsAmount: 1 },
    });
    expect(bad.statusCode).toBe(400);
    const currency = await t.app.inject({
      method: 'POST',
      url: '/api/admin/products',
      headers: admin.headers,
      payload: { kind: 'token', name: 'X', pricingTable: 'T', amount: 100, currency: 'JPY', creditsAmount: 1 },
    });
    expect(currency.statusCode).toBe(400);
  });
});
