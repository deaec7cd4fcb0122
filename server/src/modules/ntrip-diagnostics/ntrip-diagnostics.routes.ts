import {
  adminLiveSessionListSchema,
  liveSessionListSchema,
  liveSourceListSchema,
  loginFailurePageSchema,
  loginFailureQuerySchema,
  ntripAccountParamsSchema,
  refusalListSchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../http/auth.ts';
import type { NtripDiagnosticsService } from './ntrip-diagnostics.service.ts';

const tags = ['ntrip-diagnostics'];
const user = { auth: 'user' } as const;
const admin = { auth: 'admin' } as const;

/** Refused attempts of an account (its owner; admins through the admin path) and the admin-wide unknown-name log. */
export function ntripDiagnosticsRoutes(service: NtripDiagnosticsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/ntrip-accounts/:id/refusals',
      { config: user, schema: { tags, params: ntripAccountParamsSchema, response: { 200: refusalListSchema } } },
      async (request) => ({ items: await service.refusals(actorOf(request), request.params.id) }),
    );

    app.get(
      '/ntrip-accounts/:id/live-sessions',
      { config: user, schema: { tags, params: ntripAccountParamsSchema, response: { 200: liveSessionListSchema } } },
      async (request) => service.liveSessions(actorOf(request), request.params.id),
    );

    app.get(
      '/admin/ntrip-live-sessions',
      { config: admin, schema: { tags, response: { 200: adminLiveSessionListSchema } } },
      async (request) => service.adminLiveSessions(actorOf(request)),
    );

    app.get(
      '/admin/ntrip-live-sources',
      { config: admin, schema: { tags, response: { 200: liveSourceListSchema } } },
      async (request) => service.adminLiveSources(actorOf(request)),
    );

    app.get(
      '/admin/ntrip-accounts/:id/live-sessions',
      { config: admin, schema: { tags, params: ntripAccountParamsSchema, response: { 200: liveSessionListSchema } } },
      async (request) => service.adminAccountLiveSessions(actorOf(request), request.params.id),
    );

    app.get(
      '/admin/ntrip-accounts/:id/refusals',
      { config: admin, schema: { tags, params: ntripAccountParamsSchema, response: { 200: refusalListSchema } } },
      async (request) => ({ items: await service.adminRefusals(actorOf(request), request.params.id) }),
    );

    app.get(
      '/admin/ntrip-login-failures',
      {
        config: admin,
        schema: { tags, querystring: loginFailureQuerySchema, response: { 200: loginFailurePageSchema } },
      },
      async (request) => service.adminLoginFailures(actorOf(request), request.query),
    );
  };
}
