import type { CustomerDetails } from '../../invoicing/index.ts';

/**
 * Port to a card-payment provider. The billing service only speaks these normalised shapes; the sandbox and
 * Stripe adapters translate. A webhook is a trigger, never the truth: the service takes an event's object id and
 * asks the provider for the object (`fetch…`) before changing anything.
 */

export type ProviderName = 'sandbox' | 'stripe';

export interface ProviderPrice {
  /** Our product id, so a provider can tag its objects with it. */
  productId: string;
  name: string;
  description: string;
  amount: number;
  currency: 'EUR' | 'USD' | 'GBP';
  interval: 'YEARLY' | 'MONTHLY' | 'WEEKLY' | null;
}

export interface CreateCheckoutInput {
  /** Our checkout_sessions id; providers carry it back (client_reference_id / metadata). */
  checkoutSessionId: string;
  kind: 'subscription' | 'token';
  priceId: string;
  productName: string;
  /** What to charge, tax included (docs/adr/0029); differs from `priceAmount` when tax is added on top. */
  amount: number;
  /** The product's price at the provider. */
  priceAmount: number;
  providerProductId: string | null;
  /** Stripe Tax computes the tax instead of our rates (admin setting). */
  automaticTax: boolean;
  currency: 'EUR' | 'USD' | 'GBP';
  interval: 'YEARLY' | 'MONTHLY' | 'WEEKLY' | null;
  customerId: string;
  userId: string;
  email: string | null;
  /** Where the provider sends the customer after paying (its own page, or a redirect-based payment method). */
  successUrl: string;
  cancelUrl: string;
}

/** A saved card of a provider customer. */
export interface ProviderPaymentMethod {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  isDefault: boolean;
}

/** The payment method is not the customer's (or does not exist): the caller answers 404. */
export class UnknownPaymentMethodError extends Error {}

export interface CheckoutSnapshot {
  providerSessionId: string;
  checkoutSessionId: string | null;
  status: 'open' | 'complete' | 'expired';
  paid: boolean;
  amountTotal: number;
  currency: string;
  providerSubscriptionId: string | null;
  /** The payment (Stripe payment intent or invoice; sandbox payment) to record in payment history. */
  providerPaymentId: string | null;
  invoiceUrl: string | null;
  invoiceNumber: string | null;
  /** Tax the provider computed (Stripe Tax); null when it computed none and our quote stands. */
  amountTax?: number | null;
  /** What the portal's checkout page pays the session with (docs/adr/0031); the buyer's alone. */
  clientSecret?: string | null;
}

export type ProviderSubscriptionStatus =
  | 'active'
  | 'trialing'
  | 'past_due'
  | 'unpaid'
  | 'canceled'
  | 'incomplete'
  | 'incomplete_expired'
  | 'paused';

export interface SubscriptionSnapshot {
  providerSubscriptionId: string;
  status: ProviderSubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  priceId: string | null;
  /** Our checkout session id if the provider carries it in metadata. */
  checkoutSessionId: string | null;
}

export interface InvoiceSnapshot {
  providerInvoiceId: string;
  providerSubscriptionId: string | null;
  status: 'paid' | 'open' | 'void' | 'uncollectible' | 'draft';
  amountPaid: number;
  amountDue: number;
  currency: string;
  number: string | null;
  hostedInvoiceUrl: string | null;
}

/** A verified provider event, reduced to what the service acts on. */
export interface ProviderEvent {
  id: string;
  type:
    | 'checkout.completed'
    | 'checkout.expired'
    | 'invoice.paid'
    | 'invoice.payment_failed'
    | 'subscription.updated'
    | 'subscription.deleted'
    | 'charge.refunded'
    | 'dispute.created'
    | 'ignored';
  /** The provider's original event type, for the log. */
  providerType: string;
  objectId: string;
}

/** A refund or dispute as the provider reports it, with every id our payment may be stored under. */
export interface ProviderRefund {
  id: string;
  amount: number;
  status: 'succeeded' | 'pending' | 'failed' | 'canceled';
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** The provider's id of a new or changed price (prices are immutable: a new amount means a new price). */
  createPrice(price: ProviderPrice): Promise<{ priceId: string; providerProductId: string | null }>;
  archivePrice(priceId: string): Promise<void>;
  createCustomer(user: { userId: string; email: string | null }): Promise<string>;
  /**
   * A session the portal's own page pays with the client secret its snapshot carries (Stripe: an embedded Checkout
   * Session); `url` is the provider's own page for it, where there is one.
   */
  createCheckout(input: CreateCheckoutInput): Promise<{ providerSessionId: string; url: string | null }>;
  fetchCheckout(providerSessionId: string): Promise<CheckoutSnapshot>;
  fetchSubscription(providerSubscriptionId: string): Promise<SubscriptionSnapshot>;
  fetchInvoice(providerInvoiceId: string): Promise<InvoiceSnapshot>;
  /** Cancel at period end (true) or undo that (false). */
  setCancelAtPeriodEnd(providerSubscriptionId: string, cancel: boolean): Promise<SubscriptionSnapshot>;
  /** End now. */
  cancelNow(providerSubscriptionId: string): Promise<SubscriptionSnapshot>;
  /** A SetupIntent for the customer: its client secret lets the portal's page save a card for later payments. */
  createSetupIntent(customerId: string): Promise<{ clientSecret: string }>;
  /** The customer's saved cards, the one later payments use marked default. */
  listPaymentMethods(customerId: string): Promise<ProviderPaymentMethod[]>;
  /** Makes the card the one renewals charge; throws UnknownPaymentMethodError when it is not the customer's. */
  setDefaultPaymentMethod(customerId: string, paymentMethodId: string): Promise<void>;
  /** Removes a saved card; throws UnknownPaymentMethodError when it is not the customer's. */
  detachPaymentMethod(customerId: string, paymentMethodId: string): Promise<void>;
  updateCustomer(customerId: string, details: CustomerDetails): Promise<void>;
  /** Refunds (part of) a payment; the idempotency key makes a retried request refund once. */
  refund(input: {
    providerPaymentId: string;
    amount: number;
    idempotencyKey: string;
    reason: string | null;
  }): Promise<ProviderRefund>;
  /** The refunds of a charge and the ids its payment may be stored under here (payment intent, invoice). */
  fetchChargeRefunds(chargeId: string): Promise<{ providerPaymentIds: string[]; refunds: ProviderRefund[] }>;
  fetchDispute(disputeId: string): Promise<{ id: string; amount: number; providerPaymentIds: string[] }>;
  /**
   * Providers that bill on their own schedule (Stripe) leave this out and send invoice events. The sandbox has no
   * clock of its own: asked about a subscription whose period has ended, it renews it and answers the event.
   */
  renewIfDue?(providerSubscriptionId: string, now: Date): Promise<ProviderEvent | undefined>;
  /** Verifies the signature over the raw body and reduces the event; throws WebhookSignatureError. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
}

export class WebhookSignatureError extends Error {}
