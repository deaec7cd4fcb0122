import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { auditWho } from '../audit/index.ts';
import { createApiKeysRepo } from './api-keys.repo.ts';
import { apiKeysRoutes } from './api-keys.routes.ts';
import { type ApiKeysPorts, createApiKeysService } from './api-keys.service.ts';

export { registerIdempotency } from './idempotency.ts';

export function createApiKeysModule(deps: { db: Database; app: FastifyInstance; ports: ApiKeysPorts }) {
  const service = createApiKeysService({ repo: createApiKeysRepo(deps.db), audit: deps.app.audit, ports: deps.ports });
  return { service, routes: apiKeysRoutes(service) };
}

/**
 * Every write made with a key is in the audit log (issue 37): which key, which call, with what outcome. Written once
 * the answer is sent, like the back office's `around` entries (docs/adr/0027): a crash in between loses that entry.
 */
export function registerApiKeyAudit(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const key = request.actor?.apiKey;
    if (!key || request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 400) return;
    try {
      await app.audit.record({
        ...auditWho(request),
        action: 'api_key.write',
        target: { type: 'api_key', id: key.id },
        after: {
          prefix: key.prefix,
          method: request.method,
          route: request.routeOptions.url ?? null,
          path: request.url,
          status: reply.statusCode,
        },
      });
    } catch (err) {
      request.log.error({ err }, 'audit entry of an API key write failed');
    }
  });
}
