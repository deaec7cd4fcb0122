import {
  accountGrantSchema,
  accountMountpointListSchema,
  adminCreateNtripAccountBodySchema,
  adminMaxConnectionsBodySchema,
  adminNtripAccountPageSchema,
  adminNtripAccountQuerySchema,
  adminNtripAccountSchema,
  adminUpdateNtripAccountBodySchema,
  CONNECTION_TESTS_PER_MINUTE,
  connectionTestBodySchema,
  connectionTestResultSchema,
  createNtripAccountBodySchema,
  createOrganizationNtripAccountBodySchema,
  manualGrantBodySchema,
  ntripAccountListSchema,
  ntripAccountParamsSchema,
  ntripAccountSchema,
  ntripAccountWithPasswordSchema,
  ntripSessionPageSchema,
  organizationParamsSchema,
  sessionPageQuerySchema,
  tokenActivationBodySchema,
  tokenActivationSchema,
  updateNtripAccountBodySchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../http/auth.ts';
import { auditWho } from '../audit/index.ts';
import type { NtripAccountsService } from './ntrip-accounts.service.ts';

const tags = ['ntrip-accounts'];
const user = { auth: 'user' } as const;
const admin = { auth: 'admin' } as const;
// What an API key needs for each call (issue 37); the creating and spending POSTs take an Idempotency-Key.
const read = { ...user, apiKey: 'ntrip-accounts:read' } as const;
const write = { ...user, apiKey: 'ntrip-accounts:write' } as const;
const usage = { ...user, apiKey: 'usage:read' } as const;

/** The NTRIP account calls: parse, authorise (auth level here, ownership in the service), call. */
export function ntripAccountsRoutes(service: NtripAccountsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/ntrip-accounts',
      { config: read, schema: { tags, response: { 200: ntripAccountListSchema } } },
      async (request) => ({ items: await service.list(actorOf(request)) }),
    );

    app.post(
      '/ntrip-accounts',
      {
        config: { ...write, idempotent: true },
        schema: { tags, body: createNtripAccountBodySchema, response: { 201: ntripAccountWithPasswordSchema } },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body.label)),
    );

    app.get(
      '/org/:orgId/ntrip-accounts',
      { config: read, schema: { tags, params: organizationParamsSchema, response: { 200: ntripAccountListSchema } } },
      async (request) => ({ items: await service.listOfOrganization(actorOf(request), request.params.orgId) }),
    );

    app.post(
      '/org/:orgId/ntrip-accounts',
      {
        config: { ...write, idempotent: true },
        schema: {
          tags,
          params: organizationParamsSchema,
          body: createOrganizationNtripAccountBodySchema,
          response: { 201: ntripAccountWithPasswordSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await service.createForOrganization(actorOf(request), request.params.orgId, request.body)),
    );

    app.get(
      '/ntrip-accounts/:id',
      { config: read, schema: { tags, params: ntripAccountParamsSchema, response: { 200: ntripAccountSchema } } },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.patch(
      '/ntrip-accounts/:id',
      {
        config: write,
        schema: {
          tags,
          params: ntripAccountParamsSchema,
          body: updateNtripAccountBodySchema,
          response: { 200: ntripAccountSchema },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.post(
      '/ntrip-accounts/:id/password',
      {
        config: write,
        schema: { tags, params: ntripAccountParamsSchema, response: { 200: ntripAccountWithPasswordSchema } },
      },
      async (request) => service.regeneratePassword(actorOf(request), request.params.id),
    );

    app.delete(
      '/ntrip-accounts/:id',
      { config: write, schema: { tags, params: ntripAccountParamsSchema } },
      async (request, reply) => {
        await service.remove(actorOf(request), request.params.id);
        return reply.status(204).send();
      },
    );

    app.get(
      '/ntrip-accounts/:id/mountpoints',
      {
        config: read,
        schema: { tags, params: ntripAccountParamsSchema, response: { 200: accountMountpointListSchema } },
      },
      async (request) => ({ items: await service.mountpoints(actorOf(request), request.params.id) }),
    );

    // Each test holds a caster connection for up to 10 s: a few a minute per user.
    app.post(
      '/ntrip-accounts/:id/test-connection',
      {
        config: { ...user, rateLimit: { max: CONNECTION_TESTS_PER_MINUTE, timeWindow: '1 minute' } },
        schema: {
          tags,
          params: ntripAccountParamsSchema,
          body: connectionTestBodySchema,
          response: { 200: connectionTestResultSchema },
        },
      },
      async (request) => service.testConnection(actorOf(request), request.params.id, request.body),
    );

    app.get(
      '/ntrip-accounts/:id/sessions',
      {
        config: usage,
        schema: {
          tags,
          params: ntripAccountParamsSchema,
          querystring: sessionPageQuerySchema,
          response: { 200: ntripSessionPageSchema },
        },
      },
      async (request) => service.sessions(actorOf(request), request.params.id, request.query),
    );

    app.get(
      '/ntrip-accounts/:id/sessions.csv',
      { config: usage, schema: { tags, params: ntripAccountParamsSchema, response: { 200: z.string() } } },
      async (request, reply) => {
        const { filename, body } = await service.sessionsCsv(actorOf(request), request.params.id);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('cache-control', 'no-store')
          .send(body);
      },
    );

    // Spec §7: activates tokens (spec §3 token activation).
    app.post(
      '/tokens',
      {
        config: { ...user, apiKey: 'activations:write', idempotent: true },
        schema: { tags, body: tokenActivationBodySchema, response: { 201: tokenActivationSchema } },
      },
      async (request, reply) => reply.status(201).send(await service.activate(actorOf(request), request.body)),
    );

    // --- admin ---
    app.get(
      '/admin/ntrip-accounts',
      {
        config: admin,
        schema: { tags, querystring: adminNtripAccountQuerySchema, response: { 200: adminNtripAccountPageSchema } },
      },
      async (request) => service.adminList(actorOf(request), request.query),
    );

    app.post(
      '/admin/ntrip-accounts',
      {
        config: admin,
        schema: {
          tags,
          body: adminCreateNtripAccountBodySchema,
          response: { 201: ntripAccountWithPasswordSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.adminCreate(actorOf(request), request.body, auditWho(request))),
    );

    app.post(
      '/admin/ntrip-accounts/:id/password',
      {
        config: admin,
        schema: { tags, params: ntripAccountParamsSchema, response: { 200: ntripAccountWithPasswordSchema } },
      },
      async (request) => service.adminRegeneratePassword(actorOf(request), request.params.id, auditWho(request)),
    );

    app.delete(
      '/admin/ntrip-accounts/:id',
      { config: admin, schema: { tags, params: ntripAccountParamsSchema } },
      async (request, reply) => {
        await service.adminRemove(actorOf(request), request.params.id, auditWho(request));
        return reply.status(204).send();
      },
    );

    app.get(
      '/admin/ntrip-accounts/:id/sessions',
      {
        config: admin,
        schema: {
          tags,
          params: ntripAccountParamsSchema,
          querystring: sessionPageQuerySchema,
          response: { 200: ntripSessionPageSchema },
        },
      },
      async (request) => service.adminSessions(actorOf(request), request.params.id, request.query),
    );

    app.patch(
      '/admin/ntrip-accounts/:id',
      {
        config: admin,
        schema: {
          tags,
          params: ntripAccountParamsSchema,
          body: adminUpdateNtripAccountBodySchema,
          response: { 200: adminNtripAccountSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        return app.audit.around(
          request,
          {
            action: 'ntrip_account.update',
            target: { type: 'ntrip_account', id },
            before: () => service.adminGet(actorOf(request), id),
          },
          () => service.adminSetEnabled(actorOf(request), id, request.body.enabled),
        );
      },
    );

    app.put(
      '/admin/ntrip-accounts/:id/max-connections',
      {
        config: admin,
        schema: {
          tags,
          params: ntripAccountParamsSchema,
          body: adminMaxConnectionsBodySchema,
          response: { 200: adminNtripAccountSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        return app.audit.around(
          request,
          {
            action: 'ntrip_account.update',
            target: { type: 'ntrip_account', id },
            before: () => service.adminGet(actorOf(request), id),
          },
          () => service.adminSetMaxConnections(actorOf(request), id, request.body.maxConnections),
        );
      },
    );

    app.post(
      '/admin/ntrip-accounts/:id/grants',
      {
        config: { ...admin, idempotent: true },
        schema: {
          tags,
          params: ntripAccountParamsSchema,
          body: manualGrantBodySchema,
          response: { 201: accountGrantSchema },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const grant = await app.audit.around(
          request,
          { action: 'ntrip_account.grant', target: { type: 'ntrip_account', id } },
          () => service.adminGrant(actorOf(request), id, request.body),
        );
        return reply.status(201).send(grant);
      },
    );
  };
}
