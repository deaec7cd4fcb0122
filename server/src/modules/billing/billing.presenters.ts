import type {
  CheckoutSession,
  LedgerEntry,
  Payment,
  PricingProduct,
  PricingTable,
  Product,
  Subscription,
} from '@portal/contract';
import { iso } from '../../shared/iso.ts';
import type { ContentLanguage } from '../../shared/language.ts';
import { byAmountAscending, canCancel, canResume } from './billing.policy.ts';
import type { CheckoutView, LedgerRow, PaymentRow, ProductRow, SubscriptionView } from './billing.repo.ts';
import { productName, productTexts } from './product-texts.ts';

/** Every billing response is built here, so a new column never reaches a client by accident. */

/** `language`: the reader's, for the texts the operator translated (product-texts.ts). */
export function toPricingProduct(p: ProductRow, language?: ContentLanguage): PricingProduct {
  const { name, description, attributes } = productTexts(p, language);
  return {
    name,
    description,
    priceId: p.price_id,
    type: p.kind === 'subscription' ? 'Subscription' : 'Token',
    amount: p.amount,
    currency: p.currency,
    ...(p.interval && { interval: p.interval }),
    ...(p.credits_amount != null && { creditsAmount: p.credits_amount }),
    bestChoice: p.best_choice,
    attributes,
    testMode: p.test_mode,
    previewMode: p.preview_mode,
    networkIds: p.network_ids,
  };
}

export function toProduct(p: ProductRow): Product {
  return {
    id: p.id,
    kind: p.kind,
    name: p.name,
    description: p.description,
    translations: p.translations ?? {},
    pricingTable: p.pricing_table,
    priceId: p.price_id,
    amount: p.amount,
    currency: p.currency,
    interval: p.interval,
    creditsAmount: p.credits_amount,
    billable: p.billable,
    bestChoice: p.best_choice,
    testMode: p.test_mode,
    previewMode: p.preview_mode,
    attributes: p.attributes,
    includesRinex: p.includes_rinex,
    networkIds: p.network_ids,
    archived: p.archived_at !== null,
    createdAt: iso(p.created_at),
    updatedAt: iso(p.updated_at),
  };
}

/** Groups products into pricing tables, each sorted by amount ascending (spec §9); tables by name. */
export function toPricingTables(products: ProductRow[], language?: ContentLanguage): PricingTable[] {
  const tables = new Map<string, PricingProduct[]>();
  for (const p of products) {
    const list = tables.get(p.pricing_table) ?? [];
    list.push(toPricingProduct(p, language));
    tables.set(p.pricing_table, list);
  }
  return [...tables.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, data]) => ({ name, data: data.sort(byAmountAscending) }));
}

/**
 * `now` decides whether a cancelled subscription can still be resumed (its period has not ended); `language` names
 * the product in the reader's.
 */
export function toSubscription(s: SubscriptionView, now: Date, language?: ContentLanguage): Subscription {
  const periodEnd = new Date(s.current_period_end);
  return {
    id: s.id,
    userId: s.user_id,
    organizationId: s.organization_id,
    productName: productName(s, language),
    priceId: s.price_id,
    amount: s.amount,
    currency: s.currency,
    interval: s.interval,
    billable: s.billable,
    status: s.status,
    networkIds: s.network_ids,
    currentPeriodStart: iso(s.current_period_start),
    currentPeriodEnd: iso(s.current_period_end),
    cancelAtPeriodEnd: s.cancel_at_period_end,
    canCancel: canCancel(s.status),
    canResume: canResume(s.status, periodEnd, now),
    createdAt: iso(s.created_at),
    endedAt: s.ended_at ? iso(s.ended_at) : null,
  };
}

export function toCheckoutSession(c: CheckoutView, language?: ContentLanguage): CheckoutSession {
  return {
    id: c.id,
    transactionId: c.provider_session_id ?? c.id,
    status: c.status,
    type: c.kind === 'subscription' ? 'Subscription' : 'Token',
    productName: productName(c, language),
    priceId: c.price_id,
    amount: c.amount,
    currency: c.currency,
    value: c.amount / 100,
    ...(c.credits_amount != null && { creditsAmount: c.credits_amount }),
    ...(c.subscription_id && { subscriptionId: c.subscription_id }),
    createdAt: iso(c.created_at),
    ...(c.completed_at && { completedAt: iso(c.completed_at) }),
  };
}

export function toLedgerEntry(e: LedgerRow): LedgerEntry {
  return {
    id: String(e.id),
    kind: e.kind,
    delta: e.delta,
    balanceAfter: e.balance_after,
    note: e.note,
    noteCode: e.note_code,
    noteParams: e.note_params,
    createdAt: iso(e.created_at),
  };
}

export function toPayment(p: PaymentRow): Payment {
  return {
    id: p.id,
    description: p.description,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    refundedAmount: p.refunded_amount,
    invoiceNumber: p.invoice_number,
    invoiceUrl: p.invoice_url,
    createdAt: iso(p.created_at),
  };
}
