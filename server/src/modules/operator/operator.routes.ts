import { operatorDashboardSchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { OperatorService } from './operator.service.ts';

export function operatorRoutes(service: OperatorService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/admin/operator',
      { config: { auth: 'admin' }, schema: { tags: ['admin'], response: { 200: operatorDashboardSchema } } },
      async () => service.dashboard(),
    );
  };
}
