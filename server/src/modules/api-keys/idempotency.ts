import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeySchema } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../shared/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route creates or spends: an `Idempotency-Key` makes a repeat answer what the first call did (issue 37). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The reservation this request holds, answered when its reply is sent. */
    idempotency: { userId: string; key: string; body: string | null } | null;
  }
}

/** How long a key's answer is kept for repeats. */
const KEPT = sql`interval '24 hours'`;
/**
 * A reservation without an answer after this long belongs to a request that never finished (the process ended under
 * it); a repeat may then run the call again. Far longer than any call here takes.
 */
const ABANDONED = sql`interval '5 minutes'`;
/** How long a repeat waits for the first call with its key to be answered, polling, before it gives up with 409. */
const WAIT_MS = 20_000;
const POLL_MS = 25;

const requestHash = (method: string, url: string, body: unknown) =>
  createHash('sha256')
    .update(JSON.stringify([method, url, body ?? null]))
    .digest('hex');

/**
 * Idempotency-Key on the routes marked `idempotent` (docs/adr/0078). The first request with a key inserts its row
 * before the handler runs; the primary key (user, key) is the reservation, so of any number of concurrent repeats
 * exactly one runs the call and the rest wait for its answer. A repeat with another method, path or body is 409.
 * Answers of 500 and above release the key, so the call can be tried again; every other answer is kept 24 hours.
 */
export function registerIdempotency(api: FastifyInstance, db: Database): void {
  api.decorateRequest('idempotency', null);
  let lastSweep = 0;

  api.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config?.idempotent || !request.actor) return;
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined) return;
    const parsed = idempotencyKeySchema.safeParse(header);
    if (!parsed.success) {
      throw new AppError(400, 'validation_failed', 'Idempotency-Key must be 1 to 255 characters.', 'Idempotency-Key');
    }
    const key = parsed.data;
    const userId = request.actor.userId;
    const hash = requestHash(request.method, request.url, request.body);

    if (Date.now() - lastSweep > 60_000) {
      lastSweep = Date.now();
      await db.deleteFrom('idempotency_keys').where('created_at', '<', sql<Date>`now() - ${KEPT}`).execute();
    }
    const deadline = Date.now() + WAIT_MS;
    while (Date.now() < deadline) {
      await db
        .deleteFrom('idempotency_keys')
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .where((eb) =>
          eb.or([
            eb('created_at', '<', sql<Date>`now() - ${KEPT}`),
            eb.and([eb('status_code', 'is', null), eb('created_at', '<', sql<Date>`now() - ${ABANDONED}`)]),
          ]),
        )
        .execute();
      const reserved = await db
        .insertInto('idempotency_keys')
        .values({ user_id: userId, key, request_hash: hash })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (reserved) {
        request.idempotency = { userId, key, body: null };
        return;
      }
      const first = await db
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'status_code', 'response_body'])
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .executeTakeFirst();
      // Gone between the two statements: the first call failed and released it; try to take it.
      if (!first) continue;
      if (first.request_hash !== hash) {
        throw new AppError(
          409,
          'idempotency_key_reused',
          'This Idempotency-Key was used for a different request; use a new key for a new request.',
          'Idempotency-Key',
        );
      }
      if (first.status_code !== null) {
        reply.status(first.status_code).header('idempotent-replayed', 'true');
        if (first.response_body === null) return reply.send();
        return reply.send(JSON.parse(first.response_body));
      }
      await sleep(POLL_MS);
    }
    throw new AppError(
      409,
      'idempotency_key_in_progress',
      'The first request with this Idempotency-Key is still being answered; repeat it later.',
      'Idempotency-Key',
    );
  });

  // The answer as the handler (or the error handler) gave it, before the response schema writes it out; a replay
  // is written out by the same schema.
  api.addHook('preSerialization', async (request, _reply, payload) => {
    if (request.idempotency) request.idempotency.body = JSON.stringify(payload);
    return payload;
  });

  api.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotency;
    if (!held) return payload;
    request.idempotency = null;
    const row = db.deleteFrom('idempotency_keys').where('user_id', '=', held.userId).where('key', '=', held.key);
    if (reply.statusCode >= 500) {
      await row.execute();
    } else {
      await db
        .updateTable('idempotency_keys')
        .set({ status_code: reply.statusCode, response_body: held.body, response_type: 'application/json' })
        .where('user_id', '=', held.userId)
        .where('key', '=', held.key)
        .execute();
    }
    return payload;
  });
}
