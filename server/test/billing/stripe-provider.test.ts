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
