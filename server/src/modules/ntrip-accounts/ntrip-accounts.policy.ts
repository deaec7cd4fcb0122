import type { AccountGrant, NtripAccountStatus } from '@portal/contract';
import type { Actor } from '../../shared/actor.ts';

/** Pure rules of the NTRIP accounts module. */

/**
 * A personal account is read and changed by its owner alone through the user calls; admins use the admin calls.
 * An organisation's account goes by the caller's role in the organisation instead.
 */
export function canManageAccount(
  actor: Actor,
  account: { owner_user_id: string; organization_id: string | null },
): boolean {
  return account.organization_id === null && account.owner_user_id === actor.userId;
}

/** Owners and admins change an organisation's accounts and spend its tokens on them; members see them. */
export function canManageOrganizationAccount(role: 'owner' | 'admin' | 'member'): boolean {
  return role === 'owner' || role === 'admin';
}

export function canAdministerAccounts(actor: Actor): boolean {
  return actor.isAdmin;
}

/** A network may be activated with tokens when it is not retired and has a price. */
export function canActivateNetwork(network: { status: string; token_price_per_day: number }): boolean {
  return network.status !== 'retired' && network.token_price_per_day > 0;
}

/**
 * Where a token activation starts: now, or where the account's current activation on that network ends
 * (extending never overlaps and never loses the days already paid for).
 */
export function activationWindow(now: Date, currentEnd: Date | null, days: number): { from: Date; until: Date } {
  const from = currentEnd && currentEnd > now ? currentEnd : now;
  return { from, until: new Date(from.getTime() + days * 86_400_000) };
}

export function accountStatus(
  enabled: boolean,
  grants: Pick<AccountGrant, 'validFrom' | 'validUntil'>[],
  now: Date,
): NtripAccountStatus {
  if (!enabled) return 'disabled';
  const t = now.getTime();
  const current = grants.some((g) => Date.parse(g.validFrom) <= t && Date.parse(g.validUntil) > t);
  return current ? 'active' : 'no_access';
}
