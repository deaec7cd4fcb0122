import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { createStripeProvider } from '../../src/modules/billing/providers/stripe.ts';

/**
 * The Stripe adapter against the real SDK with only its HTTP layer replaced, so what is checked is the request
 * Stripe would receive.
 */
function stripeAnswering(status: number, body: object) {
  const requests: { method: string; path: string }[] = [];
  const fetchStub = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    requests.push({ method: init?.method ?? 'GET', path: url.pathname });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  const stripe = new Stripe('sk_test_fake_key_for_tests', {
    httpClient: Stripe.createFetchHttpClient(fetchStub as typeof fetch),
    maxNetworkRetries: 0,
  });
  return { provider: createStripeProvider({ stripe, webhookSecret: undefined }), requests };
}

const PERIOD_START = 1_790_000_000;
const PERIOD_END = PERIOD_START + 30 * 86_400;

describe('Stripe provider: ending a subscription now', () => {
  it('deletes the subscription at Stripe (cancel now, not at the period end) and reads back its state', async () => {
    const { provider, requests } = stripeAnswering(200, {
      id: 'sub_123',
      object: 'subscription',
      status: 'canceled',
      cancel_at_period_end: false,
      start_date: PERIOD_START,
      metadata: { checkoutSessionId: 'ours-1' },
      items: {
        object: 'list',
        data: [{ current_period_start: PERIOD_START, current_period_end: PERIOD_END, price: { id: 'price_1' } }],
      },
    });

    const snapshot = await provider.cancelNow('sub_123');

    expect(requests).toEqual([{ method: 'DELETE', path: '/v1/subscriptions/sub_123' }]);
    expect(snapshot).toEqual({
      providerSubscriptionId: 'sub_123',
      status: 'canceled',
      cancelAtPeriodEnd: false,
      currentPeriodStart: new Date(PERIOD_START * 1000),
      currentPeriodEnd: new Date(PERIOD_END * 1000),
      priceId: 'price_1',
      checkoutSessionId: 'ours-1',
    });
  });

  it('rejects when Stripe refuses, so nothing is recorded as ended', async () => {
    const { provider } = stripeAnswering(500, {
      error: { type: 'api_error', message: 'Something went wrong on our end.' },
    });
    await expect(provider.cancelNow('sub_123')).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
  });
});

/**
 * Responses in the shape Stripe's API reference documents for these calls (trimmed to the fields read), served
 * by path through the SDK's own fetch HTTP client: the requests checked are the ones Stripe would receive.
 */
function stripeRecorded(answers: Record<string, object>) {
  const requests: { method: string; path: string; query: string; body: string; idempotencyKey: string | null }[] = [];
  const fetchStub = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    requests.push({
      method,
      path: url.pathname,
      query: decodeURIComponent(url.search),
      body: decodeURIComponent(String(init?.body ?? '')),
      idempotencyKey: method === 'POST' ? headers.get('idempotency-key') : null,
    });
    const answer = answers[`${method} ${url.pathname}`];
    return new Response(
      JSON.stringify(answer ?? { error: { type: 'invalid_request_error', message: 'No such path' } }),
      {
        status: answer ? 200 : 404,
        headers: { 'content-type': 'application/json' },
      },
    );
  };
  const stripe = new Stripe('sk_test_fake_key_for_tests', {
    httpClient: Stripe.createFetchHttpClient(fetchStub as typeof fetch),
    maxNetworkRetries: 0,
  });
  return { provider: createStripeProvider({ stripe, webhookSecret: undefined }), requests };
}

const INVOICE_PAYMENTS = {
  object: 'list',
  url: '/v1/invoice_payments',
  has_more: false,
  data: [
    {
      id: 'inpay_1',
      object: 'invoice_payment',
      invoice: 'in_1',
      is_default: true,
      amount_paid: 1210,
      currency: 'eur',
      status: 'paid',
      payment: { type: 'payment_intent', payment_intent: 'pi_1' },
    },
  ],
};

