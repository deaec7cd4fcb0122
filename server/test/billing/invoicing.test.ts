import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingModule } from '../../src/modules/billing/index.ts';
import { testDatabaseKind } from '../support/database.ts';
import { balanceOf, createProduct } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';
import { payOnSandbox, startCheckout } from './support.ts';

const NOT_LOGGED_IN = { code: 'unauthenticated', message: 'User is not logged in' };
const SOME_UUID = '00000000-0000-4000-8000-000000000000';
const CARD = '4242424242424242';

type Call = { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: object };

const SELLER = {
  legalName: 'Polder GNSS B.V.',
  addressLine1: 'Dijkweg 1',
  postalCode: '2611 AB',
  city: 'Delft',
  country: 'NL',
  vatNumber: 'NL123456789B01',
  email: 'billing@polder.example',
};
const RATES = [
  { country: 'NL', rateBp: 2100 },
  { country: 'DE', rateBp: 1900 },
];
const taxSettings = (overrides: object = {}) => ({
  seller: SELLER,
  invoicePrefix: 'PG',
  pricesIncludeTax: true,
  reverseCharge: true,
  stripeAutomaticTax: false,
  rates: RATES,
  ...overrides,
});

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'invoice-'));
  writeFileSync(join(dir, 'i.pdf'), pdf);
  return execFileSync('pdftotext', ['-layout', join(dir, 'i.pdf'), '-'], { encoding: 'utf8' });
}

