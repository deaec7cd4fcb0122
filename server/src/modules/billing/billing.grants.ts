import type { Database } from '../../db/client.ts';
import { createNtripAccountsRepo, type SubscriptionGrantState } from '../ntrip-accounts/index.ts';

/**
 * The access grants a subscription gives. The NTRIP accounts module owns `access_grants` and writes them; billing
 * asks it in the transaction of the state change, so the grants move with the subscription or not at all.
 */
export interface GrantsWriter {
  syncSubscription(state: SubscriptionGrantState, now: Date, trx: Database): Promise<void>;
}

export function createAccessGrantsWriter(): GrantsWriter {
  return {
    syncSubscription: (state, now, trx) => createNtripAccountsRepo(trx).syncSubscriptionGrants(state, now, trx),
  };
}
