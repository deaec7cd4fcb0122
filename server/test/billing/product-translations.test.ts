import type { PricingTable, Product } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoProducts } from '../../src/modules/billing/billing.seed.ts';
import { testDatabaseKind } from '../support/database.ts';
import { createNetwork, createProduct } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';
import { payOnSandbox, startCheckout } from './support.ts';

const MONTHLY_NL = {
  name: 'RTK per maand',
  description: 'De hele maand correcties',
  attributes: ['Elk station', '1 rover tegelijk'],
};

describe(`product texts per language on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let monthly: { id: string; priceId: string };
  let tokens: { id: string; priceId: string };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    const networkId = (await createNetwork(t.db)).id;
    monthly = await createProduct(t, admin, {
      kind: 'subscription',
      name: 'RTK Monthly',
      description: 'Corrections all month',
      pricingTable: 'RTK',
      amount: 4900,
      currency: 'EUR',
      interval: 'MONTHLY',
      networkIds: [networkId],
      attributes: ['Every station', '1 concurrent rover'],
      translations: { nl: MONTHLY_NL },
    });
    tokens = await createProduct(t, admin, {
      kind: 'token',
      name: '100 Tokens',
      description: 'Pay as you go',
      pricingTable: 'Tokens',
      amount: 1000,
      currency: 'EUR',
      creditsAmount: 100,
      attributes: ['Never expire'],
      translations: { nl: { name: '100 tokens', description: 'Betaal naar gebruik', attributes: ['Verlopen nooit'] } },
    });
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
  const card = (tables: PricingTable[], priceId: string) =>
    tables.flatMap((table) => table.data).find((p) => p.priceId === priceId);

  it('shows a Dutch reader the pricing cards in Dutch, anyone else in the base language, saying the answer varies', async () => {
    const dutch = await get('/api/stripe/subscription-pricing-tables', {
      'accept-language': 'nl-NL,nl;q=0.9,en;q=0.8',
    });
    expect(dutch.statusCode, dutch.body).toBe(200);
    expect(dutch.headers.vary).toMatch(/Accept-Language/i);
    expect(card(dutch.json(), monthly.priceId)).toMatchObject(MONTHLY_NL);

    const english = await get('/api/stripe/subscription-pricing-tables', { 'accept-language': 'en' });
    expect(card(english.json(), monthly.priceId)).toMatchObject({
      name: 'RTK Monthly',
      description: 'Corrections all month',
      attributes: ['Every station', '1 concurrent rover'],
    });
    expect(card((await get('/api/stripe/subscription-pricing-tables', {})).json(), monthly.priceId)?.name).toBe(
      'RTK Monthly',
    );
    // Weights count: English preferred over Dutch.
    const preferred = await get('/api/stripe/subscription-pricing-tables', { 'accept-language': 'nl;q=0.5, en;q=0.9' });
    expect(card(preferred.json(), monthly.priceId)?.name).toBe('RTK Monthly');

    const user = await t.buildUser();
    const credits = await get('/api/tokenProducts', { ...user.headers, 'accept-language': 'nl' });
    expect(card(credits.json(), tokens.priceId)).toMatchObject({
      name: '100 tokens',
      description: 'Betaal naar gebruik',
      attributes: ['Verlopen nooit'],
    });
  });

  it('names the product in Dutch on the checkout and in the subscriptions; the payment keeps the name it was paid under', async () => {
    const user = await t.buildUser();
    const { sandboxId, checkoutSessionId } = await startCheckout(t, user, 'subscription', monthly.priceId);
    expect((await payOnSandbox(t, sandboxId, '4242424242424242')).statusCode).toBeLessThan(400);
    const dutch = { ...user.headers, 'accept-language': 'nl' };

    const checkout = await get(`/api/checkout?checkoutSessionId=${checkoutSessionId}`, dutch);
    expect(checkout.json()).toMatchObject({ status: 'complete', productName: 'RTK per maand' });
    expect((await get(`/api/checkout?checkoutSessionId=${checkoutSessionId}`, user.headers)).json().productName).toBe(
      'RTK Monthly',
    );

    const subscriptions = await get('/api/subscriptions', dutch);
    expect(subscriptions.json().subscriptions).toEqual([expect.objectContaining({ productName: 'RTK per maand' })]);
    expect((await get('/api/subscriptions', user.headers)).json().subscriptions[0].productName).toBe('RTK Monthly');

    // Payments and their invoices are records of what was sold, in the base language (docs/language.md).
    const payments = await get('/api/billing/payments', dutch);
    expect(payments.json().payments).toEqual([expect.objectContaining({ description: 'RTK Monthly' })]);
  });

  it('gives the admin the base texts with every translation, whatever the language, to edit', async () => {
    const res = await get('/api/admin/products?kind=subscription', { ...admin.headers, 'accept-language': 'nl' });
    const product = (res.json() as { products: Product[] }).products.find((p) => p.id === monthly.id);
    expect(product).toMatchObject({ name: 'RTK Monthly', translations: { nl: MONTHLY_NL } });
  });

  it('falls back to the base text where a translation is empty, and keeps translations on an edit without them', async () => {
    const patch = (payload: object) =>
      t.app.inject({ method: 'PUT', url: `/api/admin/products/${tokens.id}`, headers: admin.headers, payload });
    const user = await t.buildUser();
    const dutchCard = async () =>
      card((await get('/api/tokenProducts', { ...user.headers, 'accept-language': 'nl' })).json(), tokens.priceId);

    const emptied = await patch({ translations: { nl: { name: '100 tokens', description: '', attributes: [] } } });
    expect(emptied.statusCode, emptied.body).toBe(200);
    expect(await dutchCard()).toMatchObject({
      name: '100 tokens',
      description: 'Pay as you go',
      attributes: ['Never expire'],
    });

    const repriced = await patch({ bestChoice: true });
    expect(repriced.json()).toMatchObject({ translations: { nl: { name: '100 tokens' } } });
    expect((await dutchCard())?.name).toBe('100 tokens');
  });

  it("seeds the demo products with Dutch texts, which a Dutch reader's pricing cards show", async () => {
    await seedDemoProducts(t.db);
    const tables = (await get('/api/stripe/subscription-pricing-tables', { 'accept-language': 'nl' })).json();
    expect(card(tables, 'price_sbx_demo-sub-monthly')).toMatchObject({
      name: 'RTK per maand',
      description: 'De hele maand correcties, automatisch verlengd.',
      attributes: expect.arrayContaining(['Realtime RTK-correcties via NTRIP']),
    });
  });

  it('refuses a language the portal does not speak, changing nothing', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/products/${monthly.id}`,
      headers: admin.headers,
      payload: { translations: { de: { name: 'RTK monatlich', description: '', attributes: [] } } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    const tables = await get('/api/stripe/subscription-pricing-tables', { 'accept-language': 'nl' });
    expect(card(tables.json(), monthly.priceId)?.name).toBe('RTK per maand');
  });
});
