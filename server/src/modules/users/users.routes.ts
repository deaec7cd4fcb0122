import { type Team, userInfoSchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Actor, actorOf } from '../../http/auth.ts';

export function usersRoutes(deps: { teamsOf(actor: Actor): Promise<Team[]> }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/user',
      { config: { auth: 'user' }, schema: { tags: ['user'], response: { 200: userInfoSchema } } },
      async (request) => {
        const actor = actorOf(request);
        return { teams: await deps.teamsOf(actor), isAdmin: actor.isAdmin };
      },
    );
  };
}
