import { sql } from 'kysely';
import type { Database } from '../../db/client.ts';

/**
 * Writes the access grants a subscription gives, into the ntrip module's `access_grants` table (billing writes,
 * the caster reads; docs/data-model.md). Plain SQL on purpose: the columns used here are the contract between
 * the two modules. Every call is idempotent: it moves the open grants of a subscription to the wanted state.
 */
export interface SubscriptionGrantState {
  subscriptionId: string;
  userId: string;
  /** An organisation's subscription covers every member's accounts instead of the buyer's. */
  organizationId: string | null;
  networkIds: string[];
  /** Entitled: grants open until `validUntil`. Not entitled: every open grant of the subscription ends now. */
  entitled: boolean;
  validUntil: Date;
}

export interface GrantsWriter {
  syncSubscription(state: SubscriptionGrantState, now: Date, trx: Database): Promise<void>;
}

export function createAccessGrantsWriter(): GrantsWriter {
  return {
    async syncSubscription(state, now, trx) {
      const ref = state.subscriptionId;
      const networks = state.entitled ? state.networkIds : [];
      // End the grants the subscription no longer gives (all of them when it is not entitled).
      await sql`
        UPDATE access_grants SET ended_at = ${now}
        WHERE source = 'subscription' AND reference_id::text = ${ref} AND ended_at IS NULL
          AND NOT (network_id::text = ANY(${sql.val(networks)}::text[]))`.execute(trx);
      for (const networkId of networks) {
        const updated = await sql`
          UPDATE access_grants SET valid_until = ${state.validUntil}
          WHERE source = 'subscription' AND reference_id::text = ${ref} AND ended_at IS NULL
            AND network_id::text = ${networkId}`.execute(trx);
        if (Number(updated.numAffectedRows ?? 0) === 0) {
          await sql`
            INSERT INTO access_grants
              (account_id, owner_user_id, organization_id, network_id, valid_from, valid_until, source, reference_id)
            VALUES (NULL, ${state.userId}, ${state.organizationId}, ${networkId}, ${now}, ${state.validUntil},
              'subscription', ${ref})`.execute(trx);
        }
      }
    },
  };
}
