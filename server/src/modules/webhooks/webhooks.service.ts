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
import type { Selectable } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../shared/actor.ts';
import { conflict, forbidden, notFound } from '../../shared/errors.ts';
import { periodic } from '../../shared/periodic.ts';
import type { WebhookOwner, WebhooksRepo } from './webhooks.repo.ts';
import { deliver, type SenderOptions, signature } from './webhooks.sender.ts';

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

type EndpointRow = Pick<Selectable<DB['webhook_endpoints']>, 'id' | 'url' | 'events' | 'created_at'>;
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

export interface WebhooksPorts {
  /** The caller's role in an organisation, undefined when not a member (organisations module). */
  roleOf(orgId: string, userId: string): Promise<string | undefined>;
}

/** A fact for the webhooks of its owner; `key` makes the same fact recorded twice one delivery per endpoint. */
export interface WebhookFact {
  owner: WebhookOwner;
  event: WebhookEvent;
  key: string;
  data: unknown;
}

/** A fact about one NTRIP account: it goes to the account's organisation when it has one, else to its owner. */
export interface AccountFact {
  accountId: string;
  event: WebhookEvent;
  key: string;
  data: Record<string, unknown>;
}

export type WebhookRecorder = ReturnType<typeof createWebhookRecorder>;

/** What other modules (and the caster's process) call to report facts; it only writes deliveries for the worker. */
export function createWebhookRecorder(repo: WebhooksRepo) {
  /** Records facts in the caller's transaction: each owner's endpoints that chose the event get a delivery. */
  const record = (trx: Database, facts: WebhookFact[]) =>
    repo.enqueueFacts(
      trx,
      facts.map((f) => ({ owner: f.owner, event: f.event, key: f.key, body: envelope(randomUUID(), f.event, f.data) })),
    );
  return {
    record,
    /**
     * Facts about NTRIP accounts, each for the account's owner (its organisation or its person), with the account's
     * id and username first in the data. Facts of accounts that are gone are dropped.
     */
    async recordForAccounts(trx: Database, facts: AccountFact[]) {
      if (facts.length === 0) return;
      const owners = await repo.accountOwners(trx, [...new Set(facts.map((f) => f.accountId))]);
      await record(
        trx,
        facts.flatMap((f) => {
          const known = owners.get(f.accountId);
          if (!known) return [];
          const data = { account: { id: f.accountId, username: known.username }, ...f.data };
          return [{ owner: known.owner, event: f.event, key: f.key, data }];
        }),
      );
    },
  };
}

export function createWebhooksService(repo: WebhooksRepo, ports: WebhooksPorts) {
  async function ownerOf(actor: Actor, orgId: string | undefined): Promise<WebhookOwner> {
    if (orgId === undefined) return { userId: actor.userId };
    const role = await ports.roleOf(orgId, actor.userId);
    if (!role) throw notFound('Organisation');
    if (role !== 'owner' && role !== 'admin') {
      throw forbidden("Only the organisation's owners and admins manage its webhooks.");
    }
    return { organizationId: orgId };
  }
  async function own(owner: WebhookOwner, id: string) {
    const row = await repo.find(owner, id);
    if (!row) throw notFound('Webhook');
    return row;
  }
  return {
    /** `orgId` undefined: the actor's own webhooks; otherwise the organisation's, for its owners and admins. */
    async create(actor: Actor, body: CreateWebhookBody, orgId?: string): Promise<WebhookWithSecret> {
      const owner = await ownerOf(actor, orgId);
      const secret = newSecret();
      const row = await repo.insertWithin(MAX_WEBHOOKS_PER_OWNER, owner, {
        createdBy: actor.userId,
        url: body.url,
        events: [...new Set(body.events)],
        secret,
      });
      if (!row) throw conflict('conflict', `You can have at most ${MAX_WEBHOOKS_PER_OWNER} webhooks.`);
      return { ...present(row), secret };
    },
    list: async (actor: Actor, orgId?: string) => (await repo.list(await ownerOf(actor, orgId))).map(present),
    async remove(actor: Actor, id: string, orgId?: string) {
      if (!(await repo.remove(await ownerOf(actor, orgId), id))) throw notFound('Webhook');
    },
    /** A new secret at once; deliveries from now on (retries too) are signed with it. */
    async rollSecret(actor: Actor, id: string, orgId?: string): Promise<WebhookWithSecret> {
      const secret = newSecret();
      const row = await repo.setSecret(await ownerOf(actor, orgId), id, secret);
      if (!row) throw notFound('Webhook');
      return { ...present(row), secret };
    },
    async deliveries(actor: Actor, id: string, orgId?: string) {
      await own(await ownerOf(actor, orgId), id);
      return (await repo.deliveries(id)).map(presentDelivery);
    },
    async test(actor: Actor, id: string, orgId?: string) {
      await own(await ownerOf(actor, orgId), id);
      const eventId = randomUUID();
      return presentDelivery(
        await repo.enqueueOne(id, WEBHOOK_TEST_EVENT, eventId, envelope(eventId, WEBHOOK_TEST_EVENT, {})),
      );
    },
    /** The same event again, as a new delivery with the same body (its `id` lets the receiver see it is a repeat). */
    async resend(actor: Actor, id: string, deliveryId: string, orgId?: string) {
      await own(await ownerOf(actor, orgId), id);
      const old = await repo.findDelivery(id, deliveryId);
      if (!old) throw notFound('Delivery');
      return presentDelivery(await repo.enqueueOne(id, old.event, `resend:${randomUUID()}`, old.body));
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
  return {
    runOnce,
    ...periodic(runOnce, {
      intervalMs: options.pollMs,
      onError: (err) => log.error({ err }, 'webhook deliveries could not be sent'),
    }),
  };
}
