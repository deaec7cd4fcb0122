import Stripe from 'stripe';
import type {
  CheckoutSnapshot,
  InvoiceSnapshot,
  PaymentProvider,
  ProviderEvent,
  ProviderSubscriptionStatus,
  SubscriptionSnapshot,
} from './provider.ts';
import { WebhookSignatureError } from './provider.ts';

const INTERVALS = { YEARLY: 'year', MONTHLY: 'month', WEEKLY: 'week' } as const;

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

const EVENT_TYPES: Record<string, ProviderEvent['type']> = {
  'checkout.session.completed': 'checkout.completed',
  'checkout.session.async_payment_succeeded': 'checkout.completed',
  'checkout.session.expired': 'checkout.expired',
  'invoice.paid': 'invoice.paid',
  'invoice.payment_succeeded': 'invoice.paid',
  'invoice.payment_failed': 'invoice.payment_failed',
  'customer.subscription.created': 'subscription.updated',
  'customer.subscription.updated': 'subscription.updated',
  'customer.subscription.deleted': 'subscription.deleted',
};

/** Reduces a Stripe event to what billing acts on; the object itself is fetched again before anything changes. */
export function reduceStripeEvent(event: Stripe.Event): ProviderEvent {
  const object = event.data.object as { id?: string };
  return {
    id: event.id,
    type: EVENT_TYPES[event.type] ?? 'ignored',
    providerType: event.type,
    objectId: object.id ?? '',
  };
}

export function createStripeClient(secretKey: string): Stripe {
  return new Stripe(secretKey, { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: 'gnss-portal' } });
}

/**
 * Stripe through its official SDK: Checkout Sessions, customers, customer sessions, and webhooks verified on
 * the raw body with STRIPE_WEBHOOK_SECRET. `stripe` is injected so tests can replace the calls that go out.
 */
export function createStripeProvider(deps: { stripe: Stripe; webhookSecret: string | undefined }): PaymentProvider {
  const { stripe } = deps;

  function subscriptionSnapshot(s: Stripe.Subscription): SubscriptionSnapshot {
    const item = s.items.data[0];
    const start = item?.current_period_start ?? s.start_date;
    const end = item?.current_period_end ?? s.start_date;
    return {
      providerSubscriptionId: s.id,
      status: s.status as ProviderSubscriptionStatus,
      cancelAtPeriodEnd: s.cancel_at_period_end,
      currentPeriodStart: new Date(start * 1000),
      currentPeriodEnd: new Date(end * 1000),
      priceId: item?.price.id ?? null,
      checkoutSessionId: s.metadata?.checkoutSessionId ?? null,
    };
  }

  return {
    name: 'stripe',

    async createPrice(price) {
      const product = await stripe.products.create({
        name: price.name,
        ...(price.description && { description: price.description }),
        metadata: { productId: price.productId },
      });
      const created = await stripe.prices.create({
        product: product.id,
        unit_amount: price.amount,
        currency: price.currency.toLowerCase(),
        ...(price.interval && { recurring: { interval: INTERVALS[price.interval] } }),
        metadata: { productId: price.productId },
      });
      return { priceId: created.id, providerProductId: product.id };
    },

    async archivePrice(priceId) {
      await stripe.prices.update(priceId, { active: false });
    },

    async createCustomer(user) {
      const customer = await stripe.customers.create({
        ...(user.email && { email: user.email }),
        metadata: { userId: user.userId },
      });
      return customer.id;
    },

    async createCheckout(input) {
      const metadata = { checkoutSessionId: input.checkoutSessionId, userId: input.userId };
      const session = await stripe.checkout.sessions.create(
        {
          mode: input.kind === 'subscription' ? 'subscription' : 'payment',
          customer: input.customerId,
          client_reference_id: input.checkoutSessionId,
          line_items: [{ price: input.priceId, quantity: 1 }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata,
          ...(input.kind === 'subscription'
            ? { subscription_data: { metadata } }
            : { invoice_creation: { enabled: true }, payment_intent_data: { metadata } }),
        },
        { idempotencyKey: `checkout-${input.checkoutSessionId}` },
      );
      if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
      return { providerSessionId: session.id, url: session.url };
    },

    async fetchCheckout(id) {
      const s = await stripe.checkout.sessions.retrieve(id, { expand: ['invoice'] });
      const invoice = s.invoice && typeof s.invoice !== 'string' ? s.invoice : null;
      const snapshot: CheckoutSnapshot = {
        providerSessionId: s.id,
        checkoutSessionId: s.client_reference_id ?? s.metadata?.checkoutSessionId ?? null,
        status: (s.status ?? 'open') as CheckoutSnapshot['status'],
        paid: s.payment_status === 'paid' || s.payment_status === 'no_payment_required',
        amountTotal: s.amount_total ?? 0,
        currency: (s.currency ?? '').toUpperCase(),
        providerSubscriptionId: idOf(s.subscription),
        providerPaymentId: idOf(s.invoice) ?? idOf(s.payment_intent),
        invoiceUrl: invoice?.hosted_invoice_url ?? null,
        invoiceNumber: invoice?.number ?? null,
      };
      return snapshot;
    },

    async fetchSubscription(id) {
      return subscriptionSnapshot(await stripe.subscriptions.retrieve(id));
    },

    async fetchInvoice(id) {
      const inv = await stripe.invoices.retrieve(id);
      const snapshot: InvoiceSnapshot = {
        providerInvoiceId: inv.id ?? id,
        providerSubscriptionId: idOf(inv.parent?.subscription_details?.subscription),
        status: (inv.status ?? 'draft') as InvoiceSnapshot['status'],
        amountPaid: inv.amount_paid,
        amountDue: inv.amount_due,
        currency: inv.currency.toUpperCase(),
        number: inv.number,
        hostedInvoiceUrl: inv.hosted_invoice_url ?? null,
      };
      return snapshot;
    },

    async setCancelAtPeriodEnd(id, cancel) {
      return subscriptionSnapshot(await stripe.subscriptions.update(id, { cancel_at_period_end: cancel }));
    },

    async cancelNow(id) {
      return subscriptionSnapshot(await stripe.subscriptions.cancel(id));
    },

    async createCustomerSession(customerId) {
      const session = await stripe.customerSessions.create({
        customer: customerId,
        components: { pricing_table: { enabled: true } },
      });
      return { clientSecret: session.client_secret, expiresAt: new Date(session.expires_at * 1000) };
    },

    parseWebhook(rawBody, signature) {
      if (!deps.webhookSecret) throw new WebhookSignatureError('STRIPE_WEBHOOK_SECRET is not set');
      if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
      try {
        return reduceStripeEvent(stripe.webhooks.constructEvent(rawBody, signature, deps.webhookSecret));
      } catch (err) {
        throw new WebhookSignatureError(err instanceof Error ? err.message : 'Invalid signature');
      }
    },
  };
}
