import { randomBytes, randomUUID } from 'node:crypto';
import {
  type CreateWebhookBody,
  MAX_WEBHOOKS_PER_OWNER,
  WEBHOOK_TEST_EVENT,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookWithSecret,
} from '@portal/contract';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../http/auth.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { WebhooksRepo } from './webhooks.repo.ts';
import { deliver, type SenderOptions, signature } from './webhooks.sender.ts';

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

type EndpointRow = { id: string; url: string; events: WebhookEvent[]; created_at: Date };
const present = (row: EndpointRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  createdAt: row.created_at.toISOString(),
});

type DeliveryRow = Awaited<ReturnType<WebhooksRepo['deliveries']>>[number];
const presentDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  event: row.event,
  status: row.status,
  attempts: row.attempts,
  createdAt: row.created_at.toISOString(),
  nextAttemptAt: row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
  lastStatusCode: row.last_status_code,
  lastResponse: row.last_response,
});

/** The body every delivery carries: what happened, when, and its facts. */
const envelope = (id: string, event: string, data: unknown, at = new Date()) =>
  JSON.stringify({ id, event, createdAt: at.toISOString(), data });

export type WebhooksService = ReturnType<typeof createWebhooksService>;

export function createWebhooksService(repo: WebhooksRepo) {
  async function own(actor: Actor, id: string) {
    const row = await repo.find(actor.userId, id);
    if (!row) throw notFound('Webhook');
    return row;
  }
  return {
    async create(actor: Actor, body: CreateWebhookBody): Promise<WebhookWithSecret> {
      const secret = newSecret();
      const row = await repo.insertWithin(MAX_WEBHOOKS_PER_OWNER, {
        userId: actor.userId,
        url: body.url,
        events: [...new Set(body.events)],
        secret,
      });
      if (!row) throw conflict('conflict', `You can have at most ${MAX_WEBHOOKS_PER_OWNER} webhooks.`);
      return { ...present(row), secret };
    },
    list: async (actor: Actor) => (await repo.list(actor.userId)).map(present),
    async remove(actor: Actor, id: string) {
      if (!(await repo.remove(actor.userId, id))) throw notFound('Webhook');
    },
    /** A new secret at once; deliveries from now on (retries too) are signed with it. */
    async rollSecret(actor: Actor, id: string): Promise<WebhookWithSecret> {
      const secret = newSecret();
      const row = await repo.setSecret(actor.userId, id, secret);
      if (!row) throw notFound('Webhook');
      return { ...present(row), secret };
    },
    async deliveries(actor: Actor, id: string) {
      await own(actor, id);
      return (await repo.deliveries(id)).map(presentDelivery);
    },
    async test(actor: Actor, id: string) {
      await own(actor, id);
      const eventId = randomUUID();
      return presentDelivery(
        await repo.enqueueOne(id, WEBHOOK_TEST_EVENT, eventId, envelope(eventId, WEBHOOK_TEST_EVENT, {})),
      );
    },
    /** The same event again, as a new delivery with the same body (its `id` lets the receiver see it is a repeat). */
    async resend(actor: Actor, id: string, deliveryId: string) {
      await own(actor, id);
      const old = await repo.findDelivery(id, deliveryId);
      if (!old) throw notFound('Delivery');
      return presentDelivery(await repo.enqueueOne(id, old.event, `resend:${randomUUID()}`, old.body));
    },
    /** Records an event for the user's endpoints that chose it, in the transaction that records the fact. */
    emit(trx: Database, userId: string, event: WebhookEvent, key: string, data: unknown) {
      return repo.enqueueFor(trx, userId, event, key, () => envelope(randomUUID(), event, data));
    },
  };
}

export interface WebhookWorkerOptions extends SenderOptions {
  pollMs: number;
  /** Retries stop this long after the event: 24 hours. */
  retryForMs: number;
  /** The first retry's wait; each next one doubles, up to an hour. */
  backoffMs: number;
}

/** Sends due deliveries, a few at a time; every process may run one (claims are leased). */
export function createWebhookWorker(
  repo: WebhooksRepo,
  options: WebhookWorkerOptions,
  log: { error(obj: object, msg: string): void },
) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  async function runOnce(): Promise<void> {
    const due = await repo.claim(10, options.timeoutMs + 30_000);
    await Promise.all(
      due.map(async (d) => {
        const sig = signature(d.secret, Math.floor(Date.now() / 1000), d.body);
        const result = await deliver(d.url, { event: d.event, deliveryId: d.id, signature: sig }, d.body, options);
        const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
        const wait = Math.min(options.backoffMs * 2 ** d.attempts, 3_600_000);
        const giveUp = Date.now() + wait - new Date(d.created_at).getTime() > options.retryForMs;
        await repo.recordAttempt(d.id, { ...result, ok, retryInMs: ok || giveUp ? null : wait });
      }),
    );
  }
  const tick = () => {
    if (running) return;
    running = runOnce()
      .catch((err) => log.error({ err }, 'webhook deliveries could not be sent'))
      .finally(() => {
        running = null;
      });
  };
  return {
    runOnce,
    start() {
      if (timer) return;
      timer = setInterval(tick, options.pollMs);
      timer.unref();
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
