import type { WebhookEvent } from '@portal/contract';
import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;

/** Whose endpoints: a person's own, or an organisation's (made by its owners and admins). */
export type WebhookOwner = { userId: string } | { organizationId: string };

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

type EndpointQuery = SelectQueryBuilder<DB, 'webhook_endpoints', object>;
/** A person's endpoints are theirs alone: the ones they made for an organisation belong to it. */
const ofOwner = <Q extends EndpointQuery>(query: Q, owner: WebhookOwner): Q =>
  ('organizationId' in owner
    ? query.where('organization_id', '=', owner.organizationId)
    : query.where('user_id', '=', owner.userId).where('organization_id', 'is', null)) as Q;

export function createWebhooksRepo(db: Database) {
  return {
    /**
     * Counts the owner's endpoints under a lock on the owner's row (the person's or the organisation's), so the limit
     * holds under concurrent requests.
     */
    async insertWithin(
      limit: number,
      owner: WebhookOwner,
      row: { createdBy: string; url: string; events: WebhookEvent[]; secret: string },
    ) {
      return db.transaction().execute(async (trx) => {
        if ('organizationId' in owner) {
          await trx
            .selectFrom('organizations')
            .select('id')
            .where('id', '=', owner.organizationId)
            .forUpdate()
            .execute();
        } else {
          await trx.selectFrom('users').select('id').where('id', '=', owner.userId).forUpdate().execute();
        }
        const { n } = await ofOwner(
          trx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number>().as('n')),
          owner,
        ).executeTakeFirstOrThrow();
        if (Number(n) >= limit) return undefined;
        return trx
          .insertInto('webhook_endpoints')
          .values({
            user_id: row.createdBy,
            organization_id: 'organizationId' in owner ? owner.organizationId : null,
            url: row.url,
            events: JSON.stringify(row.events),
            secret: row.secret,
          })
          .returning(endpointColumns)
          .executeTakeFirstOrThrow();
      });
    },
    list: (owner: WebhookOwner) =>
      ofOwner(db.selectFrom('webhook_endpoints').select(endpointColumns), owner).orderBy('created_at').execute(),
    find: (owner: WebhookOwner, id: string) =>
      ofOwner(db.selectFrom('webhook_endpoints').select([...endpointColumns, 'secret']), owner)
        .where('id', '=', id)
        .executeTakeFirst(),
    async remove(owner: WebhookOwner, id: string) {
      const found = await ofOwner(db.selectFrom('webhook_endpoints').select('id'), owner)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!found) return false;
      await db.deleteFrom('webhook_endpoints').where('id', '=', found.id).execute();
      return true;
    },
    async setSecret(owner: WebhookOwner, id: string, secret: string) {
      const found = await ofOwner(db.selectFrom('webhook_endpoints').select('id'), owner)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!found) return undefined;
      return db
        .updateTable('webhook_endpoints')
        .set({ secret })
        .where('id', '=', found.id)
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

    /**
     * One delivery per endpoint of each fact's owner that chose its event, in the caller's transaction; a fact
     * recorded twice (the same key) is one delivery. The endpoints of all the facts' owners are read in one query.
     */
    async enqueueFacts(trx: Database, facts: { owner: WebhookOwner; event: string; key: string; body: string }[]) {
      if (facts.length === 0) return;
      const users = [...new Set(facts.flatMap((f) => ('userId' in f.owner ? [f.owner.userId] : [])))];
      const orgs = [...new Set(facts.flatMap((f) => ('organizationId' in f.owner ? [f.owner.organizationId] : [])))];
      const endpoints = await trx
        .selectFrom('webhook_endpoints')
        .select(['id', 'events', 'user_id', 'organization_id'])
        .where((eb) =>
          eb.or([
            ...(orgs.length ? [eb('organization_id', 'in', orgs)] : []),
            ...(users.length ? [eb.and([eb('organization_id', 'is', null), eb('user_id', 'in', users)])] : []),
          ]),
        )
        .execute();
      if (endpoints.length === 0) return;
      const rows = facts.flatMap((fact) =>
        endpoints
          .filter(
            (e) =>
              (e.events as string[]).includes(fact.event) &&
              ('organizationId' in fact.owner
                ? e.organization_id === fact.owner.organizationId
                : e.organization_id === null && e.user_id === fact.owner.userId),
          )
          .map((e) => ({ endpoint_id: e.id, event: fact.event, event_key: fact.key, body: fact.body })),
      );
      for (let i = 0; i < rows.length; i += 500) {
        await trx
          .insertInto('webhook_deliveries')
          .values(rows.slice(i, i + 500))
          .onConflict((oc) => oc.columns(['endpoint_id', 'event_key']).doNothing())
          .execute();
      }
    },
    /** Who owns each NTRIP account: its organisation when it has one, else its owner; and its username. */
    async accountOwners(trx: Database, accountIds: string[]) {
      if (accountIds.length === 0) return new Map<string, { owner: WebhookOwner; username: string }>();
      const rows = await trx
        .selectFrom('ntrip_accounts')
        .select(['id', 'owner_user_id', 'organization_id', 'username'])
        .where('id', 'in', accountIds)
        .execute();
      return new Map(
        rows.map((r) => [
          r.id,
          {
            owner: r.organization_id ? { organizationId: r.organization_id } : { userId: r.owner_user_id },
            username: r.username,
          },
        ]),
      );
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
      const rows = await sql<
        Pick<Selectable<DB['webhook_deliveries']>, 'id' | 'event' | 'body' | 'attempts' | 'created_at'> &
          Pick<Selectable<DB['webhook_endpoints']>, 'url' | 'secret'>
      >`
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
