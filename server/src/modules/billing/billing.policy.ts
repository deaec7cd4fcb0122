import type { OrganizationRole, SubscriptionStatus } from '@portal/contract';
import type { Actor } from '../../shared/actor.ts';
import { canManageOrganization } from '../organizations/index.ts';
import type { ProviderSubscriptionStatus } from './providers/provider.ts';

/** Pure rules of billing: who may do what, and how subscription states move. No I/O. */

/**
 * A personal subscription is managed by its buyer; an organisation's by that organisation's owners and admins
 * (the buyer too only while they hold such a role); any subscription by a portal admin.
 */
export function canManageSubscription(
  actor: Actor,
  subscription: { user_id: string; organization_id: string | null },
  organizationRole: OrganizationRole | undefined,
): boolean {
  if (actor.isAdmin) return true;
  if (subscription.organization_id !== null) return canManageOrganization(organizationRole);
  return subscription.user_id === actor.userId;
}

/** Every member sees what the organisation is subscribed to. */
export function canListOrganizationSubscriptions(role: OrganizationRole | undefined): boolean {
  return role !== undefined;
}

/** Buying for an organisation commits its money: owners and admins only. */
export function canBuyForOrganization(role: OrganizationRole | undefined): boolean {
  return canManageOrganization(role);
}

/** The buyer follows their own session (the return page); an admin any session. */
export function canReadCheckout(actor: Actor, session: { user_id: string }): boolean {
  return actor.isAdmin || session.user_id === actor.userId;
}

/** Through the organisation's route, every member reads the organisation's own sessions, nothing else. */
export function canReadOrganizationCheckout(
  role: OrganizationRole | undefined,
  orgId: string,
  session: { organization_id: string | null },
): boolean {
  return role !== undefined && session.organization_id === orgId;
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
