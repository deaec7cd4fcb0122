import type {
  AdminSubscription,
  CheckoutCreated,
  CheckoutSession,
  CustomerSecret,
  OrganizationRole,
  Payment,
  PaymentMethods,
  PricingTable,
  Refund,
  RefundInput,
  Subscription,
  TaxSetup,
  TokenHistory,
} from '@portal/contract';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError, forbidden, notFound } from '../../shared/errors.ts';
import type { ContentLanguage } from '../../shared/language.ts';
import { type AuditWho, recordAudit } from '../audit/index.ts';
import type { Invoicing } from '../invoicing/index.ts';
import type { BillingNotices } from '../mail/index.ts';
import type { GrantsWriter } from './billing.grants.ts';
import type { TokenLedger } from './billing.ledger.ts';
import {
  canBuyForOrganization,
  canCancel,
  canEndNow,
  canListOrganizationSubscriptions,
  canManageSubscription,
  canReadCheckout,
  canReadOrganizationCheckout,
  canResume,
  isFinal,
} from './billing.policy.ts';
import { toCheckoutSession, toLedgerEntry, toPayment, toPricingTables, toSubscription } from './billing.presenters.ts';
import { createProductAdmin, productNotFound } from './billing.products.ts';
import { type BillingLog, createProviderSync } from './billing.provider-sync.ts';
import type { BillingRepo, CheckoutView, ProductRow, SubscriptionOwner, SubscriptionView } from './billing.repo.ts';
import type { PaymentProvider, SubscriptionSnapshot } from './providers/provider.ts';
import { UnknownPaymentMethodError } from './providers/provider.ts';

/** The organisations module's answer to "what is this user in that organisation" (undefined: not a member). */
export interface OrganizationRoles {
  roleOf(orgId: string, userId: string): Promise<OrganizationRole | undefined>;
}

export interface BillingServiceDeps {
  repo: BillingRepo;
  organizations: OrganizationRoles;
  ledger: TokenLedger;
  grants: GrantsWriter;
  provider: PaymentProvider;
  invoicing: Invoicing;
  /** Where the SPA lives, for checkout return links. */
  publicUrl: string;
  clock?: () => Date;
  log?: BillingLog;
  /** Receipts and failed-renewal mails, queued in the transaction that records the payment (mail module). */
  notices?: BillingNotices;
  /** Production: no checkout opens before the seller's details and tax rates are set (docs/adr/0061). */
  requireTaxSetup?: boolean;
}

export type BillingService = ReturnType<typeof createBillingService>;

const subscriptionNotFound = () => notFound('Subscription');
const organizationNotFound = () => notFound('Organisation');
const paymentMethodNotFound = () => notFound('Payment method');
const invalidTransition = (status: string, action: string) =>
  new AppError(409, 'invalid_transition', `A subscription that is ${status.replace('_', ' ')} cannot be ${action}.`);

/** The provider's answer decides the state, so without one nothing here changes and the caller may retry. */
/** The message an operator (and a customer who tried to buy) reads while payments are closed. */
export function paymentsNotConfigured(setup: TaxSetup): AppError {
  const missing = [
    ...(setup.sellerFieldsMissing.length ? [`seller ${setup.sellerFieldsMissing.join(', ')}`] : []),
    ...(setup.ratesMissing.length ? [`VAT rates for ${setup.ratesMissing.join(', ')}`] : []),
  ];
  return new AppError(
    409,
    'payments_not_configured',
    `Payments are not open yet: the seller's legal details and the VAT rates of the countries sold to must be set under Admin → Settings → Tax management first (missing: ${missing.join('; ')}).`,
  );
}

export const providerUnavailable = (
  message = 'The payment provider could not be reached. Nothing was changed; please try again later.',
) => new AppError(502, 'payment_provider_unavailable', message);

