import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOptionsOf } from '../../src/api-options.ts';
import { loadConfig } from '../../src/config.ts';
import { seedDemoProducts } from '../../src/modules/billing/index.ts';
import { seedDemoSeller } from '../../src/modules/invoicing/index.ts';
import { testDatabaseKind } from '../support/database.ts';
import { createProduct } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';
import { payOnSandbox, sandboxIdOf } from './support.ts';

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'invoice-'));
  writeFileSync(join(dir, 'i.pdf'), pdf);
  return execFileSync('pdftotext', ['-layout', join(dir, 'i.pdf'), '-'], { encoding: 'utf8' });
}

const PRODUCTION = {
  NODE_ENV: 'production',
  FIREBASE_PROJECT_ID: 'acme-portal-prod',
  DATABASE_URL: 'postgres://portal@db.internal:5432/portal',
  FEED_SECRET_KEY: 'q6Xq3bGkq8m4mJ0wS0bXr0a9hQ5f8cQeWkqg2l7Y1jA=',
  STRIPE_SECRET_KEY: 'sk_test_51ProdCheck',
  STRIPE_WEBHOOK_SECRET: 'whsec_prodcheck',
  SMTP_URL: 'smtp://mail.internal:587',
};

describe(`payments need the seller and the tax rates first, on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let buyer: TestUser;
  let tokens: { priceId: string };

  const checkout = (user: TestUser) =>
    t.app.inject({
      method: 'POST',
      url: `/api/checkout/product?priceId=${encodeURIComponent(tokens.priceId)}`,
      headers: user.headers,
    });

  beforeAll(async () => {
    // What production runs with (apiOptionsOf of a production configuration), on the offline provider.
    t = await buildTestApp({ billing: { requireTaxSetup: true } });
    admin = await t.buildAdmin();
    buyer = await t.buildUser();
    tokens = await createProduct(t, admin, {
      kind: 'token',
      name: '100 Tokens',
      pricingTable: 'Tokens',
      amount: 1210,
      currency: 'EUR',
      creditsAmount: 100,
    });
  });
  afterAll(() => t.close());

  it('production refuses checkout while the seller and the rates are missing, and says what is missing', async () => {
    expect(apiOptionsOf(loadConfig(PRODUCTION)).billing?.requireTaxSetup).toBe(true);
    expect(apiOptionsOf(loadConfig({ FIREBASE_PROJECT_ID: 'demo-gnss-portal' })).billing?.requireTaxSetup).toBe(false);

    const refused = await checkout(buyer);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'payments_not_configured',
      message: expect.stringMatching(
        /^Payments are not open yet: the seller's legal details and the VAT rates .*Tax management.*legalName.*VAT rates for AT, BE/,
      ),
    });
    expect(await t.db.selectFrom('checkout_sessions').select('id').execute()).toEqual([]);

    const payments = await t.app.inject({ method: 'GET', url: '/api/admin/payments', headers: admin.headers });
    expect(payments.json().taxSetup).toMatchObject({
      ready: false,
      sellerFieldsMissing: ['legalName', 'addressLine1', 'postalCode', 'city', 'vatNumber', 'email'],
    });
    expect(payments.json().taxSetup.ratesMissing).toHaveLength(27);
  });

  it("the demo's seller and EU rates open payments; the first invoice names the seller and charges Dutch VAT", async () => {
    await seedDemoSeller(t.db);
    const setup = await t.app.inject({ method: 'GET', url: '/api/admin/settings/tax/setup', headers: admin.headers });
    expect(setup.json()).toEqual({ ready: true, sellerFieldsMissing: [], ratesMissing: [] });

    const dutch = await t.buildUser();
    const details = await t.app.inject({
      method: 'PUT',
      url: '/api/billing/details',
      headers: dutch.headers,
      payload: { addressLine1: 'Oudegracht 12', postalCode: '3511 AR', city: 'Utrecht', country: 'NL' },
    });
    expect(details.statusCode).toBe(200);
    const started = await checkout(dutch);
    expect(started.statusCode, started.body).toBe(200);
    const paid = await payOnSandbox(t, await sandboxIdOf(t, started.json().checkoutSessionId), '4242424242424242');
    expect(paid.statusCode).toBeLessThan(400);

    const [invoice] = (
      await t.app.inject({ method: 'GET', url: '/api/billing/invoices', headers: dutch.headers })
    ).json().invoices;
    expect(invoice).toMatchObject({ netAmount: 1000, taxAmount: 210, totalAmount: 1210, reverseCharge: false });
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/billing/invoices/${invoice.id}/pdf`,
      headers: dutch.headers,
    });
    const text = pdfText(pdf.rawPayload);
    for (const expected of [
      'Meridian RTK B.V.',
      'Kanaalweg 17',
      '2628 EB Delft',
      'NL859327614B01',
      'VAT 21%',
      '€2.10',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('an unverified foreign EU VAT number is charged its country’s VAT, not reverse charged', async () => {
    const company = await t.buildUser();
    await t.app.inject({
      method: 'PUT',
      url: '/api/billing/details',
      headers: company.headers,
      payload: {
        companyName: 'Géomètres Associés SARL',
        addressLine1: '3 rue de la Paix',
        postalCode: '75002',
        city: 'Paris',
        country: 'FR',
        vatNumber: 'FR40303265045',
      },
    });
    const started = await checkout(company);
    expect(started.statusCode, started.body).toBe(200);
    const row = await t.db
      .selectFrom('checkout_sessions')
      .select(['tax_rate_bp', 'reverse_charge', 'tax_country'])
      .where('id', '=', started.json().checkoutSessionId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ tax_rate_bp: 2000, reverse_charge: false, tax_country: 'FR' });
  });

  it('the demo seed fills in only what is missing and keeps what an admin changed', async () => {
    const current = (
      await t.app.inject({ method: 'GET', url: '/api/admin/settings/tax', headers: admin.headers })
    ).json();
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/tax',
      headers: admin.headers,
      payload: {
        ...current,
        seller: { ...current.seller, legalName: 'Polder Positioning B.V.', email: null },
        rates: current.rates.filter((r: { country: string }) => r.country !== 'DE'),
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await seedDemoSeller(t.db);
    await seedDemoProducts(t.db);
    const after = (
      await t.app.inject({ method: 'GET', url: '/api/admin/settings/tax', headers: admin.headers })
    ).json();
    expect(after.seller).toMatchObject({ legalName: 'Polder Positioning B.V.', email: 'billing@meridian-rtk.example' });
    expect(after.rates.map((r: { country: string }) => r.country)).not.toContain('DE');
    expect(after.rates.find((r: { country: string }) => r.country === 'NL')).toEqual({ country: 'NL', rateBp: 2100 });
  });
});
