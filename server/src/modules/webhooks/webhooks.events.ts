import type { Database } from '../../db/client.ts';
import { createWebhooksRepo } from './webhooks.repo.ts';
import { createWebhookRecorder } from './webhooks.service.ts';
import type {} from './webhooks.tables.ts';

export type { WebhookOwner } from './webhooks.repo.ts';
export type { AccountFact, WebhookFact, WebhookRecorder } from './webhooks.service.ts';

/**
 * Reports facts to webhooks from a process that does not send them (the caster's): it writes the deliveries, the
 * API's worker sends them. Its own file, so the caster's side does not pull in the API's modules.
 */
export const createWebhookEvents = (db: Database) => createWebhookRecorder(createWebhooksRepo(db));
