import { describe, expect, it } from 'vitest';
import {
  addInterval,
  balanceAfter,
  byAmountAscending,
  canBuyForOrganization,
  canCancel,
  canListOrganizationSubscriptions,
  canManageSubscription,
  canReadOrganizationCheckout,
  canResume,
  isEntitled,
  statusAtPeriodEnd,
  statusFromProvider,
} from '../../src/modules/billing/billing.policy.ts';
import type { Actor } from '../../src/shared/actor.ts';

const actor = (userId: string, isAdmin = false): Actor => ({
  userId,
  uid: userId,
  email: null,
  emailVerified: false,
  isAdmin,
  termsAcceptedAt: new Date(),
});
const now = new Date('2026-11-23T12:00:00Z');
const later = new Date('2026-12-23T12:00:00Z');
const earlier = new Date('2026-10-23T12:00:00Z');

describe('billing policy', () => {
  it('lets the owner and admins manage a subscription, nobody else', () => {
    const personal = { user_id: 'a', organization_id: null };
    expect(canManageSubscription(actor('a'), personal, undefined)).toBe(true);
    expect(canManageSubscription(actor('b'), personal, undefined)).toBe(false);
    expect(canManageSubscription(actor('b', true), personal, undefined)).toBe(true);
  });

  it("lets an organisation's owners and admins manage its subscriptions, not plain members, not the buyer alone", () => {
    const orgs = { user_id: 'a', organization_id: 'org' };
    expect(canManageSubscription(actor('b'), orgs, 'owner')).toBe(true);
    expect(canManageSubscription(actor('b'), orgs, 'admin')).toBe(true);
    expect(canManageSubscription(actor('a'), orgs, 'member')).toBe(false);
    expect(canManageSubscription(actor('a'), orgs, undefined)).toBe(false);
    expect(canManageSubscription(actor('c', true), orgs, undefined)).toBe(true);
  });

  it('lets every member list and read organisation checkouts, only owners and admins buy', () => {
    expect(canListOrganizationSubscriptions('member')).toBe(true);
    expect(canListOrganizationSubscriptions(undefined)).toBe(false);
    expect(canBuyForOrganization('owner')).toBe(true);
    expect(canBuyForOrganization('admin')).toBe(true);
    expect(canBuyForOrganization('member')).toBe(false);
    expect(canReadOrganizationCheckout('member', 'org', { organization_id: 'org' })).toBe(true);
    expect(canReadOrganizationCheckout('member', 'org', { organization_id: 'other' })).toBe(false);
    expect(canReadOrganizationCheckout('owner', 'org', { organization_id: null })).toBe(false);
    expect(canReadOrganizationCheckout(undefined, 'org', { organization_id: 'org' })).toBe(false);
  });

  it('cancels only active subscriptions and resumes only cancelling ones before their end', () => {
    expect(canCancel('active')).toBe(true);
    for (const s of ['cancelling', 'cancelled', 'past_due', 'expired'] as const) expect(canCancel(s)).toBe(false);
    expect(canResume('cancelling', later, now)).toBe(true);
    expect(canResume('cancelling', earlier, now)).toBe(false);
    expect(canResume('active', later, now)).toBe(false);
  });

  it('gives access while active or cancelling and inside the period', () => {
    expect(isEntitled('active', later, now)).toBe(true);
    expect(isEntitled('cancelling', later, now)).toBe(true);
    expect(isEntitled('active', earlier, now)).toBe(false);
    for (const s of ['cancelled', 'past_due', 'expired'] as const) expect(isEntitled(s, later, now)).toBe(false);
  });

  it('maps provider states to ours', () => {
    expect(statusFromProvider('active', false)).toBe('active');
    expect(statusFromProvider('trialing', false)).toBe('active');
    expect(statusFromProvider('active', true)).toBe('cancelling');
    expect(statusFromProvider('past_due', false)).toBe('past_due');
    expect(statusFromProvider('incomplete', false)).toBe('past_due');
    expect(statusFromProvider('canceled', false)).toBe('cancelled');
    expect(statusFromProvider('unpaid', false)).toBe('expired');
    expect(statusFromProvider('incomplete_expired', false)).toBe('expired');
  });

  it('at the period end a cancelling subscription is cancelled and a manual one expires', () => {
    expect(statusAtPeriodEnd('cancelling', 'stripe')).toBe('cancelled');
    expect(statusAtPeriodEnd('active', 'manual')).toBe('expired');
    expect(statusAtPeriodEnd('active', 'stripe')).toBe('active');
  });

  it('never lets a balance go below zero', () => {
    expect(balanceAfter(10, -10)).toBe(0);
    expect(balanceAfter(10, -11)).toBeUndefined();
    expect(balanceAfter(0, 5)).toBe(5);
  });

  it('adds calendar intervals in UTC', () => {
    const start = new Date('2026-01-31T10:00:00Z');
    expect(addInterval(start, 'WEEKLY').toISOString()).toBe('2026-02-07T10:00:00.000Z');
    expect(addInterval(start, 'YEARLY').toISOString()).toBe('2027-01-31T10:00:00.000Z');
    expect(addInterval(new Date('2026-03-15T00:00:00Z'), 'MONTHLY').toISOString()).toBe('2026-04-15T00:00:00.000Z');
  });

  it('sorts pricing products by amount ascending', () => {
    const sorted = [
      { name: 'b', amount: 300 },
      { name: 'a', amount: 100 },
      { name: 'c', amount: 100 },
    ].sort(byAmountAscending);
    expect(sorted.map((p) => p.name)).toEqual(['a', 'c', 'b']);
  });
});
