import type { WebhookEvent } from '@portal/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/client.ts';

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;

const endpointColumns = ['id', 'url', 'events', 'created_at'] as const;
const deliveryColumns = [
  'id',
  'event',
  'status',
  'attempts',
  'created_at',
  'next_attempt_at',
  'last_status_code',
  'last_response',
] as const;

export function createWebhooksRepo(db: Database) {
  return {
    /** Counts the owner's endpoints under a lock on their user row, so the limit holds under concurrent requests. */
    async insertWithin(limit: number, row: { userId: string; url: string; events: WebhookEvent[]; secret: string }) {
      return db.transaction().execute(async (trx) => {
        await trx.selectFrom('users').select('id').where('id', '=', row.userId).forUpdate().execute();
        const { n } = await trx
          .selectFrom('webhook_endpoints')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', row.userId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= limit) return undefined;
        return trx
          .insertInto('webhook_endpoints')
          .values({ user_id: row.userId, url: row.url, events: JSON.stringify(row.events), secret: row.secret })
          .returning(endpointColumns)
          .executeTakeFirstOrThrow();
      });
    },
    list: (userId: string) =>
      db
        .selectFrom('webhook_endpoints')
        .select(endpointColumns)
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute(),
    find: (userId: string, id: string) =>
      db
        .selectFrom('webhook_endpoints')
        .select([...endpointColumns, 'secret'])
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst(),
    async remove(userId: string, id: string) {
      const r = await db.deleteFrom('webhook_endpoints').where('user_id', '=', userId).where('id', '=', id).execute();
      return Number(r[0]?.numDeletedRows ?? 0) > 0;
    },
    async setSecret(userId: string, id: string, secret: string) {
      return db
        .updateTable('webhook_endpoints')
        .set({ secret })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .returning(endpointColumns)
        .executeTakeFirst();
    },
    deliveries: (endpointId: string) =>
      db
        .selectFrom('webhook_deliveries')
        .select(deliveryColumns)
        .where('endpoint_id', '=', endpointId)
        .orderBy('created_at', 'desc')
        .limit(50)
        .execute(),

    /** One delivery per endpoint of `userId` that chose `event`, in the caller's transaction; a fact twice is one. */
    async enqueueFor(trx: Database, userId: string, event: string, eventKey: string, body: (id: string) => string) {
      const endpoints = await trx
        .selectFrom('webhook_endpoints')
        .select(['id', 'events'])
        .where('user_id', '=', userId)
        .execute();
      for (const endpoint of endpoints.filter((e) => (e.events as string[]).includes(event))) {
        await trx
          .insertInto('webhook_deliveries')
          .values({ endpoint_id: endpoint.id, event, event_key: eventKey, body: body(eventKey) })
          .onConflict((oc) => oc.columns(['endpoint_id', 'event_key']).doNothing())
          .execute();
      }
    },
    async enqueueOne(endpointId: string, event: string, eventKey: string, body: string) {
      return db
        .insertInto('webhook_deliveries')
        .values({ endpoint_id: endpointId, event, event_key: eventKey, body })
        .returning(deliveryColumns)
        .executeTakeFirstOrThrow();
    },
    findDelivery: (endpointId: string, id: string) =>
      db
        .selectFrom('webhook_deliveries')
        .select(['event', 'body'])
        .where('endpoint_id', '=', endpointId)
        .where('id', '=', id)
        .executeTakeFirst(),

    /**
     * Takes up to `limit` due deliveries, pushing their next attempt `leaseMs` ahead so no other worker takes them
     * while they are being sent.
     */
    async claim(limit: number, leaseMs: number) {
      const rows = await sql<{
        id: string;
        event: string;
        body: string;
        attempts: number;
        created_at: Date;
        url: string;
        secret: string;
      }>`
        UPDATE webhook_deliveries d SET next_attempt_at = now() + ${`${leaseMs} milliseconds`}::interval
        FROM webhook_endpoints e
        WHERE e.id = d.endpoint_id AND d.id IN (
          SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING d.id, d.event, d.body, d.attempts, d.created_at, e.url, e.secret`.execute(db);
      return rows.rows;
    },
    async recordAttempt(
      id: string,
      outcome: { ok: boolean; statusCode: number | null; response: string; retryInMs: number | null },
    ) {
      await db
        .updateTable('webhook_deliveries')
        .set({
          attempts: sql`attempts + 1`,
          last_status_code: outcome.statusCode,
          last_response: outcome.response,
          status: outcome.ok ? 'succeeded' : outcome.retryInMs === null ? 'failed' : 'pending',
          next_attempt_at:
            outcome.ok || outcome.retryInMs === null
              ? null
              : sql<Date>`now() + ${`${outcome.retryInMs} milliseconds`}::interval`,
        })
        .where('id', '=', id)
        .execute();
    },
  };
}
