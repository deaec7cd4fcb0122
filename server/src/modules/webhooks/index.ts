import type { WebhookEvent } from '@portal/contract';
import type { Database } from '../../db/client.ts';
import { createWebhooksRepo } from './webhooks.repo.ts';
import { webhooksRoutes } from './webhooks.routes.ts';
import {
  createWebhookRecorder,
  createWebhooksService,
  createWebhookWorker,
  type WebhooksPorts,
  type WebhookWorkerOptions,
} from './webhooks.service.ts';

export { createWebhookEvents } from './webhooks.events.ts';
export type { WebhookOwner } from './webhooks.repo.ts';
export { signature } from './webhooks.sender.ts';
export type { AccountFact, WebhookFact, WebhookRecorder } from './webhooks.service.ts';

export interface WebhookOptions extends Partial<WebhookWorkerOptions> {
  /** False: no worker in this process (tests that send with runOnce). */
  send?: boolean;
}

/** The portal's notices (the mails' kinds) that are webhook events; the mail's key makes a fact one delivery. */
const EVENT_OF_MAIL: Partial<Record<string, WebhookEvent>> = {
  receipt: 'payment.succeeded',
  renewal_failed: 'payment.failed',
  low_balance: 'balance.low',
  access_ending: 'access.ending',
  access_ended: 'access.ended',
  rinex_ready: 'rinex.ready',
};

/** A notice as the mail module queues it: the webhooks hear of it without depending on that module. */
export interface Notice {
  key: string;
  content: { kind: string };
  userId?: string;
}

export function createWebhooksModule(
  db: Database,
  options: WebhookOptions,
  log: { error(obj: object, msg: string): void },
  ports: WebhooksPorts,
) {
  const repo = createWebhooksRepo(db);
  const service = createWebhooksService(repo, ports);
  const recorder = createWebhookRecorder(repo);
  const worker = createWebhookWorker(
    repo,
    {
      allowPrivateAddresses: options.allowPrivateAddresses ?? false,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxResponseBytes: options.maxResponseBytes ?? 1024,
      pollMs: options.pollMs ?? 2_000,
      retryForMs: options.retryForMs ?? 24 * 3_600_000,
      backoffMs: options.backoffMs ?? 30_000,
    },
    log,
  );
  if (options.send !== false) worker.start();
  return {
    service,
    recorder,
    worker,
    routes: webhooksRoutes(service),
    /** Told of every notice the mail module queues, in its transaction, whatever the person's mail preferences. */
    async fromNotice(trx: Database, request: Notice): Promise<void> {
      const event = EVENT_OF_MAIL[request.content.kind];
      if (!event || !request.userId) return;
      const { kind: _kind, ...data } = request.content;
      await recorder.record(trx, [{ owner: { userId: request.userId }, event, key: request.key, data }]);
    },
  };
}