describe(`billing details, tax, invoices and refunds on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let buyer: TestUser;
  let stranger: TestUser;
  let tokens: { priceId: string };

  const call = (c: Call, user?: TestUser) =>
    t.app.inject({ method: c.method, url: c.url, payload: c.payload, headers: user?.headers ?? {} });

  async function buyTokens(user: TestUser) {
    const started = await startCheckout(t, user, 'product', tokens.priceId);
    const paid = await payOnSandbox(t, started.sandboxId, CARD);
    expect(paid.statusCode).toBeLessThan(400);
    return started;
  }
  async function invoicesOf(user: TestUser) {
    const res = await call({ method: 'GET', url: '/api/billing/invoices' }, user);
    expect(res.statusCode).toBe(200);
    return res.json().invoices as {
      id: string;
      kind: string;
      number: string;
      paymentId: string;
      netAmount: number;
      taxAmount: number;
      totalAmount: number;
      reverseCharge: boolean;
    }[];
  }
  async function setDetails(user: TestUser, details: object) {
    const res = await call({ method: 'PUT', url: '/api/billing/details', payload: details }, user);
    expect(res.statusCode, res.body).toBe(200);
  }
  async function paymentsAsAdmin(q = '') {
    const res = await call({ method: 'GET', url: `/api/admin/payments${q}` }, admin);
    expect(res.statusCode).toBe(200);
    return res.json() as {
      payments: { id: string; userId: string; amount: number; refundedAmount: number; status: string }[];
      health: Record<string, unknown>;
    };
  }

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    buyer = await t.buildUser();
    stranger = await t.buildUser();
    tokens = await createProduct(t, admin, {
      kind: 'token',
      name: '100 Tokens',
      pricingTable: 'Tokens',
      amount: 1210,
      currency: 'EUR',
      creditsAmount: 100,
    });
    const saved = await call({ method: 'PUT', url: '/api/admin/settings/tax', payload: taxSettings() }, admin);
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(() => t.close());

  const userCalls = (): Call[] => [
    { method: 'GET', url: '/api/billing/details' },
    { method: 'PUT', url: '/api/billing/details', payload: {} },
    { method: 'GET', url: `/api/org/${SOME_UUID}/billing/details` },
    { method: 'PUT', url: `/api/org/${SOME_UUID}/billing/details`, payload: {} },
    { method: 'GET', url: '/api/billing/invoices' },
    { method: 'GET', url: `/api/billing/invoices/${SOME_UUID}/pdf` },
  ];
  const adminCalls = (): Call[] => [
    { method: 'GET', url: '/api/admin/invoices' },
    { method: 'GET', url: '/api/admin/settings/tax' },
    { method: 'PUT', url: '/api/admin/settings/tax', payload: taxSettings() },
    { method: 'GET', url: '/api/admin/payments' },
    { method: 'POST', url: `/api/admin/payments/${SOME_UUID}/refund`, payload: {} },
  ];

  it('401 for anonymous callers and 403 for users on admin calls; 404 for unknown ids', async () => {
    for (const c of [...userCalls(), ...adminCalls()]) {
      const res = await call(c);
      expect({ call: `${c.method} ${c.url}`, body: res.json() }).toEqual({
        call: `${c.method} ${c.url}`,
        body: NOT_LOGGED_IN,
      });
    }
    for (const c of adminCalls()) {
      expect({ call: c.url, status: (await call(c, buyer)).statusCode }).toEqual({ call: c.url, status: 403 });
    }
    expect((await call({ method: 'GET', url: `/api/billing/invoices/${SOME_UUID}/pdf` }, buyer)).statusCode).toBe(404);
    expect((await call({ method: 'GET', url: `/api/org/${SOME_UUID}/billing/details` }, buyer)).statusCode).toBe(404);
    const refund = await call({ method: 'POST', url: `/api/admin/payments/${SOME_UUID}/refund`, payload: {} }, admin);
    expect(refund.statusCode).toBe(404);
    expect((await call({ method: 'GET', url: '/api/billing/tax-info' })).json()).toEqual({ pricesIncludeTax: true });
  });

  it('billing details: saved with the VAT number normalised and unverified; bad input is 400 with the field', async () => {
    const bad = async (payload: object) => {
      const res = await call({ method: 'PUT', url: '/api/billing/details', payload }, buyer);
      return { status: res.statusCode, field: res.json().field };
    };
    const good = {
      companyName: 'Vermessung GmbH',
      addressLine1: 'Hauptstr. 5',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
    };
    expect(await bad({ ...good, vatNumber: 'DE12345' })).toEqual({ status: 400, field: 'vatNumber' });
    expect(await bad({ ...good, postalCode: '1011' })).toEqual({ status: 400, field: 'postalCode' });
    expect(await bad({ ...good, country: 'XX' })).toEqual({ status: 400, field: 'country' });
    expect(await bad({ ...good, addressLine1: '' })).toEqual({ status: 400, field: 'addressLine1' });
    expect(await bad({ ...good, invoiceEmail: 'not-an-email' })).toEqual({ status: 400, field: 'invoiceEmail' });
    expect((await call({ method: 'GET', url: '/api/billing/details' }, buyer)).json()).toEqual({ details: null });

    await setDetails(buyer, { ...good, vatNumber: 'de 123.456.789', invoiceEmail: 'ap@vermessung.example' });
    const res = await call({ method: 'GET', url: '/api/billing/details' }, buyer);
    expect(res.json().details).toMatchObject({
      companyName: 'Vermessung GmbH',
      country: 'DE',
      vatNumber: 'DE123456789',
      vatVerified: false,
      invoiceEmail: 'ap@vermessung.example',
    });
    expect((await call({ method: 'GET', url: '/api/billing/details' }, stranger)).json()).toEqual({ details: null });
  });

  it("an organisation's details: owners write, members read, outsiders get 404", async () => {
    const created = await call(
      { method: 'POST', url: '/api/organization', payload: { name: 'Survey Crew BV' } },
      buyer,
    );
    const orgId = new URLSearchParams(String(created.json().value).split('?')[1]).get('org') ?? '';
    const details = {
      companyName: 'Survey Crew BV',
      addressLine1: 'Kade 2',
      postalCode: '1011AB',
      city: 'Amsterdam',
      country: 'NL',
      vatNumber: 'NL999999999B99',
    };
    const put = await call({ method: 'PUT', url: `/api/org/${orgId}/billing/details`, payload: details }, buyer);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().details.postalCode).toBe('1011AB');
    expect((await call({ method: 'GET', url: `/api/org/${orgId}/billing/details` }, stranger)).statusCode).toBe(404);
    expect(
      (await call({ method: 'PUT', url: `/api/org/${orgId}/billing/details`, payload: details }, stranger)).statusCode,
    ).toBe(404);
  });

  it('tax per country: NL consumer pays Dutch VAT inside the price, a German business is reverse charged once its VAT number is verified', async () => {
    const consumer = await t.buildUser();
    await setDetails(consumer, { addressLine1: 'Straat 1', postalCode: '1234 AB', city: 'Utrecht', country: 'NL' });
    await buyTokens(consumer);
    expect(await invoicesOf(consumer)).toEqual([
      expect.objectContaining({
        kind: 'invoice',
        netAmount: 1000,
        taxAmount: 210,
        totalAmount: 1210,
        reverseCharge: false,
      }),
    ]);

    // `buyer` is a German company with a VAT number; the seller is Dutch. No registry confirmed the number, so it
    // is charged German VAT like a consumer until an admin verifies it.
    await buyTokens(buyer);
    expect(await invoicesOf(buyer)).toEqual([
      expect.objectContaining({ netAmount: 1017, taxAmount: 193, totalAmount: 1210, reverseCharge: false }),
    ]);
    const verify = (body: object) =>
      call({ method: 'PUT', url: '/api/admin/billing-details/vat-verification', payload: body }, admin);
    expect((await verify({ userId: buyer.userId, vatNumber: 'DE999999999', verified: true })).json().code).toBe(
      'vat_number_changed',
    );
    expect(
      (await call({ method: 'PUT', url: '/api/admin/billing-details/vat-verification', payload: {} }, buyer))
        .statusCode,
    ).toBe(403);
    const verified = await verify({ userId: buyer.userId, vatNumber: 'DE123456789', verified: true });
    expect(verified.json().details).toMatchObject({ vatNumber: 'DE123456789', vatVerified: true });
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id'])
      .where('action', '=', 'billing.vat_verified')
      .where('target_id', '=', buyer.userId)
      .execute();
    expect(audit).toEqual([{ action: 'billing.vat_verified', actor_user_id: admin.userId }]);
    await buyTokens(buyer);
    expect((await invoicesOf(buyer))[0]).toEqual(
      expect.objectContaining({ netAmount: 1210, taxAmount: 0, totalAmount: 1210, reverseCharge: true }),
    );

    const german = await t.buildUser();
    await setDetails(german, { addressLine1: 'Weg 3', postalCode: '80331', city: 'München', country: 'DE' });
    const american = await t.buildUser();
    await setDetails(american, {
      addressLine1: '1 Main St',
      postalCode: '94105',
      city: 'San Francisco',
      country: 'US',
    });
    await call(
      { method: 'PUT', url: '/api/admin/settings/tax', payload: taxSettings({ pricesIncludeTax: false }) },
      admin,
    );
    const started = await buyTokens(german);
    const session = await call(
      { method: 'GET', url: `/api/checkout?checkoutSessionId=${started.checkoutSessionId}` },
      german,
    );
    expect(session.json().amount).toBe(1440);
    expect(await invoicesOf(german)).toEqual([
      expect.objectContaining({ netAmount: 1210, taxAmount: 230, totalAmount: 1440, reverseCharge: false }),
    ]);
    await buyTokens(american);
    expect(await invoicesOf(american)).toEqual([
      expect.objectContaining({ netAmount: 1210, taxAmount: 0, totalAmount: 1210 }),
    ]);
    await call({ method: 'PUT', url: '/api/admin/settings/tax', payload: taxSettings() }, admin);
  });

  it('the invoice PDF carries seller, buyer, VAT number, tax line and total; others cannot download it', async () => {
    const [invoice] = await invoicesOf(buyer);
    if (!invoice) throw new Error('no invoice');
    const res = await call({ method: 'GET', url: `/api/billing/invoices/${invoice.id}/pdf` }, buyer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfText(res.rawPayload);
    for (const expected of [
      'Invoice',
      invoice.number,
      'Polder GNSS B.V.',
      'NL123456789B01',
      'Vermessung GmbH',
      'DE123456789',
      'VAT 0%',
      '€12.10',
      'reverse charged',
    ]) {
      expect(text).toContain(expected);
    }
    expect((await call({ method: 'GET', url: `/api/billing/invoices/${invoice.id}/pdf` }, stranger)).statusCode).toBe(
      404,
    );
    expect((await call({ method: 'GET', url: `/api/billing/invoices/${invoice.id}/pdf` }, admin)).statusCode).toBe(200);
  });

  it('20 concurrent payments get invoice numbers without gaps', async () => {
    const payer = await t.buildUser();
    const before = (await call({ method: 'GET', url: '/api/admin/invoices?kind=invoice' }, admin)).json().invoices
      .length;
    const started = await Promise.all(
      Array.from({ length: 20 }, () => startCheckout(t, payer, 'product', tokens.priceId)),
    );
    const paid = await Promise.all(started.map((s) => payOnSandbox(t, s.sandboxId, CARD)));
    expect(paid.every((p) => p.statusCode < 400)).toBe(true);
    const all = (await call({ method: 'GET', url: '/api/admin/invoices?kind=invoice' }, admin)).json().invoices as {
      number: string;
    }[];
    const sequences = all.map((i) => Number(i.number.split('-').at(-1))).sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: before + 20 }, (_, i) => i + 1));
    expect(all.every((i) => /^PG-\d{4}-\d{6}$/.test(i.number))).toBe(true);
    expect(await balanceOf(t, payer)).toBe(2000);
  });

  it('a partial refund takes back unspent tokens only, never below zero, and issues a credit note', async () => {
    const spender = await t.buildUser();
    await buyTokens(spender);
    const { payments } = await paymentsAsAdmin(`?q=${encodeURIComponent(spender.email)}`);
    const payment = payments[0];
    if (!payment) throw new Error('no payment');
    // Spend 80 of the 100 tokens.
    await call(
      {
        method: 'PUT',
        url: '/api/admin/tokens',
        payload: { userId: spender.userId, tokenAmount: -80, reason: 'Spent on activations' },
      },
      admin,
    );
    const tooMuch = await call(
      { method: 'POST', url: `/api/admin/payments/${payment.id}/refund`, payload: { amount: 5000 } },
      admin,
    );
    expect({ status: tooMuch.statusCode, field: tooMuch.json().field }).toEqual({ status: 400, field: 'amount' });

    const half = await call(
      { method: 'POST', url: `/api/admin/payments/${payment.id}/refund`, payload: { amount: 605, reason: 'Half' } },
      admin,
    );
    expect(half.statusCode, half.body).toBe(201);
    expect(half.json()).toMatchObject({
      amount: 605,
      tokensTakenBack: 20,
      tokensNotRecovered: 30,
      creditNoteNumber: expect.stringMatching(/^PG-CN-\d{4}-000001$/),
    });
    expect(await balanceOf(t, spender)).toBe(0);

    const rest = await call({ method: 'POST', url: `/api/admin/payments/${payment.id}/refund`, payload: {} }, admin);
    expect(rest.json()).toMatchObject({
      amount: 605,
      tokensTakenBack: 0,
      tokensNotRecovered: 50,
      creditNoteNumber: expect.stringMatching(/-000002$/),
    });
    const again = await call({ method: 'POST', url: `/api/admin/payments/${payment.id}/refund`, payload: {} }, admin);
    expect(again.statusCode).toBe(409);
    expect((await paymentsAsAdmin(`?status=refunded&q=${encodeURIComponent(spender.email)}`)).payments).toEqual([
      expect.objectContaining({ id: payment.id, refundedAmount: 1210, status: 'refunded' }),
    ]);
    const notes = (await invoicesOf(spender)).filter((i) => i.kind === 'credit_note');
    expect(notes.map((n) => n.totalAmount)).toEqual([-605, -605]);
    const audited = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'after'])
      .where('target_id', '=', payment.id)
      .orderBy('id')
      .execute();
    expect(audited.map((e) => [e.action, e.actor_user_id])).toEqual([
      ['payment.refund', admin.userId],
      ['payment.refund', admin.userId],
    ]);
    const history = await call({ method: 'GET', url: '/api/tokens/history' }, spender);
    expect(history.json().entries.map((e: { delta: number }) => e.delta)).toEqual([-20, -80, 100]);
  });

  it('simultaneous identical refunds answer a refund made or 409, never 500, each refund recorded once', async () => {
    const buyer = await t.buildUser();
    await buyTokens(buyer);
    const payment = (await paymentsAsAdmin(`?q=${encodeURIComponent(buyer.email)}`)).payments[0];
    if (!payment) throw new Error('no payment');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call({ method: 'POST', url: `/api/admin/payments/${payment.id}/refund`, payload: { amount: 605 } }, admin),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(
      statuses.every((s) => s === 201 || s === 409 || s === 400),
      statuses.join(),
    ).toBe(true);
    // Requests that find the first refund recorded ask for another half; those racing it answer the same refund.
    const made = new Set(answers.filter((a) => a.statusCode === 201).map((a) => a.json().id));
    expect(made.size).toBeGreaterThan(0);
    expect((await paymentsAsAdmin(`?q=${encodeURIComponent(buyer.email)}`)).payments).toEqual([
      expect.objectContaining({ id: payment.id, refundedAmount: 605 * made.size }),
    ]);
    expect((await invoicesOf(buyer)).filter((i) => i.kind === 'credit_note')).toHaveLength(made.size);
  });

  it('refund and dispute events replayed are credited once; the payments page shows the webhook health', async () => {
    const payer = await t.buildUser();
    await buyTokens(payer);
    const { payments } = await paymentsAsAdmin(`?q=${encodeURIComponent(payer.email)}`);
    const payment = payments[0];
    if (!payment) throw new Error('no payment');
    const row = await t.db
      .selectFrom('payments')
      .select('provider_payment_id')
      .where('id', '=', payment.id)
      .executeTakeFirstOrThrow();
    // The refund is made at the provider (as if from its dashboard); its event arrives twice, then once more under another id.
    await t.db
      .insertInto('sandbox_objects')
      .values({
        id: 're_sbx_dash',
        kind: 'refund',
        data: JSON.stringify({
          id: 're_sbx_dash',
          payment: row.provider_payment_id,
          amount: 300,
          reason: null,
          createdAt: new Date().toISOString(),
        }),
      })
      .execute();
    await t.db
      .insertInto('sandbox_objects')
      .values({
        id: 'dp_sbx_1',
        kind: 'dispute',
        data: JSON.stringify({ id: 'dp_sbx_1', payment: row.provider_payment_id, amount: 400 }),
      })
      .execute();
    // The same service the app runs, on the same database: events reach it as verified webhooks would.
    const handle = createBillingModule({ db: t.db, organizations: { roleOf: async () => undefined } }).service
      .handleEvent;
    const refunded = {
      id: 'evt_r1',
      type: 'charge.refunded',
      providerType: 'charge.refunded',
      objectId: row.provider_payment_id,
    } as const;
    expect(await handle(refunded)).toBe('processed');
    expect(await handle(refunded)).toBe('duplicate');
    expect(await handle({ ...refunded, id: 'evt_r2' })).toBe('processed');
    const disputed = {
      id: 'evt_d1',
      type: 'dispute.created',
      providerType: 'charge.dispute.created',
      objectId: 'dp_sbx_1',
    } as const;
    await handle(disputed);
    await handle(disputed);
    await handle({ ...disputed, id: 'evt_d2' });
    const after = await paymentsAsAdmin(`?q=${encodeURIComponent(payer.email)}`);
    expect(after.payments[0]).toMatchObject({ refundedAmount: 700, status: 'partially_refunded' });
    // 300 of 1210 takes back 25 tokens, 700 of 1210 takes back 58 in all.
    expect(await balanceOf(t, payer)).toBe(42);
    expect((await invoicesOf(payer)).filter((i) => i.kind === 'credit_note')).toHaveLength(1);
    expect(after.health).toMatchObject({
      provider: 'sandbox',
      keysConfigured: true,
      webhookConfigured: true,
      lastEventType: 'charge.dispute.created',
      failedEvents: 0,
    });
  });

  it('admins list and export invoices and payments with filters', async () => {
    const csvRes = await call({ method: 'GET', url: '/api/admin/invoices?format=csv&kind=credit_note' }, admin);
    expect(csvRes.headers['content-type']).toContain('text/csv');
    const lines = csvRes.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'number,kind,issued_at,buyer,buyer_email,buyer_country,currency,net,tax,total,reverse_charge',
    );
    expect(lines.slice(1).every((l) => l.includes(',credit_note,'))).toBe(true);
    const search = await call(
      { method: 'GET', url: `/api/admin/invoices?q=${encodeURIComponent('DE123456789')}` },
      admin,
    );
    expect(search.json().invoices.length).toBeGreaterThan(0);
    const bad = await call({ method: 'GET', url: '/api/admin/payments?from=yesterday' }, admin);
    expect({ status: bad.statusCode, field: bad.json().field }).toEqual({ status: 400, field: 'from' });
    const future = await call({ method: 'GET', url: '/api/admin/payments?from=2999-01-01' }, admin);
    expect(future.json().payments).toEqual([]);
    const paymentsCsv = await call({ method: 'GET', url: '/api/admin/payments?format=csv' }, admin);
    expect(paymentsCsv.body.split('\r\n')[0]).toBe(
      'created_at,customer,description,status,currency,amount,refunded,invoice,provider,provider_payment_id',
    );
  });

  it('tax settings changes are in the audit log with before and after', async () => {
    const entries = await t.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('action', '=', 'settings.tax.update')
      .orderBy('id')
      .execute();
    // beforeAll, and the switch to prices without tax and back.
    expect(entries).toHaveLength(3);
    const last = entries.at(-1) as { before: unknown; after: unknown };
    const read = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as { pricesIncludeTax: boolean };
    expect([read(last.before).pricesIncludeTax, read(last.after).pricesIncludeTax]).toEqual([false, true]);
  });

  it('bad tax settings are 400 with the field', async () => {
    const put = async (payload: object) => {
      const res = await call({ method: 'PUT', url: '/api/admin/settings/tax', payload }, admin);
      return { status: res.statusCode, field: res.json().field };
    };
    expect(await put(taxSettings({ rates: [{ country: 'NL', rateBp: 20000 }] }))).toEqual({
      status: 400,
      field: 'rates.0.rateBp',
    });
    expect(await put(taxSettings({ rates: [...RATES, { country: 'NL', rateBp: 900 }] }))).toEqual({
      status: 400,
      field: 'rates.2.country',
    });
    expect(await put(taxSettings({ seller: { ...SELLER, vatNumber: 'NL123' } }))).toEqual({
      status: 400,
      field: 'seller.vatNumber',
    });
    expect(await put(taxSettings({ invoicePrefix: 'inv/2026' }))).toEqual({ status: 400, field: 'invoicePrefix' });
  });
});
