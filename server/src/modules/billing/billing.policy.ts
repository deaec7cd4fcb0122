import type { SubscriptionStatus } from '@portal/contract';
import type { Actor } from '../../http/auth.ts';
import type { ProviderSubscriptionStatus } from './providers/provider.ts';

/** Pure rules of billing: who may do what, and how subscription states move. No I/O. */

export function canManageSubscription(actor: Actor, subscription: { user_id: string }): boolean {
  return actor.isAdmin || subscription.user_id === actor.userId;
}

export function canReadCheckout(actor: Actor, session: { user_id: string }): boolean {
  return actor.isAdmin || session.user_id === actor.userId;
}

/** Access is given while a subscription is active or cancelling (it runs to its period end). */
export function isEntitled(status: SubscriptionStatus, periodEnd: Date, now: Date): boolean {
  return (status === 'active' || status === 'cancelling') && periodEnd.getTime() > now.getTime();
}

export function canCancel(status: SubscriptionStatus): boolean {
  return status === 'active';
}

export function canResume(status: SubscriptionStatus, periodEnd: Date, now: Date): boolean {
  return status === 'cancelling' && periodEnd.getTime() > now.getTime();
}

/** An admin may end a subscription now from any state that still runs. */
export function canEndNow(status: SubscriptionStatus): boolean {
  return status === 'active' || status === 'cancelling' || status === 'past_due';
}

/** Our state from the provider's: cancel-at-period-end makes an active subscription 'cancelling'. */
export function statusFromProvider(status: ProviderSubscriptionStatus, cancelAtPeriodEnd: boolean): SubscriptionStatus {
  switch (status) {
    case 'active':
    case 'trialing':
      return cancelAtPeriodEnd ? 'cancelling' : 'active';
    case 'past_due':
    case 'incomplete':
    case 'paused':
      return 'past_due';
    case 'canceled':
      return 'cancelled';
    case 'unpaid':
    case 'incomplete_expired':
      return 'expired';
  }
}

/**
 * What a subscription becomes when its period end has passed and no provider renewed it: a cancelling one is
 * cancelled, a manual (non-billable) one expires. Others are left to their provider's events.
 */
export function statusAtPeriodEnd(
  status: SubscriptionStatus,
  provider: 'sandbox' | 'stripe' | 'manual',
): SubscriptionStatus {
  if (status === 'cancelling') return 'cancelled';
  if (provider === 'manual' && (status === 'active' || status === 'past_due')) return 'expired';
  return status;
}

export function isFinal(status: SubscriptionStatus): boolean {
  return status === 'cancelled' || status === 'expired';
}

/** A ledger append may never take a balance below zero. */
export function balanceAfter(balance: number, delta: number): number | undefined {
  const next = balance + delta;
  return next < 0 ? undefined : next;
}

/** End of a period that starts at `from`, in UTC calendar terms. */
export function addInterval(from: Date, interval: 'YEARLY' | 'MONTHLY' | 'WEEKLY'): Date {
  const d = new Date(from.getTime());
  if (interval === 'YEARLY') d.setUTCFullYear(d.getUTCFullYear() + 1);
  else if (interval === 'MONTHLY') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCDate(d.getUTCDate() + 7);
  return d;
}

/** Pricing products sort by amount ascending (spec §9), then by name for a stable order. */
export function byAmountAscending<T extends { amount: number; name: string }>(a: T, b: T): number {
  return a.amount - b.amount || a.name.localeCompare(b.name);
}
