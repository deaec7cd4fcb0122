import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { UnknownPaymentMethodError } from '../../src/modules/billing/providers/provider.ts';
import { createStripeProvider } from '../../src/modules/billing/providers/stripe.ts';
import { type StripeAnswer, StripeFailure, stripeOverStub } from '../support/stripe-api.ts';

/**
 * The Stripe adapter against the real SDK with only its HTTP layer replaced (test/support/stripe-api.ts), so what
 * is checked is the request Stripe would receive. Responses are in the shape Stripe's API reference documents for
 * these calls, trimmed to the fields read.
 */
function stripeRecorded(answers: Record<string, StripeAnswer>) {
  const { stripe, requests } = stripeOverStub(answers);
  return { provider: createStripeProvider({ stripe, webhookSecret: undefined }), requests };
}

const PERIOD_START = 1_790_000_000;
const PERIOD_END = PERIOD_START + 30 * 86_400;

describe('Stripe provider: ending a subscription now', () => {
  it('deletes the subscription at Stripe (cancel now, not at the period end) and reads back its state', async () => {
    const { provider, requests } = stripeRecorded({
      'DELETE /v1/subscriptions/sub_123': {
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
      },
    });

    const snapshot = await provider.cancelNow('sub_123');

    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /v1/subscriptions/sub_123']);
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
    const { provider } = stripeRecorded({
      'DELETE /v1/subscriptions/sub_123': new StripeFailure(500, {
        error: { type: 'api_error', message: 'Something went wrong on our end.' },
      }),
    });
    await expect(provider.cancelNow('sub_123')).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
  });
});

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
    const session = {
      id: 'cs_1',
      object: 'checkout.session',
      ui_mode: 'embedded_page',
      client_secret: 'cs_1_secret_abc',
      url: null,
    };
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

/** A card PaymentMethod as `GET /v1/payment_methods/{id}` and the customer's list answer it. */
function cardMethod(
  id: string,
  customer: string | null,
  card: { brand: string; last4: string; month: number; year: number },
) {
  return {
    id,
    object: 'payment_method',
    billing_details: { address: null, email: null, name: null, phone: null },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: card.brand,
      exp_month: card.month,
      exp_year: card.year,
      fingerprint: `fp_${id}`,
      funding: 'credit',
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      wallet: null,
    },
    created: 1_790_000_000,
    customer,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}

const VISA = cardMethod('pm_1', 'cus_1', { brand: 'visa', last4: '4242', month: 12, year: 2034 });
const MASTERCARD = cardMethod('pm_2', 'cus_1', { brand: 'mastercard', last4: '4444', month: 1, year: 2035 });
const NO_SUCH_METHOD = new StripeFailure(404, {
  error: {
    code: 'resource_missing',
    doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
    message: "No such PaymentMethod: 'pm_gone'",
    param: 'payment_method',
    type: 'invalid_request_error',
  },
});

