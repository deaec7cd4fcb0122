import type { AccountGrant, NtripAccountStatus } from '@portal/contract';
import type { Actor } from '../../http/auth.ts';

/** Pure rules of the NTRIP accounts module. */

/** Only the owner reads or changes an account through the user calls; admins use the admin calls. */
export function canManageAccount(actor: Actor, account: { owner_user_id: string }): boolean {
  return account.owner_user_id === actor.userId;
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
