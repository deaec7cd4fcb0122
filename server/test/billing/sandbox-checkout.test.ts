import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../support/database.ts';
import { balanceOf, createNetwork } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';
import { grantsOf, openGrants, payOnSandbox, standardProducts, startCheckout } from './support.ts';

describe(`sandbox checkout on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let networkId: string;
  let products: Awaited<ReturnType<typeof standardProducts>>;

  beforeAll(async () => {
    t = await buildTestApp({ billing: { publicUrl: 'http://portal.test' } });
    admin = await t.buildAdmin();
    networkId = (await createNetwork(t.db)).id;
    products = await standardProducts(t, admin, [networkId]);
  });
  afterAll(() => t.close());

  it('serves its own checkout page for an open session', async () => {
    const user = await t.buildUser();
    const { sandboxId, url, checkoutSessionId } = await startCheckout(t, user, 'product', products.tokens.priceId);
    expect(url).toBe(`http://portal.test/checkout?checkoutSessionId=${checkoutSessionId}`);
    const page = await t.app.inject({ method: 'GET', url: `/api/sandbox/checkout/${sandboxId}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('100 Tokens');
    expect(page.body).toContain('€10.00');
    expect(page.body).toContain(`checkoutSessionId=${checkoutSessionId}&amp;cancelled=true`);
  });

  it('buys a token pack with 4242…: the balance, the session, the payment and its invoice', async () => {
    const user = await t.buildUser();
    const { sandboxId, checkoutSessionId } = await startCheckout(t, user, 'product', products.tokens.priceId);
    const paid = await payOnSandbox(t, sandboxId, '4242 4242 4242 4242');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`http://portal.test/checkout?checkoutSessionId=${checkoutSessionId}`);
    expect(await balanceOf(t, user)).toBe(100);

    const session = await t.app.inject({
      method: 'GET',
      url: `/api/checkout?checkoutSessionId=${checkoutSessionId}`,
      headers: user.headers,
    });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({
      id: checkoutSessionId,
      transactionId: sandboxId,
      status: 'complete',
      type: 'Token',
      amount: 1000,
      value: 10,
      currency: 'EUR',
      creditsAmount: 100,
    });

    const payments = await t.app.inject({ method: 'GET', url: '/api/billing/payments', headers: user.headers });
    const [payment] = payments.json().payments;
    expect(payment).toMatchObject({ amount: 1000, currency: 'EUR', status: 'paid', description: '100 Tokens' });
    const invoice = await t.app.inject({
      method: 'GET',
      url: new URL(payment.invoiceUrl).pathname + new URL(payment.invoiceUrl).search,
    });
    expect(invoice.statusCode).toBe(200);
    expect(invoice.body).toContain(payment.invoiceNumber);

    const history = await t.app.inject({ method: 'GET', url: '/api/tokens/history', headers: user.headers });
    expect(history.json()).toMatchObject({
      tokenAmount: 100,
      entries: [{ kind: 'purchase', delta: 100, balanceAfter: 100 }],
    });
  });

  it('a declined card (4000 0000 0000 0002) buys nothing and leaves the session open', async () => {
    const user = await t.buildUser();
    const { sandboxId, checkoutSessionId } = await startCheckout(t, user, 'product', products.tokens.priceId);
    const declined = await payOnSandbox(t, sandboxId, '4000 0000 0000 0002');
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    expect(await balanceOf(t, user)).toBe(0);
    const session = await t.app.inject({
      method: 'GET',
      url: `/api/checkout?checkoutSessionId=${checkoutSessionId}`,
      headers: user.headers,
    });
    expect(session.json().status).toBe('open');
    const subs = await t.app.inject({ method: 'GET', url: '/api/subscriptions', headers: user.headers });
    expect(subs.json()).toEqual({ subscriptions: [], tokenAmount: 0 });
  });

  it('buys a subscription: active until the period end, with a grant per network', async () => {
    const user = await t.buildUser();
    const { sandboxId, checkoutSessionId } = await startCheckout(t, user, 'subscription', products.monthly.priceId);
    expect((await payOnSandbox(t, sandboxId, '4242424242424242')).statusCode).toBe(303);
    const subs = (await t.app.inject({ method: 'GET', url: '/api/subscriptions', headers: user.headers })).json();
    expect(subs.subscriptions).toHaveLength(1);
    const [sub] = subs.subscriptions;
    expect(sub).toMatchObject({
      status: 'active',
      productName: 'RTK Monthly',
      interval: 'MONTHLY',
      canCancel: true,
      canResume: false,
      networkIds: [networkId],
    });
    const grants = await grantsOf(t.db, sub.id);
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({
      network_id: networkId,
      owner_user_id: user.userId,
      source: 'subscription',
      ended_at: null,
    });
    expect(new Date(grants[0]?.valid_until ?? 0).toISOString()).toBe(sub.currentPeriodEnd);

    const session = await t.app.inject({
      method: 'GET',
      url: `/api/checkout?checkoutSessionId=${checkoutSessionId}`,
      headers: user.headers,
    });
    expect(session.json()).toMatchObject({ status: 'complete', type: 'Subscription', subscriptionId: sub.id });

    // A second checkout for the same running subscription is refused.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/checkout/subscription?priceId=${products.monthly.priceId}`,
      headers: user.headers,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('already_subscribed');
    expect(openGrants(grants)).toHaveLength(1);
  });

  it('paying a completed session again changes nothing', async () => {
    const user = await t.buildUser();
    const { sandboxId } = await startCheckout(t, user, 'product', products.tokens.priceId);
    await payOnSandbox(t, sandboxId, '4242424242424242');
    const again = await payOnSandbox(t, sandboxId, '4242424242424242');
    expect(again.statusCode).toBe(402);
    expect(await balanceOf(t, user)).toBe(100);
  });

  it('refuses unknown, archived and wrong-kind prices', async () => {
    const user = await t.buildUser();
    const wrongKind = await t.app.inject({
      method: 'POST',
      url: `/api/checkout/product?priceId=${products.monthly.priceId}`,
      headers: user.headers,
    });
    expect(wrongKind.statusCode).toBe(404);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/checkout/product?priceId=nope',
      headers: user.headers,
    });
    expect(unknown.json().code).toBe('product_not_found');
    const missing = await t.app.inject({ method: 'POST', url: '/api/checkout/product', headers: user.headers });
    expect(missing.statusCode).toBe(400);
  });
});
