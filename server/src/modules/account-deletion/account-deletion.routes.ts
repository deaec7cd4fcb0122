import { deleteOrganizationBodySchema, organizationChangedSchema, organizationParamsSchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../http/auth.ts';
import type { AccountDeletion } from './account-deletion.service.ts';

export function accountDeletionRoutes(deletion: AccountDeletion): FastifyPluginAsyncZod {
  return async (app) => {
    app.delete('/user', { config: { auth: 'user' }, schema: { tags: ['user'] } }, async (request, reply) => {
      await deletion.deleteAccount(actorOf(request));
      return reply.status(204).send();
    });

    app.delete(
      '/org/:orgId',
      {
        config: { auth: 'user' },
        schema: {
          tags: ['organizations'],
          params: organizationParamsSchema,
          body: deleteOrganizationBodySchema,
          response: { 200: organizationChangedSchema },
        },
      },
      async (request) => {
        await deletion.deleteOrganization(actorOf(request), request.params.orgId, request.body.name);
        return { success: true as const };
      },
    );
  };
}
