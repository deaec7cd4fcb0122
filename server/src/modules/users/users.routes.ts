import { userInfoSchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../http/auth.ts';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user',
    { config: { auth: 'user' }, schema: { tags: ['user'], response: { 200: userInfoSchema } } },
    async (request) => {
      const actor = actorOf(request);
      return { teams: [], isAdmin: actor.isAdmin };
    },
  );
};