describe('Stripe provider: embedded checkout and saved cards', () => {
  const input = {
    checkoutSessionId: 'ours-1',
    kind: 'token' as const,
    priceId: 'price_1',
    productName: '100 Tokens',
    amount: 1000,
    priceAmount: 1000,
    providerProductId: 'prod_1',
    automaticTax: false,
    currency: 'EUR' as const,
    interval: null,
    customerId: 'cus_1',
    userId: 'user-1',
    email: null,
    successUrl: 'http://portal.test/checkout?checkoutSessionId=ours-1',
    cancelUrl: 'http://portal.test/checkout?checkoutSessionId=ours-1&cancelled=true',
  };

  it('creates an embedded Checkout Session for the portal’s page', async () => {
    const { provider, requests } = stripeRecorded({
      'POST /v1/checkout/sessions': {
        id: 'cs_test_a1',
        object: 'checkout.session',
        client_reference_id: 'ours-1',
        client_secret: 'cs_test_a1_secret_fX9',
        customer: 'cus_1',
        mode: 'payment',
        payment_status: 'unpaid',
        return_url: 'http://portal.test/checkout?checkoutSessionId=ours-1',
        status: 'open',
        ui_mode: 'embedded_page',
        url: null,
      },
    });
    expect(await provider.createCheckout(input)).toEqual({ providerSessionId: 'cs_test_a1', url: null });
    const body = requests[0]?.body ?? '';
    expect(body).toContain('ui_mode=embedded_page');
    expect(body).toContain('redirect_on_completion=if_required');
    expect(body).toContain('return_url=http://portal.test/checkout?checkoutSessionId=ours-1');
    expect(body).not.toContain('success_url');
    expect(body).not.toContain('cancel_url');
    expect(requests[0]?.idempotencyKey).toBe('checkout-ours-1');
  });

  it('refuses a session Stripe answered without a client secret', async () => {
    const { provider } = stripeRecorded({
      'POST /v1/checkout/sessions': { id: 'cs_test_a2', object: 'checkout.session', client_secret: null },
    });
    await expect(provider.createCheckout(input)).rejects.toThrow(/without a client secret/);
  });

  it('creates an off-session card SetupIntent for the customer', async () => {
    const { provider, requests } = stripeRecorded({
      'POST /v1/setup_intents': {
        id: 'seti_1',
        object: 'setup_intent',
        client_secret: 'seti_1_secret_Qw3',
        customer: 'cus_1',
        allowed_payment_method_types: ['card'],
        payment_method: null,
        payment_method_types: ['card'],
        status: 'requires_payment_method',
        usage: 'off_session',
      },
    });
    expect(await provider.createSetupIntent('cus_1')).toEqual({ clientSecret: 'seti_1_secret_Qw3' });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/setup_intents']);
    expect(requests[0]?.body).toBe('customer=cus_1&usage=off_session&allowed_payment_method_types[0]=card');
  });

  it('lists the customer’s cards with the default of its invoice settings marked', async () => {
    const { provider, requests } = stripeRecorded({
      'GET /v1/customers/cus_1': {
        id: 'cus_1',
        object: 'customer',
        invoice_settings: {
          custom_fields: null,
          default_payment_method: 'pm_2',
          footer: null,
          rendering_options: null,
        },
      },
      'GET /v1/customers/cus_1/payment_methods': {
        object: 'list',
        url: '/v1/customers/cus_1/payment_methods',
        has_more: false,
        data: [VISA, MASTERCARD],
      },
    });
    expect(await provider.listPaymentMethods('cus_1')).toEqual([
      { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, isDefault: false },
      { id: 'pm_2', brand: 'mastercard', last4: '4444', expMonth: 1, expYear: 2035, isDefault: true },
    ]);
    expect(requests.map((r) => `${r.method} ${r.path}${r.query}`)).toEqual([
      'GET /v1/customers/cus_1',
      'GET /v1/customers/cus_1/payment_methods?type=card&limit=100',
    ]);
  });

  it('a deleted customer has no cards', async () => {
    const { provider } = stripeRecorded({
      'GET /v1/customers/cus_1': { id: 'cus_1', object: 'customer', deleted: true },
    });
    expect(await provider.listPaymentMethods('cus_1')).toEqual([]);
  });

  it('makes a card the default of the customer and of the subscriptions that carry another card', async () => {
    const { provider, requests } = stripeRecorded({
      'GET /v1/payment_methods/pm_2': MASTERCARD,
      'POST /v1/customers/cus_1': { id: 'cus_1', object: 'customer' },
      'GET /v1/subscriptions': {
        object: 'list',
        url: '/v1/subscriptions',
        has_more: false,
        data: [
          { id: 'sub_1', object: 'subscription', status: 'past_due', default_payment_method: 'pm_1' },
          { id: 'sub_2', object: 'subscription', status: 'active', default_payment_method: null },
          { id: 'sub_3', object: 'subscription', status: 'active', default_payment_method: 'pm_2' },
        ],
      },
      'POST /v1/subscriptions/sub_1': { id: 'sub_1', object: 'subscription', default_payment_method: 'pm_2' },
    });
    await provider.setDefaultPaymentMethod('cus_1', 'pm_2');
    expect(requests.map((r) => `${r.method} ${r.path}${r.query}`)).toEqual([
      'GET /v1/payment_methods/pm_2',
      'POST /v1/customers/cus_1',
      'GET /v1/subscriptions?customer=cus_1&limit=100',
      'POST /v1/subscriptions/sub_1',
    ]);
    expect(requests[1]?.body).toBe('invoice_settings[default_payment_method]=pm_2');
    expect(requests[3]?.body).toBe('default_payment_method=pm_2');
  });

  it('detaches a card of the customer', async () => {
    const { provider, requests } = stripeRecorded({
      'GET /v1/payment_methods/pm_1': VISA,
      'POST /v1/payment_methods/pm_1/detach': { ...VISA, customer: null },
    });
    await provider.detachPaymentMethod('cus_1', 'pm_1');
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/payment_methods/pm_1',
      'POST /v1/payment_methods/pm_1/detach',
    ]);
  });

  it('touches neither another customer’s card nor one Stripe does not know', async () => {
    const foreign = cardMethod('pm_9', 'cus_other', { brand: 'visa', last4: '4242', month: 1, year: 2030 });
    const { provider, requests } = stripeRecorded({
      'GET /v1/payment_methods/pm_9': foreign,
      'GET /v1/payment_methods/pm_gone': NO_SUCH_METHOD,
    });
    await expect(provider.detachPaymentMethod('cus_1', 'pm_9')).rejects.toBeInstanceOf(UnknownPaymentMethodError);
    await expect(provider.setDefaultPaymentMethod('cus_1', 'pm_9')).rejects.toBeInstanceOf(UnknownPaymentMethodError);
    await expect(provider.detachPaymentMethod('cus_1', 'pm_gone')).rejects.toBeInstanceOf(UnknownPaymentMethodError);
    expect(requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it('passes any other Stripe failure on, so the caller answers 502', async () => {
    const { provider } = stripeRecorded({
      'GET /v1/payment_methods/pm_1': new StripeFailure(500, {
        error: { type: 'api_error', message: 'Something went wrong on our end.' },
      }),
    });
    await expect(provider.detachPaymentMethod('cus_1', 'pm_1')).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
  });
});
