import { type AuditEntry, auditPageSchema, auditQuerySchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { iso } from '../../shared/iso.ts';
import type { AuditRepo } from './audit.repo.ts';

type Row = Awaited<ReturnType<AuditRepo['list']>>['items'][number];

const present = (r: Row): AuditEntry => ({
  id: String(r.id),
  at: iso(r.at),
  actorUserId: r.actor_user_id,
  actorEmail: r.actor_email,
  action: r.action,
  targetType: r.target_type,
  targetId: r.target_id,
  before: r.before ?? null,
  after: r.after ?? null,
  ip: r.ip,
});

/** GET /admin/audit: the log, newest first. There is deliberately no route that changes it. */
export function auditRoutes(repo: AuditRepo): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/admin/audit',
      {
        config: { auth: 'admin' },
        schema: { tags: ['admin'], querystring: auditQuerySchema, response: { 200: auditPageSchema } },
      },
      async (request) => {
        const page = await repo.list(request.query);
        const { limit, offset } = request.query;
        return { items: page.items.map(present), total: page.total, limit, offset };
      },
    );
  };
}
