import Stripe from 'stripe';
import type {
  CheckoutSnapshot,
  CreateCheckoutInput,
  InvoiceSnapshot,
  PaymentProvider,
  ProviderEvent,
  ProviderPaymentMethod,
  ProviderSubscriptionStatus,
  SubscriptionSnapshot,
} from './provider.ts';
import { UnknownPaymentMethodError, WebhookSignatureError } from './provider.ts';

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
  'charge.refunded': 'charge.refunded',
  'charge.dispute.created': 'dispute.created',
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

function refundStatus(status: string | null): 'succeeded' | 'pending' | 'failed' | 'canceled' {
  return status === 'succeeded' || status === 'failed' || status === 'canceled' ? status : 'pending';
}

/**
 * Our price when it is what is charged; otherwise (tax added on top by our rates) the same product at the amount
 * with tax, since Stripe prices are immutable.
 */
function lineItem(input: CreateCheckoutInput): Stripe.Checkout.SessionCreateParams.LineItem {
  if (input.amount === input.priceAmount || input.automaticTax || !input.providerProductId) {
    return { price: input.priceId, quantity: 1 };
  }
  return {
    quantity: 1,
    price_data: {
      currency: input.currency.toLowerCase(),
      product: input.providerProductId,
      unit_amount: input.amount,
      ...(input.interval && { recurring: { interval: INTERVALS[input.interval] } }),
    },
  };
}

export function createStripeClient(secretKey: string): Stripe {
  return new Stripe(secretKey, { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: 'gnss-portal' } });
}