/**
 * The use cases customers and the back office call. Provider-event sync and product admin live beside it and are
 * composed in, so the routes (and the sandbox, the webhook, the app) keep one service to call.
 */
export function createBillingService(deps: BillingServiceDeps) {
  const { repo, ledger, grants, provider, organizations, invoicing } = deps;
  const clock = deps.clock ?? (() => new Date());
  const log = deps.log ?? { warn: () => {}, info: () => {} };
  const { handleEvent, syncCheckout, sweep, applySubscription, syncGrants } = createProviderSync({
    repo,
    ledger,
    grants,
    provider,
    invoicing,
    clock,
    log,
    notices: deps.notices,
  });
  const products = createProductAdmin({ repo, provider, clock });

  /**
   * The checkout page can arrive before the webhook: an open session is asked of the provider (the truth). While it
   * stays open, its buyer (`payer`) also gets what the page pays it with; nobody else ever does (docs/adr/0031).
   */
  async function refreshCheckout(
    row: CheckoutView,
    payer: boolean,
    language?: ContentLanguage,
  ): Promise<CheckoutSession> {
    if (row.status === 'open' && row.provider_session_id && row.provider === provider.name) {
      try {
        const snap = await syncCheckout(row.provider_session_id);
        const now = (await repo.findCheckout(row.id)) ?? row;
        const session = toCheckoutSession(now, language);
        return payer && now.status === 'open' && snap.clientSecret
          ? { ...session, provider: provider.name, clientSecret: snap.clientSecret }
          : session;
      } catch (err) {
        log.warn({ err, checkoutSessionId: row.id }, 'checkout sync failed');
      }
    }
    return toCheckoutSession(row, language);
  }

  async function ownSubscription(actor: Actor, subscriptionId: string): Promise<SubscriptionView> {
    const sub = await repo.findSubscriptionView(subscriptionId);
    const role =
      sub?.organization_id && !actor.isAdmin
        ? await organizations.roleOf(sub.organization_id, actor.userId)
        : undefined;
    // Another user's subscription answers like a missing one: ids are not confirmed to strangers.
    if (!sub || !canManageSubscription(actor, sub, role)) throw subscriptionNotFound();
    return sub;
  }

  /** The caller's role in the organisation; outsiders learn nothing, not even that it exists. */
  async function memberRole(actor: Actor, orgId: string): Promise<OrganizationRole> {
    const role = await organizations.roleOf(orgId, actor.userId);
    if (!role) throw organizationNotFound();
    return role;
  }

  async function present(subscriptionId: string): Promise<Subscription> {
    const view = await repo.findSubscriptionView(subscriptionId);
    if (!view) throw subscriptionNotFound();
    return toSubscription(view, clock());
  }

  /** Local state change for manual subscriptions, provider round trip for billable ones; grants follow. */
  async function transition(sub: SubscriptionView, change: 'cancel' | 'resume' | 'end'): Promise<Subscription> {
    const now = clock();
    if (sub.provider === 'manual' || !sub.provider_subscription_id) {
      await repo.transaction(async (trx) => {
        const locked = await repo.lockSubscription(sub.id, trx);
        if (!locked) throw subscriptionNotFound();
        const values =
          change === 'cancel'
            ? { status: 'cancelling' as const, cancel_at_period_end: true }
            : change === 'resume'
              ? { status: 'active' as const, cancel_at_period_end: false }
              : { status: 'cancelled' as const, cancel_at_period_end: false, ended_at: now };
        const row = await repo.updateSubscription(sub.id, values, trx);
        await syncGrants(trx, row, now);
      });
      return present(sub.id);
    }
    const pid = sub.provider_subscription_id;
    let snap: SubscriptionSnapshot;
    try {
      snap =
        change === 'end'
          ? await provider.cancelNow(pid)
          : await provider.setCancelAtPeriodEnd(pid, change === 'cancel');
    } catch (err) {
      log.warn({ err, subscriptionId: sub.id, change }, 'payment provider refused a subscription change');
      throw providerUnavailable();
    }
    await repo.transaction((trx) => applySubscription(trx, snap));
    return present(sub.id);
  }

  async function ensureCustomer(actor: Actor): Promise<string> {
    const known = await repo.findCustomerId(actor.userId, provider.name);
    if (known) return known;
    const created = await provider.createCustomer({ userId: actor.userId, email: actor.email });
    const details = await invoicing.customerDetailsOf(actor.userId, actor.email);
    if (details) {
      // The invoice is ours and carries the details anyway; a provider copy is a convenience, not a condition.
      await provider.updateCustomer(created, details).catch((err) => {
        log.warn({ err, userId: actor.userId }, 'billing details not sent to the new provider customer');
      });
    }
    return repo.saveCustomerId(actor.userId, provider.name, created);
  }

  /** A card that is not the caller's is 404 like a missing one; any other provider failure is 502. */
  async function askProvider<T>(context: object, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof UnknownPaymentMethodError) throw paymentMethodNotFound();
      log.warn({ err, ...context }, 'payment provider refused a payment method call');
      throw providerUnavailable();
    }
  }

  /** The caller's saved cards; someone who never bought has no provider customer and no cards. */
  async function paymentMethods(actor: Actor): Promise<PaymentMethods> {
    const customerId = await repo.findCustomerId(actor.userId, provider.name);
    if (!customerId) return { paymentMethods: [] };
    const methods = await askProvider({ userId: actor.userId }, () => provider.listPaymentMethods(customerId));
    return { paymentMethods: methods };
  }

  function forSale(product: ProductRow | undefined, actor: Actor | null): product is ProductRow {
    return (
      product !== undefined &&
      product.archived_at === null &&
      product.billable &&
      product.provider === provider.name &&
      (!product.preview_mode || actor?.isAdmin === true)
    );
  }

  return {
    provider,
    ledger,

    async pricingTables(actor: Actor | null, language?: ContentLanguage): Promise<PricingTable[]> {
      const rows = await repo.listProducts({ kind: 'subscription', billable: true });
      return toPricingTables(
        rows.filter((p) => forSale(p, actor)),
        language,
      );
    },

    async tokenTables(actor: Actor | null, language?: ContentLanguage): Promise<PricingTable[]> {
      const rows = await repo.listProducts({ kind: 'token' });
      return toPricingTables(
        rows.filter((p) => forSale(p, actor)),
        language,
      );
    },

    /**
     * `orgId` buys a subscription for that organisation: the caller pays (and is the provider customer), the
     * organisation owns what is bought. Token packs are always personal (the ledger is per user).
     */
    async createCheckout(
      actor: Actor,
      kind: 'subscription' | 'token',
      priceId: string,
      orgId?: string,
    ): Promise<CheckoutCreated> {
      if (actor.termsAcceptedAt === null) {
        throw new AppError(403, 'terms_not_accepted', 'Accept the terms and conditions before buying.');
      }
      if (orgId !== undefined && !canBuyForOrganization(await memberRole(actor, orgId))) {
        throw forbidden('Only owners and admins of the organisation may buy for it.');
      }
      if (deps.requireTaxSetup) {
        const setup = await invoicing.taxSetup();
        if (!setup.ready) throw paymentsNotConfigured(setup);
      }
      const product = await repo.findProductByPriceId(priceId);
      if (!forSale(product, actor) || product.kind !== kind) throw productNotFound();
      const owner: SubscriptionOwner = orgId === undefined ? { userId: actor.userId } : { organizationId: orgId };
      if (kind === 'subscription' && (await repo.countActiveSubscriptions(owner, product.id)) > 0) {
        throw new AppError(
          409,
          'already_subscribed',
          orgId === undefined
            ? 'You already have this subscription.'
            : 'The organisation already has this subscription.',
        );
      }
      const customerId = await ensureCustomer(actor);
      const quote = await invoicing.quote(actor.userId, orgId ?? null, product.amount);
      const automaticTax = quote.automaticTax && provider.name === 'stripe';
      const row = await repo.insertCheckout({
        user_id: actor.userId,
        organization_id: orgId ?? null,
        product_id: product.id,
        kind,
        provider: provider.name,
        // With Stripe Tax, Stripe adds the tax; the invoice takes its figure from the completed session.
        amount: automaticTax ? product.amount : quote.gross,
        tax_amount: automaticTax ? 0 : quote.tax,
        tax_rate_bp: automaticTax ? 0 : quote.rateBp,
        tax_country: quote.country,
        reverse_charge: !automaticTax && quote.reverseCharge,
        currency: product.currency,
        credits_amount: product.credits_amount,
      });
      // An organisation's purchase carries the organisation, so the checkout page reads it through
      // `GET /org/{orgId}/checkout`, the call its members (not only the buyer) may make. The buy button opens this
      // page (spec §4: the answer is a URL to open), and the session is paid there (docs/adr/0031).
      const returnQuery = new URLSearchParams({ checkoutSessionId: row.id, ...(orgId !== undefined && { orgId }) });
      const returnUrl = `${deps.publicUrl}/checkout?${returnQuery}`;
      const created = await provider.createCheckout({
        checkoutSessionId: row.id,
        kind,
        priceId: product.price_id,
        productName: product.name,
        amount: row.amount,
        priceAmount: product.amount,
        providerProductId: product.provider_product_id,
        automaticTax,
        currency: product.currency,
        interval: product.interval,
        customerId,
        userId: actor.userId,
        email: actor.email,
        successUrl: returnUrl,
        cancelUrl: `${returnUrl}&cancelled=true`,
      });
      await repo.updateCheckout(row.id, { provider_session_id: created.providerSessionId, url: created.url });
      return { url: returnUrl, checkoutSessionId: row.id };
    },

    async getCheckout(actor: Actor, checkoutSessionId: string, language?: ContentLanguage): Promise<CheckoutSession> {
      const row = await repo.findCheckout(checkoutSessionId);
      if (!row || !canReadCheckout(actor, row)) throw notFound('Checkout session');
      return refreshCheckout(row, row.user_id === actor.userId, language);
    },

    /** `GET /org/{orgId}/checkout`: a session bought for this organisation, for any of its members. */
    async getOrganizationCheckout(
      actor: Actor,
      orgId: string,
      checkoutSessionId: string,
      language?: ContentLanguage,
    ): Promise<CheckoutSession> {
      const role = await memberRole(actor, orgId);
      const row = await repo.findCheckout(checkoutSessionId);
      if (!row || !canReadOrganizationCheckout(role, orgId, row)) throw notFound('Checkout session');
      return refreshCheckout(row, row.user_id === actor.userId && canBuyForOrganization(role), language);
    },

    handleEvent,

    /** One subscription as the admin list shows it, for the audit log's before; null when unknown. */
    async subscription(subscriptionId: string): Promise<Subscription | null> {
      return present(subscriptionId).catch(() => null);
    },

    /** The back office's view of an organisation's subscriptions, with who pays each. */
    async adminOrganizationSubscriptions(orgId: string): Promise<AdminSubscription[]> {
      await sweep({ organizationId: orgId });
      const now = clock();
      return (await repo.listOrganizationSubscriptions(orgId)).map((r) => ({
        ...toSubscription(r, now),
        userEmail: r.user_email,
      }));
    },

    async organizationSubscriptions(
      actor: Actor,
      orgId: string,
      language?: ContentLanguage,
    ): Promise<AdminSubscription[]> {
      const role = await organizations.roleOf(orgId, actor.userId);
      // Not a member: the same 404 as an unknown organisation.
      if (!canListOrganizationSubscriptions(role)) throw organizationNotFound();
      await sweep({ organizationId: orgId });
      const now = clock();
      return (await repo.listOrganizationSubscriptions(orgId)).map((r) => {
        const s = toSubscription(r, now, language);
        const manages = canManageSubscription(actor, r, role);
        return { ...s, canCancel: s.canCancel && manages, canResume: s.canResume && manages, userEmail: r.user_email };
      });
    },

    /**
     * `DELETE /org/{orgId}/subscriptions`: the organisation stops paying. An active subscription runs to its period
     * end (what was paid for is kept, and it can still be resumed); a past-due one ends now; one already stopping or
     * ended is answered unchanged, so a repeated DELETE is harmless.
     */
    async cancelForOrganization(actor: Actor, orgId: string, subscriptionId: string): Promise<Subscription> {
      const role = await memberRole(actor, orgId);
      const sub = await repo.findSubscriptionView(subscriptionId);
      // Another organisation's subscription answers like a missing one.
      if (sub?.organization_id !== orgId) throw subscriptionNotFound();
      if (!canManageSubscription(actor, sub, role)) {
        throw forbidden('Only owners and admins of the organisation may cancel its subscriptions.');
      }
      if (canCancel(sub.status)) return transition(sub, 'cancel');
      if (sub.status === 'past_due') return transition(sub, 'end');
      return toSubscription(sub, clock());
    },

    async userSubscriptions(
      actor: Actor,
      language?: ContentLanguage,
    ): Promise<{ subscriptions: Subscription[]; tokenAmount: number }> {
      await sweep({ userId: actor.userId });
      const now = clock();
      const [rows, tokenAmount] = await Promise.all([
        repo.listUserSubscriptions(actor.userId),
        repo.balanceOf(actor.userId),
      ]);
      return { subscriptions: rows.map((r) => toSubscription(r, now, language)), tokenAmount };
    },

    async allSubscriptions(): Promise<AdminSubscription[]> {
      await sweep();
      const now = clock();
      return (await repo.listAllSubscriptions()).map((r) => ({ ...toSubscription(r, now), userEmail: r.user_email }));
    },

    async cancel(actor: Actor, subscriptionId: string): Promise<Subscription> {
      const sub = await ownSubscription(actor, subscriptionId);
      if (!canCancel(sub.status)) throw invalidTransition(sub.status, 'cancelled');
      return transition(sub, 'cancel');
    },

    async resume(actor: Actor, subscriptionId: string): Promise<Subscription> {
      const sub = await ownSubscription(actor, subscriptionId);
      if (!canResume(sub.status, new Date(sub.current_period_end), clock())) {
        throw invalidTransition(sub.status, 'resumed');
      }
      return transition(sub, 'resume');
    },

    /** Admin: end a subscription now (DELETE /admin/subscriptions). */
    async endNow(actor: Actor, subscriptionId: string): Promise<Subscription> {
      const sub = await ownSubscription(actor, subscriptionId);
      if (isFinal(sub.status)) return toSubscription(sub, clock());
      if (!canEndNow(sub.status)) throw invalidTransition(sub.status, 'ended');
      return transition(sub, 'end');
    },

    /**
     * Account deletion: the payer is leaving, so nothing they pay for may go on charging them. Every subscription
     * still running in their name ends now, organisations' included (docs/adr/0010), each at the provider first and
     * then here the way the provider's 'deleted' event would apply it. The first provider failure stops with 502;
     * those already ended stay ended, as they are at the provider, so a retry picks up the rest.
     */
    async endSubscriptionsPaidBy(userId: string): Promise<void> {
      for (const sub of await repo.listLiveSubscriptionsPaidBy(userId)) {
        await transition(sub, 'end');
      }
    },

    /**
     * The organisation is being deleted (docs/adr/0026): each of its running subscriptions ends now, at the provider
     * first, as at the payer's account deletion. The first provider failure stops with 502 and nothing is deleted.
     */
    async endSubscriptionsOfOrganization(orgId: string): Promise<void> {
      for (const sub of await repo.listLiveSubscriptionsOfOrganization(orgId)) {
        await transition(sub, 'end');
      }
    },

    /** Admin: give a user a non-billable (manual) subscription for a number of days. */
    async assignManual(input: { userId: string; priceId: string; days: number }): Promise<Subscription> {
      const product = await repo.findProductByPriceId(input.priceId);
      if (product?.kind !== 'subscription' || product.billable || product.archived_at) {
        throw productNotFound();
      }
      if (!(await repo.userExists(input.userId))) throw notFound('User');
      const now = clock();
      const id = await repo.transaction(async (trx) => {
        const row = await repo.insertSubscription(
          {
            user_id: input.userId,
            product_id: product.id,
            provider: 'manual',
            status: 'active',
            current_period_start: now,
            current_period_end: new Date(now.getTime() + input.days * 86_400_000),
          },
          trx,
        );
        await syncGrants(trx, row, now);
        return row.id;
      });
      return present(id);
    },

    /** Admin grant or take-back: the ledger entry and its audit entry in one transaction; never below zero (409). */
    async grantTokens(
      actor: Actor,
      grant: { userId: string; tokenAmount: number; reason?: string | undefined },
      who: AuditWho,
    ): Promise<number> {
      const { userId, tokenAmount, reason } = grant;
      if (!(await repo.userExists(userId))) throw notFound('User');
      return repo.transaction(async (trx) => {
        const result = await ledger.append(
          { userId, kind: 'admin_grant', delta: tokenAmount, createdBy: actor.userId, note: reason },
          trx,
        );
        await recordAudit(trx, {
          ...who,
          action: tokenAmount > 0 ? 'tokens.grant' : 'tokens.take_back',
          target: { type: 'user', id: userId },
          // The ledger appends under the balance row's lock, so this is exactly the balance it started from.
          before: { tokenAmount: result.balance - tokenAmount },
          after: { tokenAmount: result.balance, delta: tokenAmount, reason: reason ?? null },
        });
        return result.balance;
      });
    },

    /** The back office's view of a customer's tokens and personal subscriptions. */
    async customerBilling(userId: string, ledgerEntries: number) {
      await sweep({ userId });
      const now = clock();
      const [subscriptions, tokenAmount, entries] = await Promise.all([
        repo.listUserSubscriptions(userId),
        repo.balanceOf(userId),
        repo.ledgerHistory(userId, ledgerEntries),
      ]);
      return {
        tokenAmount,
        subscriptions: subscriptions.map((r) => toSubscription(r, now)),
        ledger: entries.map(toLedgerEntry),
      };
    },

    async tokenHistory(actor: Actor): Promise<TokenHistory> {
      const [entries, tokenAmount] = await Promise.all([
        repo.ledgerHistory(actor.userId),
        repo.balanceOf(actor.userId),
      ]);
      return {
        tokenAmount,
        entries: entries.map(toLedgerEntry),
      };
    },

    async tokenBalance(actor: Actor): Promise<number> {
      return repo.balanceOf(actor.userId);
    },

    async payments(actor: Actor): Promise<Payment[]> {
      return (await repo.listPayments(actor.userId)).map(toPayment);
    },

    /** `GET /getCustomerSecret`: a SetupIntent of the caller's customer, for saving a card (docs/adr/0031). */
    async customerSecret(actor: Actor): Promise<CustomerSecret> {
      const customerId = await ensureCustomer(actor);
      const intent = await askProvider({ userId: actor.userId }, () => provider.createSetupIntent(customerId));
      return { provider: provider.name, clientSecret: intent.clientSecret };
    },

    paymentMethods,

    /** The caller's customer at this portal's provider, if they have one yet. */
    async customerIdOf(actor: Actor): Promise<string | undefined> {
      return (await repo.findCustomerId(actor.userId, provider.name)) ?? undefined;
    },

    async setDefaultPaymentMethod(actor: Actor, paymentMethodId: string): Promise<PaymentMethods> {
      const customerId = await repo.findCustomerId(actor.userId, provider.name);
      if (!customerId) throw paymentMethodNotFound();
      await askProvider({ userId: actor.userId, paymentMethodId }, () =>
        provider.setDefaultPaymentMethod(customerId, paymentMethodId),
      );
      return paymentMethods(actor);
    },

    async removePaymentMethod(actor: Actor, paymentMethodId: string): Promise<PaymentMethods> {
      const customerId = await repo.findCustomerId(actor.userId, provider.name);
      if (!customerId) throw paymentMethodNotFound();
      await askProvider({ userId: actor.userId, paymentMethodId }, () =>
        provider.detachPaymentMethod(customerId, paymentMethodId),
      );
      return paymentMethods(actor);
    },

    ...products,

    /**
     * Admin refund of (part of) a payment: the provider refunds first (its answer decides; a failure changes
     * nothing here), then in one transaction the refund, the tokens taken back and the credit note; optionally the
     * subscription it paid for ends now. A webhook about the same refund later finds it recorded.
     */
    async refundPayment(
      actor: Actor,
      paymentId: string,
      input: RefundInput,
      onRefunded?: (trx: Database, refund: Refund) => Promise<void>,
    ): Promise<Refund> {
      const payment = await repo.findPayment(paymentId);
      if (!payment) throw notFound('Payment');
      if (payment.status !== 'paid' && payment.status !== 'partially_refunded') {
        throw new AppError(409, 'not_refundable', `A ${payment.status.replace('_', ' ')} payment cannot be refunded.`);
      }
      if (payment.provider !== provider.name) {
        throw new AppError(
          409,
          'not_refundable',
          `This payment was made with ${payment.provider}, not the provider in use.`,
        );
      }
      const refundable = payment.amount - payment.refunded_amount;
      const amount = input.amount ?? refundable;
      if (amount > refundable) {
        throw new AppError(
          400,
          'validation_failed',
          `At most ${refundable} (minor units) can still be refunded.`,
          'amount',
        );
      }
      let providerRefund: Awaited<ReturnType<PaymentProvider['refund']>>;
      try {
        providerRefund = await provider.refund({
          providerPaymentId: payment.provider_payment_id,
          amount,
          // Same payment, same refunded-so-far, same amount: a retried click refunds once.
          idempotencyKey: `refund-${payment.id}-${payment.refunded_amount}-${amount}`,
          reason: input.reason ?? null,
        });
      } catch (err) {
        log.warn({ err, paymentId }, 'payment provider refused a refund');
        throw providerUnavailable();
      }
      if (providerRefund.status === 'failed' || providerRefund.status === 'canceled') {
        throw new AppError(502, 'refund_failed', 'The payment provider did not make the refund.');
      }
      const refund = await repo.transaction(async (trx) => {
        const row = await invoicing.applyRefund(trx, {
          paymentId,
          providerRefundId: providerRefund.id,
          amount: providerRefund.amount,
          kind: 'refund',
          reason: input.reason ?? null,
          createdBy: actor.userId,
        });
        if (!row) throw new AppError(409, 'not_refundable', 'This payment has been refunded in full already.');
        const presented = await invoicing.presentRefund(row, trx);
        await onRefunded?.(trx, presented);
        return presented;
      });
      if (input.cancelSubscription && payment.subscription_id) {
        const sub = await repo.findSubscriptionView(payment.subscription_id);
        if (sub && !isFinal(sub.status) && canEndNow(sub.status)) await transition(sub, 'end');
      }
      return refund;
    },

    /** For tests and operators: the subscription sweep (period ends) without a request. */
    sweep,
    syncCheckout,
  };
}
