import type { Database } from '../../db/client.ts';
import type { Invoicing } from '../invoicing/index.ts';
import type { BillingNotices } from '../mail/index.ts';
import type { GrantsWriter } from './billing.grants.ts';
import type { TokenLedger } from './billing.ledger.ts';
import { isEntitled, isFinal, statusAtPeriodEnd, statusFromProvider } from './billing.policy.ts';
import type { BillingRepo, SubscriptionOwner, SubscriptionRow } from './billing.repo.ts';
import type {
  CheckoutSnapshot,
  InvoiceSnapshot,
  PaymentProvider,
  ProviderEvent,
  SubscriptionSnapshot,
} from './providers/provider.ts';

export interface BillingLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface ProviderSyncDeps {
  repo: BillingRepo;
  ledger: TokenLedger;
  grants: GrantsWriter;
  provider: PaymentProvider;
  invoicing: Invoicing;
  clock: () => Date;
  log: BillingLog;
  notices?: BillingNotices;
}

/**
 * The provider's side of billing: its events and snapshots become our subscriptions, checkouts, payments and
 * invoices, and subscriptions' grants follow their state. The provider is the truth; everything here is idempotent.
 */
export function createProviderSync(deps: ProviderSyncDeps) {
  const { repo, ledger, grants, provider, invoicing, clock, log, notices } = deps;

  /** Moves a subscription's access grants to what its state gives. Runs in the caller's transaction. */
  async function syncGrants(trx: Database, sub: SubscriptionRow, now: Date): Promise<void> {
    const product = await repo.findProductById(sub.product_id, trx);
    const periodEnd = new Date(sub.current_period_end);
    await grants.syncSubscription(
      {
        subscriptionId: sub.id,
        userId: sub.user_id,
        organizationId: sub.organization_id,
        networkIds: product?.network_ids ?? [],
        entitled: isEntitled(sub.status, periodEnd, now),
        validUntil: periodEnd,
      },
      now,
      trx,
    );
  }

  /** Writes our subscription row from the provider's, creating it on first sight; then its grants. */
  async function applySubscription(
    trx: Database,
    snap: SubscriptionSnapshot,
    owner?: { userId: string; organizationId: string | null; productId: string },
  ): Promise<SubscriptionRow | undefined> {
    const now = clock();
    const status = statusFromProvider(snap.status, snap.cancelAtPeriodEnd);
    const existing = await repo.lockSubscriptionByProviderId(snap.providerSubscriptionId, trx);
    let row: SubscriptionRow;
    if (existing) {
      // A final state is final: a late 'updated' event never revives a cancelled subscription.
      if (isFinal(existing.status) && !isFinal(status)) return existing;
      row = await repo.updateSubscription(
        existing.id,
        {
          status,
          cancel_at_period_end: snap.cancelAtPeriodEnd,
          current_period_start: snap.currentPeriodStart,
          current_period_end: snap.currentPeriodEnd,
          ended_at: isFinal(status) ? (existing.ended_at ?? now) : null,
        },
        trx,
      );
    } else {
      let resolved = owner;
      if (!resolved && snap.checkoutSessionId) {
        const checkout = await repo.findCheckout(snap.checkoutSessionId, trx);
        if (checkout) {
          resolved = {
            userId: checkout.user_id,
            organizationId: checkout.organization_id,
            productId: checkout.product_id,
          };
        }
      }
      if (!resolved) {
        log.warn({ subscription: snap.providerSubscriptionId }, 'subscription event for an unknown subscription');
        return undefined;
      }
      row = await repo.insertSubscription(
        {
          user_id: resolved.userId,
          organization_id: resolved.organizationId,
          product_id: resolved.productId,
          provider: provider.name,
          provider_subscription_id: snap.providerSubscriptionId,
          status,
          cancel_at_period_end: snap.cancelAtPeriodEnd,
          current_period_start: snap.currentPeriodStart,
          current_period_end: snap.currentPeriodEnd,
          ended_at: isFinal(status) ? now : null,
        },
        trx,
      );
    }
    await syncGrants(trx, row, now);
    return row;
  }

  async function applyCheckout(
    trx: Database,
    snap: CheckoutSnapshot,
    subSnap: SubscriptionSnapshot | undefined,
  ): Promise<void> {
    const now = clock();
    const row = await repo.lockCheckoutByProviderId(provider.name, snap.providerSessionId, trx);
    if (!row) {
      log.warn({ session: snap.providerSessionId }, 'checkout event for an unknown session');
      return;
    }
    if (row.status === 'complete' || row.status === 'expired') return;
    if (snap.status === 'expired') {
      await repo.updateCheckout(row.id, { status: 'expired' }, trx);
      return;
    }
    if (snap.status !== 'complete' || !snap.paid) return;
    const product = await repo.findProductById(row.product_id, trx);
    let subscriptionId: string | null = null;
    if (row.kind === 'token') {
      await ledger.append(
        {
          userId: row.user_id,
          kind: 'purchase',
          delta: row.credits_amount ?? product?.credits_amount ?? 0,
          referenceId: row.id,
          note: product?.name ?? 'Token pack',
          ...(!product && { noteCode: 'token_pack' as const }),
        },
        trx,
      );
    } else if (subSnap) {
      const sub = await applySubscription(trx, subSnap, {
        userId: row.user_id,
        organizationId: row.organization_id,
        productId: row.product_id,
      });
      subscriptionId = sub?.id ?? null;
    }
    const paymentId = await repo.upsertPayment(
      {
        user_id: row.user_id,
        organization_id: row.organization_id,
        provider: provider.name,
        provider_payment_id: snap.providerPaymentId ?? snap.providerSessionId,
        checkout_session_id: row.id,
        subscription_id: subscriptionId,
        description: product?.name ?? row.kind,
        amount: snap.amountTotal,
        currency: row.currency,
        status: 'paid',
        invoice_number: snap.invoiceNumber,
        invoice_url: snap.invoiceUrl,
      },
      trx,
    );
    const invoiceNumber = await invoicing.issueInvoice(trx, {
      paymentId,
      userId: row.user_id,
      organizationId: row.organization_id,
      description: product?.name ?? row.kind,
      gross: snap.amountTotal,
      currency: row.currency,
      providerTax: snap.amountTax,
    });
    await notices?.paymentReceived(trx, {
      userId: row.user_id,
      provider: provider.name,
      providerPaymentId: snap.providerPaymentId ?? snap.providerSessionId,
      description: product?.name ?? row.kind,
      amount: snap.amountTotal,
      currency: row.currency,
      paidAt: now,
      invoiceNumber,
      invoiceUrl: snap.invoiceUrl,
    });
    await repo.updateCheckout(row.id, { status: 'complete', completed_at: now, subscription_id: subscriptionId }, trx);
  }

  async function applyInvoice(trx: Database, inv: InvoiceSnapshot, subSnap: SubscriptionSnapshot | undefined) {
    if (!subSnap) return;
    const sub = await applySubscription(trx, subSnap);
    if (!sub) return;
    const product = await repo.findProductById(sub.product_id, trx);
    const paid = inv.status === 'paid';
    const paymentId = await repo.upsertPayment(
      {
        user_id: sub.user_id,
        organization_id: sub.organization_id,
        provider: provider.name,
        provider_payment_id: inv.providerInvoiceId,
        subscription_id: sub.id,
        description: product?.name ?? 'Subscription',
        amount: paid ? inv.amountPaid : inv.amountDue,
        currency: product?.currency ?? 'EUR',
        status: paid ? 'paid' : 'failed',
        invoice_number: inv.number,
        invoice_url: inv.hostedInvoiceUrl,
      },
      trx,
    );
    const invoiceNumber = paid
      ? await invoicing.issueInvoice(trx, {
          paymentId,
          userId: sub.user_id,
          organizationId: sub.organization_id,
          description: product?.name ?? 'Subscription',
          gross: inv.amountPaid,
          currency: product?.currency ?? 'EUR',
        })
      : null;
    const fact = {
      userId: sub.user_id,
      provider: provider.name,
      description: product?.name ?? 'Subscription',
      currency: product?.currency ?? 'EUR',
      invoiceUrl: inv.hostedInvoiceUrl,
    };
    if (paid) {
      await notices?.paymentReceived(trx, {
        ...fact,
        providerPaymentId: inv.providerInvoiceId,
        amount: inv.amountPaid,
        paidAt: clock(),
        invoiceNumber,
      });
    } else {
      await notices?.renewalFailed(trx, {
        ...fact,
        providerInvoiceId: inv.providerInvoiceId,
        amount: inv.amountDue,
      });
    }
  }

  /** Fetches the session from the provider and applies it (return page, or a late webhook). */
  async function syncCheckout(providerSessionId: string): Promise<CheckoutSnapshot> {
    const snap = await provider.fetchCheckout(providerSessionId);
    const subSnap = snap.providerSubscriptionId
      ? await provider.fetchSubscription(snap.providerSubscriptionId)
      : undefined;
    await repo.transaction((trx) => applyCheckout(trx, snap, subSnap));
    return snap;
  }

  /**
   * The one path every provider event takes (verified Stripe webhooks, sandbox payments): skip a processed
   * event id, fetch the object from the provider, apply it idempotently in one transaction.
   */
  async function handleEvent(event: ProviderEvent): Promise<'processed' | 'duplicate' | 'ignored'> {
    const meta = { provider: provider.name, eventId: event.id, type: event.providerType, objectId: event.objectId };
    if (await repo.isEventProcessed(provider.name, event.id)) return 'duplicate';
    if (event.type === 'ignored' || !event.objectId) {
      await repo.recordEvent(meta);
      await repo.markEventProcessed(provider.name, event.id);
      return 'ignored';
    }
    let apply: (trx: Database) => Promise<unknown>;
    switch (event.type) {
      case 'checkout.completed':
      case 'checkout.expired': {
        const snap = await provider.fetchCheckout(event.objectId);
        const subSnap = snap.providerSubscriptionId
          ? await provider.fetchSubscription(snap.providerSubscriptionId)
          : undefined;
        apply = (trx) => applyCheckout(trx, snap, subSnap);
        break;
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const inv = await provider.fetchInvoice(event.objectId);
        const subSnap = inv.providerSubscriptionId
          ? await provider.fetchSubscription(inv.providerSubscriptionId)
          : undefined;
        apply = (trx) => applyInvoice(trx, inv, subSnap);
        break;
      }
      case 'subscription.updated':
      case 'subscription.deleted': {
        const snap = await provider.fetchSubscription(event.objectId);
        apply = (trx) => applySubscription(trx, snap);
        break;
      }
      case 'charge.refunded': {
        const charge = await provider.fetchChargeRefunds(event.objectId);
        apply = async (trx) => {
          const payment = await paymentOf(charge.providerPaymentIds, trx);
          if (!payment) return;
          for (const refund of charge.refunds.filter((r) => r.status === 'succeeded')) {
            await invoicing.applyRefund(trx, {
              paymentId: payment.id,
              providerRefundId: refund.id,
              amount: refund.amount,
              kind: 'refund',
              reason: null,
              createdBy: null,
            });
          }
        };
        break;
      }
      case 'dispute.created': {
        const dispute = await provider.fetchDispute(event.objectId);
        apply = async (trx) => {
          const payment = await paymentOf(dispute.providerPaymentIds, trx);
          if (!payment) return;
          await invoicing.applyRefund(trx, {
            paymentId: payment.id,
            providerRefundId: dispute.id,
            amount: dispute.amount,
            kind: 'dispute',
            reason: 'Disputed by the card holder',
            createdBy: null,
          });
        };
        break;
      }
    }
    try {
      await repo.transaction(async (trx) => {
        await repo.recordEvent(meta, trx);
        await apply(trx);
        await repo.markEventProcessed(provider.name, event.id, trx);
      });
    } catch (err) {
      // Kept unprocessed, outside the rolled-back transaction: the payments page counts it as a failure, and the
      // provider's retry still gets through (only processed events are skipped).
      await repo.recordEvent(meta).catch(() => undefined);
      throw err;
    }
    return 'processed';
  }

  async function paymentOf(providerPaymentIds: string[], trx: Database) {
    for (const id of providerPaymentIds) {
      const payment = await repo.findPaymentByProviderId(provider.name, id, trx);
      if (payment) return payment;
    }
    log.warn({ providerPaymentIds }, 'refund or dispute of an unknown payment');
    return undefined;
  }

  async function sweep(owner?: SubscriptionOwner): Promise<void> {
    const now = clock();
    for (const due of await repo.listDueSubscriptions(now, owner)) {
      const { id } = due;
      if (due.status === 'active' && due.provider === provider.name && due.provider_subscription_id) {
        // A provider without its own clock (the sandbox) renews here, through the usual event path.
        const event = await provider.renewIfDue?.(due.provider_subscription_id, now);
        if (event) await handleEvent(event);
        continue;
      }
      await repo.transaction(async (trx) => {
        const sub = await repo.lockSubscription(id, trx);
        if (!sub || new Date(sub.current_period_end) > now) return;
        const next = statusAtPeriodEnd(sub.status, sub.provider);
        if (next === sub.status) return;
        const row = await repo.updateSubscription(
          id,
          { status: next, cancel_at_period_end: false, ended_at: sub.ended_at ?? now },
          trx,
        );
        await syncGrants(trx, row, now);
      });
    }
  }

  return { handleEvent, syncCheckout, sweep, applySubscription, syncGrants };
}