describe('Stripe provider: refunds, disputes and customers', () => {
  it('refunds a payment stored under its invoice through the invoice’s payment intent, idempotently', async () => {
    const { provider, requests } = stripeRecorded({
      'GET /v1/invoice_payments': INVOICE_PAYMENTS,
      'POST /v1/refunds': {
        id: 're_1',
        object: 'refund',
        amount: 605,
        currency: 'eur',
        payment_intent: 'pi_1',
        status: 'succeeded',
      },
    });
    const refund = await provider.refund({
      providerPaymentId: 'in_1',
      amount: 605,
      idempotencyKey: 'refund-x-0-605',
      reason: 'Half',
    });
    expect(refund).toEqual({ id: 're_1', amount: 605, status: 'succeeded' });
    expect(requests.map((r) => `${r.method} ${r.path}${r.query}`)).toEqual([
      'GET /v1/invoice_payments?invoice=in_1&limit=1',
      'POST /v1/refunds',
    ]);
    expect(requests[1]?.body).toBe('payment_intent=pi_1&amount=605&metadata[reason]=Half');
    expect(requests[1]?.idempotencyKey).toBe('refund-x-0-605');
  });

  it('reads the refunds of a charge and the ids its payment may be stored under', async () => {
    const { provider, requests } = stripeRecorded({
      'GET /v1/charges/ch_1': {
        id: 'ch_1',
        object: 'charge',
        amount: 1210,
        amount_refunded: 905,
        payment_intent: 'pi_1',
        refunded: false,
        refunds: {
          object: 'list',
          has_more: false,
          data: [
            { id: 're_1', object: 'refund', amount: 605, status: 'succeeded' },
            { id: 're_2', object: 'refund', amount: 300, status: 'pending' },
          ],
        },
      },
      'GET /v1/invoice_payments': INVOICE_PAYMENTS,
    });
    expect(await provider.fetchChargeRefunds('ch_1')).toEqual({
      providerPaymentIds: ['pi_1', 'in_1'],
      refunds: [
        { id: 're_1', amount: 605, status: 'succeeded' },
        { id: 're_2', amount: 300, status: 'pending' },
      ],
    });
    expect(requests.map((r) => `${r.method} ${r.path}${r.query}`)).toEqual([
      'GET /v1/charges/ch_1?expand[0]=refunds',
      'GET /v1/invoice_payments?payment[type]=payment_intent&payment[payment_intent]=pi_1&limit=1',
    ]);
  });

  it('reads a dispute', async () => {
    const { provider } = stripeRecorded({
      'GET /v1/disputes/dp_1': {
        id: 'dp_1',
        object: 'dispute',
        amount: 1210,
        charge: 'ch_1',
        payment_intent: 'pi_1',
        status: 'needs_response',
      },
      'GET /v1/invoice_payments': { ...INVOICE_PAYMENTS, data: [] },
    });
    expect(await provider.fetchDispute('dp_1')).toEqual({ id: 'dp_1', amount: 1210, providerPaymentIds: ['pi_1'] });
  });

  it('sends billing details to the customer and adds the VAT number as an EU VAT tax id once', async () => {
    const { provider, requests } = stripeRecorded({
      'POST /v1/customers/cus_1': { id: 'cus_1', object: 'customer' },
      'GET /v1/customers/cus_1/tax_ids': { object: 'list', has_more: false, data: [] },
      'POST /v1/customers/cus_1/tax_ids': { id: 'txi_1', object: 'tax_id', type: 'eu_vat', value: 'DE123456789' },
    });
    await provider.updateCustomer('cus_1', {
      name: 'Vermessung GmbH',
      email: 'ap@vermessung.example',
      address: { line1: 'Hauptstr. 5', line2: null, postalCode: '10115', city: 'Berlin', country: 'DE' },
      vatNumber: 'DE123456789',
    });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/customers/cus_1',
      'GET /v1/customers/cus_1/tax_ids',
      'POST /v1/customers/cus_1/tax_ids',
    ]);
    expect(requests[0]?.body).toContain('address[country]=DE');
    expect(requests[2]?.body).toBe('type=eu_vat&value=DE123456789');
  });

  it('checkout: Stripe Tax when enabled, our tax on top as a one-off price of the same product otherwise', async () => {
    const session = { id: 'cs_1', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_1' };
    const base = {
      checkoutSessionId: 'ours-1',
      kind: 'token' as const,
      priceId: 'price_1',
      productName: '100 Tokens',
      currency: 'EUR' as const,
      interval: null,
      customerId: 'cus_1',
      userId: 'user-1',
      email: null,
      successUrl: 'http://portal.test/checkout?x=1',
      cancelUrl: 'http://portal.test/checkout?x=1&cancelled=true',
      priceAmount: 1000,
      providerProductId: 'prod_1',
    };
    const automatic = stripeRecorded({ 'POST /v1/checkout/sessions': session });
    await automatic.provider.createCheckout({ ...base, amount: 1000, automaticTax: true });
    expect(automatic.requests[0]?.body).toContain('line_items[0][price]=price_1');
    expect(automatic.requests[0]?.body).toContain('automatic_tax[enabled]=true');
    const ours = stripeRecorded({ 'POST /v1/checkout/sessions': session });
    await ours.provider.createCheckout({ ...base, amount: 1210, automaticTax: false });
    expect(ours.requests[0]?.body).toContain('line_items[0][price_data][unit_amount]=1210');
    expect(ours.requests[0]?.body).toContain('line_items[0][price_data][product]=prod_1');
    expect(ours.requests[0]?.body).not.toContain('automatic_tax');
  });
});
