import { adminPortalSettingsSchema, portalSettingsPatchSchema, signUpPolicySchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../http/auth.ts';
import { auditWho } from '../audit/index.ts';
import type { SettingsService } from './settings.service.ts';

export function settingsRoutes(service: SettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/sign-up', { schema: { tags: ['settings'], response: { 200: signUpPolicySchema } } }, async () =>
      service.signUpPolicy(),
    );

    app.get(
      '/admin/settings',
      { config: { auth: 'admin' }, schema: { tags: ['admin'], response: { 200: adminPortalSettingsSchema } } },
      async () => service.get(),
    );

    app.patch(
      '/admin/settings',
      {
        config: { auth: 'admin' },
        schema: { tags: ['admin'], body: portalSettingsPatchSchema, response: { 200: adminPortalSettingsSchema } },
      },
      async (request) => service.update({ ...auditWho(request), actor: actorOf(request) }, request.body),
    );
  };
}