/**
 * Stripe through its official SDK: embedded Checkout Sessions, customers, SetupIntents and saved cards, and webhooks verified on
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

  /** Payments are stored under the invoice when Stripe made one (subscriptions, token packs), else the intent. */
  async function paymentIntentOf(providerPaymentId: string): Promise<string> {
    if (!providerPaymentId.startsWith('in_')) return providerPaymentId;
    const payments = await stripe.invoicePayments.list({ invoice: providerPaymentId, limit: 1 });
    const intent = idOf(payments.data[0]?.payment.payment_intent);
    if (!intent) throw new Error(`Stripe invoice ${providerPaymentId} has no payment intent`);
    return intent;
  }

  async function storedIdsOf(paymentIntent: string | null): Promise<string[]> {
    if (!paymentIntent) return [];
    const payments = await stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: paymentIntent },
      limit: 1,
    });
    const invoice = idOf(payments.data[0]?.invoice);
    return invoice ? [paymentIntent, invoice] : [paymentIntent];
  }

  /** Another customer's card, or none at all, is the same answer: not yours. */
  async function ownCard(customerId: string, paymentMethodId: string): Promise<Stripe.PaymentMethod> {
    try {
      const method = await stripe.paymentMethods.retrieve(paymentMethodId);
      if (idOf(method.customer) !== customerId) throw new UnknownPaymentMethodError(paymentMethodId);
      return method;
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing') {
        throw new UnknownPaymentMethodError(paymentMethodId);
      }
      throw err;
    }
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
          // Mounted in the portal's page by @stripe/stripe-js (docs/adr/0031); `embedded_page` is the API's name
          // for it since 2026-03-25 (it was `embedded`). Completion is reported to the page, which then polls
          // our session; Stripe only leaves the page for payment methods that redirect, and returns to ours.
          ui_mode: 'embedded_page',
          redirect_on_completion: 'if_required',
          return_url: input.successUrl,
          mode: input.kind === 'subscription' ? 'subscription' : 'payment',
          customer: input.customerId,
          client_reference_id: input.checkoutSessionId,
          line_items: [lineItem(input)],
          ...(input.automaticTax && {
            automatic_tax: { enabled: true },
            customer_update: { address: 'auto' as const, name: 'auto' as const },
            tax_id_collection: { enabled: true },
          }),
          metadata,
          ...(input.kind === 'subscription'
            ? { subscription_data: { metadata } }
            : { invoice_creation: { enabled: true }, payment_intent_data: { metadata } }),
        },
        { idempotencyKey: `checkout-${input.checkoutSessionId}` },
      );
      // The portal's page cannot pay a session without one; better to fail the buy button now.
      if (!session.client_secret)
        throw new Error('Stripe answered an embedded checkout session without a client secret');
      return { providerSessionId: session.id, url: session.url ?? null };
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
        amountTax: s.automatic_tax?.enabled ? (s.total_details?.amount_tax ?? null) : null,
        clientSecret: s.client_secret ?? null,
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

    async createSetupIntent(customerId) {
      // Cards only: the card section lists cards, and renewals charge them off-session.
      const intent = await stripe.setupIntents.create({
        customer: customerId,
        usage: 'off_session',
        allowed_payment_method_types: ['card'],
      });
      if (!intent.client_secret) throw new Error('Stripe answered a SetupIntent without a client secret');
      return { clientSecret: intent.client_secret };
    },

    async listPaymentMethods(customerId) {
      const customer = await stripe.customers.retrieve(customerId);
      if (customer.deleted) return [];
      const defaultId = idOf(customer.invoice_settings.default_payment_method);
      const methods = await stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 });
      return methods.data.flatMap((m): ProviderPaymentMethod[] =>
        m.card
          ? [
              {
                id: m.id,
                brand: m.card.brand,
                last4: m.card.last4,
                expMonth: m.card.exp_month,
                expYear: m.card.exp_year,
                isDefault: m.id === defaultId,
              },
            ]
          : [],
      );
    },

    async setDefaultPaymentMethod(customerId, paymentMethodId) {
      await ownCard(customerId, paymentMethodId);
      await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethodId } });
      // Checkout gives each subscription the card it was bought with, which wins over the customer's default:
      // those move to the new card too, or a failed renewal would be retried on the card that failed.
      const subscriptions = await stripe.subscriptions.list({ customer: customerId, limit: 100 });
      for (const sub of subscriptions.data) {
        const own = idOf(sub.default_payment_method);
        if (own && own !== paymentMethodId) {
          await stripe.subscriptions.update(sub.id, { default_payment_method: paymentMethodId });
        }
      }
    },

    async detachPaymentMethod(customerId, paymentMethodId) {
      await ownCard(customerId, paymentMethodId);
      await stripe.paymentMethods.detach(paymentMethodId);
    },

    async updateCustomer(customerId, details) {
      await stripe.customers.update(customerId, {
        name: details.name ?? '',
        ...(details.email && { email: details.email }),
        address: {
          line1: details.address.line1,
          line2: details.address.line2 ?? '',
          postal_code: details.address.postalCode,
          city: details.address.city,
          country: details.address.country,
        },
      });
      if (details.vatNumber) {
        const known = await stripe.customers.listTaxIds(customerId, { limit: 20 });
        if (!known.data.some((t) => t.value === details.vatNumber)) {
          await stripe.customers.createTaxId(customerId, { type: 'eu_vat', value: details.vatNumber });
        }
      }
    },

    async refund(input) {
      const paymentIntent = await paymentIntentOf(input.providerPaymentId);
      const refund = await stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          amount: input.amount,
          ...(input.reason && { metadata: { reason: input.reason.slice(0, 500) } }),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: refund.id, amount: refund.amount, status: refundStatus(refund.status) };
    },

    async fetchChargeRefunds(chargeId) {
      const charge = await stripe.charges.retrieve(chargeId, { expand: ['refunds'] });
      const refunds = charge.refunds?.data ?? [];
      return {
        providerPaymentIds: await storedIdsOf(idOf(charge.payment_intent)),
        refunds: refunds.map((r) => ({ id: r.id, amount: r.amount, status: refundStatus(r.status) })),
      };
    },

    async fetchDispute(disputeId) {
      const dispute = await stripe.disputes.retrieve(disputeId);
      return {
        id: dispute.id,
        amount: dispute.amount,
        providerPaymentIds: await storedIdsOf(idOf(dispute.payment_intent)),
      };
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
