import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import type {} from '../settings/index.ts';

/**
 * The operator dashboard's reads (docs/adr/0028): billing's, the ntrip module's and the catalogue's tables, read
 * only. Money is grouped by currency and never converted.
 */
/** An amount in a currency: a sum (computed), as the queries and the dashboard's days both give it. */
export interface MoneyRow {
  currency: string;
  amount: number;
}

type Currency = Selectable<DB['products']>['currency'];
type NetworkId = Selectable<DB['networks']>['id'];

/** A subscription's price brought to a month: yearly / 12, weekly × 52 / 12. */
const monthlyAmount = sql<number>`CASE p.interval WHEN 'YEARLY' THEN p.amount / 12.0
  WHEN 'WEEKLY' THEN p.amount * 52 / 12.0 ELSE p.amount END`;

/** Subscriptions that give access now; cancelling ones run to their period's end. */
const activeSubscription = (now: Date) => sql`s.status IN ('active', 'cancelling') AND s.current_period_end > ${now}`;

export type OperatorRepo = ReturnType<typeof createOperatorRepo>;

export function createOperatorRepo(db: Database) {
  return {
    async networks() {
      return db
        .selectFrom('networks')
        .select(['id', 'slug', 'name'])
        .where('status', '<>', 'retired')
        .orderBy('name')
        .execute();
    },

    async activeSubscriptions(now: Date): Promise<number> {
      const r = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM subscriptions s WHERE ${activeSubscription(now)}`.execute(db);
      return Number(r.rows[0]?.n ?? 0);
    },

    /**
     * Monthly recurring revenue: billable subscriptions that will renew (active, not cancelling), by currency;
     * per network, those whose product covers the network (a product covering two networks counts in both).
     */
    async recurring(now: Date) {
      const total = await sql<{ currency: Currency; amount: number }>`
        SELECT p.currency, round(sum(${monthlyAmount}))::int AS amount
        FROM subscriptions s JOIN products p ON p.id = s.product_id
        WHERE s.status = 'active' AND s.current_period_end > ${now} AND p.billable
        GROUP BY p.currency ORDER BY p.currency`.execute(db);
      const perNetwork = await sql<{
        currency: Currency;
        amount: number;
        network_id: NetworkId;
        subscriptions: number;
      }>`
        SELECT n.network_id, p.currency,
          round(sum(CASE WHEN s.status = 'active' AND p.billable THEN ${monthlyAmount} ELSE 0 END))::int AS amount,
          count(*)::int AS subscriptions
        FROM subscriptions s JOIN products p ON p.id = s.product_id
        CROSS JOIN LATERAL unnest(p.network_ids) AS n(network_id)
        WHERE ${activeSubscription(now)}
        GROUP BY n.network_id, p.currency ORDER BY p.currency`.execute(db);
      return { total: total.rows, perNetwork: perNetwork.rows };
    },

    /**
     * Per UTC day since `from`: payments taken (refunded ones too: they were revenue first), on the payment's day,
     * and money given back (refunds and lost disputes), on the refund's day.
     */
    async payments(from: Date) {
      const r = await sql<{ day: string; currency: Currency; revenue: number; refunds: number }>`
        SELECT day, currency, sum(revenue)::int AS revenue, sum(refunds)::int AS refunds FROM (
          SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency, amount AS revenue, 0 AS refunds
          FROM payments WHERE created_at >= ${from} AND status <> 'failed'
          UNION ALL
          SELECT to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), p.currency, 0, f.amount
          FROM refunds f JOIN payments p ON p.id = f.payment_id WHERE f.created_at >= ${from}
        ) money GROUP BY day, currency`.execute(db);
      return r.rows;
    },

    /** Per UTC day since `from`: tokens bought, and tokens spent on activations and RINEX jobs. */
    async tokens(from: Date) {
      const r = await sql<{ day: string; sold: number; spent: number }>`
        SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
          sum(CASE WHEN kind = 'purchase' THEN delta ELSE 0 END)::int AS sold,
          sum(CASE WHEN kind IN ('activation_spend', 'rinex_spend') THEN -delta ELSE 0 END)::int AS spent
        FROM token_ledger WHERE created_at >= ${from}
        GROUP BY 1`.execute(db);
      return r.rows;
    },

    /** Tokens spent since `from` per network: activations through their grant, RINEX jobs through their station. */
    async tokensSpentPerNetwork(from: Date) {
      const r = await sql<{ network_id: NetworkId; spent: number }>`
        SELECT network_id, sum(spent)::int AS spent FROM (
          SELECT g.network_id::text AS network_id, -l.delta AS spent
          FROM token_ledger l JOIN access_grants g ON g.id::text = l.reference_id
          WHERE l.kind = 'activation_spend' AND l.created_at >= ${from}
          UNION ALL
          SELECT st.network_id::text, -l.delta
          FROM token_ledger l JOIN rinex_jobs j ON j.id::text = l.reference_id
          JOIN stations st ON st.id = j.station_id
          WHERE l.kind = 'rinex_spend' AND l.created_at >= ${from}
        ) spends GROUP BY network_id`.execute(db);
      return r.rows;
    },

    /** Stations per network and those whose status (set from the data they send) is online. */
    async stations() {
      const r = await sql<{ network_id: NetworkId; stations: number; online: number }>`
        SELECT network_id::text AS network_id, count(*)::int AS stations,
          count(*) FILTER (WHERE status = 'online')::int AS online
        FROM stations GROUP BY network_id`.execute(db);
      return r.rows;
    },

    /** The network of each station mountpoint (lower case), to place live rovers. */
    async mountpointNetworks(): Promise<Map<string, string>> {
      const rows = await db.selectFrom('stations').select(['mountpoint', 'network_id']).execute();
      return new Map(rows.map((r) => [r.mountpoint.toLowerCase(), r.network_id]));
    },
  };
}
