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
  amount: number;
  currency: 'EUR' | 'USD' | 'GBP';
  interval: 'YEARLY' | 'MONTHLY' | 'WEEKLY' | null;
  customerId: string;
  userId: string;
  email: string | null;
  successUrl: string;
  cancelUrl: string;
}

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
    | 'ignored';
  /** The provider's original event type, for the log. */
  providerType: string;
  objectId: string;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** The provider's id of a new or changed price (prices are immutable: a new amount means a new price). */
  createPrice(price: ProviderPrice): Promise<{ priceId: string; providerProductId: string | null }>;
  archivePrice(priceId: string): Promise<void>;
  createCustomer(user: { userId: string; email: string | null }): Promise<string>;
  createCheckout(input: CreateCheckoutInput): Promise<{ providerSessionId: string; url: string }>;
  fetchCheckout(providerSessionId: string): Promise<CheckoutSnapshot>;
  fetchSubscription(providerSubscriptionId: string): Promise<SubscriptionSnapshot>;
  fetchInvoice(providerInvoiceId: string): Promise<InvoiceSnapshot>;
  /** Cancel at period end (true) or undo that (false). */
  setCancelAtPeriodEnd(providerSubscriptionId: string, cancel: boolean): Promise<SubscriptionSnapshot>;
  /** End now. */
  cancelNow(providerSubscriptionId: string): Promise<SubscriptionSnapshot>;
  createCustomerSession(customerId: string): Promise<{ clientSecret: string; expiresAt: Date }>;
  /**
   * Providers that bill on their own schedule (Stripe) leave this out and send invoice events. The sandbox has no
   * clock of its own: asked about a subscription whose period has ended, it renews it and answers the event.
   */
  renewIfDue?(providerSubscriptionId: string, now: Date): Promise<ProviderEvent | undefined>;
  /** Verifies the signature over the raw body and reduces the event; throws WebhookSignatureError. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
}

export class WebhookSignatureError extends Error {}
