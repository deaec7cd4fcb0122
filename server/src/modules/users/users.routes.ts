import {
  acceptTermsBodySchema,
  type Team,
  termsAcceptanceSchema,
  USER_PHOTO_MAX_BYTES,
  USER_PHOTO_TYPES,
  userInfoSchema,
  userPhotoResponseSchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../http/auth.ts';
import type { Actor } from '../../shared/actor.ts';
import { notFound } from '../../shared/errors.ts';
import { iso } from '../../shared/iso.ts';
import { type AccountService, unsupportedImage } from './account.service.ts';
import type { UsersRepo } from './users.repo.ts';

export function usersRoutes(deps: {
  teamsOf(actor: Actor): Promise<Team[]>;
  users: Pick<UsersRepo, 'acceptTerms'>;
  /** Photo upload; without it only GET /user and POST /user/terms exist. */
  account?: AccountService;
  /** PUBLIC_URL: photo addresses are built on it, never on the request's (client-set) Host or X-Forwarded-Host. */
  publicUrl: string;
}): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/user',
      { config: { auth: 'user' }, schema: { tags: ['user'], response: { 200: userInfoSchema } } },
      async (request) => {
        const actor = actorOf(request);
        const { termsAcceptedAt } = actor;
        return {
          teams: await deps.teamsOf(actor),
          isAdmin: actor.isAdmin,
          termsAcceptedAt: termsAcceptedAt && iso(termsAcceptedAt),
          termsVersion: actor.termsVersion ?? null,
        };
      },
    );

    app.post(
      '/user/terms',
      {
        config: { auth: 'user' },
        schema: { tags: ['user'], body: acceptTermsBodySchema, response: { 200: termsAcceptanceSchema } },
      },
      async (request) => ({
        termsAcceptedAt: iso(await deps.users.acceptTerms(actorOf(request).userId, request.body.version)),
      }),
    );

    const account = deps.account;
    if (!account) return;

    // Photos arrive as the raw image (Content-Type image/png…), never multipart; only in this plugin.
    app.addContentTypeParser(
      [...USER_PHOTO_TYPES],
      { parseAs: 'buffer', bodyLimit: USER_PHOTO_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );

    app.post(
      '/user/photo',
      {
        config: { auth: 'user' },
        schema: {
          tags: ['user'],
          description: `Raw image body (${USER_PHOTO_TYPES.join(', ')}), at most ${USER_PHOTO_MAX_BYTES} bytes.`,
          response: { 200: userPhotoResponseSchema },
        },
      },
      async (request) => {
        if (!Buffer.isBuffer(request.body)) throw unsupportedImage();
        const base = `${deps.publicUrl.replace(/\/$/, '')}/api`;
        return account.setPhoto(actorOf(request), request.headers['content-type'] ?? '', request.body, base);
      },
    );

    app.delete('/user/photo', { config: { auth: 'user' }, schema: { tags: ['user'] } }, async (request, reply) => {
      await account.removePhoto(actorOf(request));
      return reply.status(204).send();
    });

    app.get(
      '/users/:userId/photo',
      { schema: { tags: ['user'], params: z.object({ userId: z.uuid() }) } },
      async (request, reply) => {
        const photo = await account.photo(request.params.userId);
        if (!photo) throw notFound('Photo');
        const etag = `"${photo.sha256}"`;
        reply
          .header('etag', etag)
          .header('cache-control', 'public, max-age=300')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'");
        if (request.headers['if-none-match'] === etag) return reply.status(304).send();
        return reply.type(photo.content_type).send(Buffer.from(photo.bytes));
      },
    );
  };
}
