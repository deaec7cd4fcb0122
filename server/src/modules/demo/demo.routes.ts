import {
  demoRequestCreatedSchema,
  demoRequestListQuerySchema,
  demoRequestPageSchema,
  demoRequestSchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Selectable } from 'kysely';
import type { DemoRequestsTable } from '../../db/schema.ts';
import type { DemoRepo } from './demo.repo.ts';

function present(row: Selectable<DemoRequestsTable>) {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    loggedInEmail: row.logged_in_email,
    company: row.company,
    phoneNumber: row.phone_number,
    submittedFrom: row.submitted_from,
    message: row.message,
    gclid: row.gclid,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * The sales-demo request (spec §3, §5): anyone may send one (the /api limiter applies), admins list them.
 * When the SPA is built with an automation webhook it posts there instead and this call is not used.
 */
export function demoRoutes(repo: DemoRepo): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/demo-requests',
      {
        config: { auth: 'optional' },
        schema: { tags: ['demo'], body: demoRequestSchema, response: { 201: demoRequestCreatedSchema } },
      },
      async (request, reply) => {
        // The caller's own identity, never what the body claims, says who was logged in.
        const actor = request.actor;
        const row = await repo.insert({
          ...request.body,
          loggedInEmail: actor?.email ?? '',
          userId: actor?.userId ?? null,
        });
        return reply.status(201).send({ id: row.id, createdAt: row.created_at.toISOString() });
      },
    );

    app.get(
      '/admin/demo-requests',
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['demo'],
          querystring: demoRequestListQuerySchema,
          response: { 200: demoRequestPageSchema },
        },
      },
      async (request) => {
        const { limit, offset } = request.query;
        const { rows, total } = await repo.list({ limit, offset });
        return { items: rows.map(present), total, limit, offset };
      },
    );
  };
}
