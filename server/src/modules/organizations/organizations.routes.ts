import {
  acceptInviteLinkBodySchema,
  acceptInviteLinkResponseSchema,
  adminOrganizationSchema,
  createOrganizationBodySchema,
  createOrganizationResponseSchema,
  declineInviteLinkBodySchema,
  inviteActionBodySchema,
  inviteCreatedResponseSchema,
  inviteEmailBodySchema,
  inviteLinkPreviewSchema,
  memberRefBodySchema,
  memberSchema,
  myInviteSchema,
  organizationChangedSchema,
  organizationParamsSchema,
  organizationSchema,
  organizationTokensSchema,
  organizationTokenTransferBodySchema,
  orgInviteSchema,
  previewInviteLinkBodySchema,
  renameOrganizationBodySchema,
  updateMemberBodySchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../http/auth.ts';
import type { OrganizationsService } from './organizations.service.ts';

const user = { auth: 'user' as const };
const tags = ['organizations'];

export function organizationsRoutes(service: OrganizationsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/organization',
      {
        config: user,
        schema: { tags, body: createOrganizationBodySchema, response: { 201: createOrganizationResponseSchema } },
      },
      async (request, reply) => {
        const value = await service.create(actorOf(request), request.body.name);
        return reply.status(201).send({ success: true, value });
      },
    );

    app.get(
      '/org/:orgId',
      { config: user, schema: { tags, params: organizationParamsSchema, response: { 200: organizationSchema } } },
      (request) => service.get(actorOf(request), request.params.orgId),
    );

    app.get(
      '/org/:orgId/members',
      { config: user, schema: { tags, params: organizationParamsSchema, response: { 200: z.array(memberSchema) } } },
      (request) => service.members(actorOf(request), request.params.orgId),
    );

    app.put(
      '/org/:orgId/members',
      {
        config: user,
        schema: {
          tags,
          params: organizationParamsSchema,
          body: updateMemberBodySchema,
          response: { 200: organizationChangedSchema },
        },
      },
      async (request) => {
        await service.updateMember(actorOf(request), request.params.orgId, request.body);
        return { success: true as const };
      },
    );

    app.delete(
      '/org/:orgId/members',
      {
        config: user,
        schema: {
          tags,
          params: organizationParamsSchema,
          body: memberRefBodySchema,
          response: { 200: organizationChangedSchema },
        },
      },
      async (request) => {
        await service.removeMember(actorOf(request), request.params.orgId, request.body.forMember);
        return { success: true as const };
      },
    );

    app.post(
      '/org/:orgId/leave',
      {
        config: user,
        schema: { tags, params: organizationParamsSchema, response: { 200: organizationChangedSchema } },
      },
      async (request) => {
        await service.leave(actorOf(request), request.params.orgId);
        return { success: true as const };
      },
    );

    app.post(
      '/org/:orgId/transfer',
      {
        config: user,
        schema: {
          tags,
          params: organizationParamsSchema,
          body: memberRefBodySchema,
          response: { 200: organizationChangedSchema },
        },
      },
      async (request) => {
        await service.transferOwnership(actorOf(request), request.params.orgId, request.body.forMember);
        return { success: true as const };
      },
    );

    app.patch(
      '/org/:orgId',
      {
        config: user,
        schema: {
          tags,
          params: organizationParamsSchema,
          body: renameOrganizationBodySchema,
          response: { 200: organizationChangedSchema },
        },
      },
      async (request) => {
        await service.rename(actorOf(request), request.params.orgId, request.body.name);
        return { success: true as const };
      },
    );

    app.get(
      '/org/:orgId/tokens',
      {
        config: { ...user, apiKey: 'usage:read' },
        schema: { tags, params: organizationParamsSchema, response: { 200: organizationTokensSchema } },
      },
      async (request) => ({ tokenAmount: await service.tokenAmount(actorOf(request), request.params.orgId) }),
    );

    app.post(
      '/org/:orgId/tokens',
      {
        config: { ...user, idempotent: true },
        schema: {
          tags,
          params: organizationParamsSchema,
          body: organizationTokenTransferBodySchema,
          response: { 200: organizationTokensSchema },
        },
      },
      async (request) => ({
        tokenAmount: await service.transferTokens(actorOf(request), request.params.orgId, request.body.tokenAmount),
      }),
    );

    app.get(
      '/org/:orgId/invites',
      { config: user, schema: { tags, params: organizationParamsSchema, response: { 200: z.array(orgInviteSchema) } } },
      (request) => service.invites(actorOf(request), request.params.orgId),
    );

    app.post(
      '/org/:orgId/invites',
      {
        config: user,
        schema: {
          tags,
          params: organizationParamsSchema,
          body: inviteEmailBodySchema,
          response: { 201: inviteCreatedResponseSchema },
        },
      },
      async (request, reply) => {
        const { link, mailed } = await service.invite(actorOf(request), request.params.orgId, request.body.email);
        return reply.status(201).send({ success: true, link, mailed });
      },
    );

    app.delete(
      '/org/:orgId/invites',
      {
        config: user,
        schema: {
          tags,
          params: organizationParamsSchema,
          body: inviteEmailBodySchema,
          response: { 200: organizationChangedSchema },
        },
      },
      async (request) => {
        await service.revokeInvite(actorOf(request), request.params.orgId, request.body.email);
        return { success: true as const };
      },
    );

    app.get(
      '/admin/organizations',
      { config: { auth: 'admin' }, schema: { tags: ['admin'], response: { 200: z.array(adminOrganizationSchema) } } },
      () => service.listAll(),
    );

    app.get('/invites', { config: user, schema: { tags, response: { 200: z.array(myInviteSchema) } } }, (request) =>
      service.myInvites(actorOf(request)),
    );

    app.put(
      '/invites',
      { config: user, schema: { tags, body: inviteActionBodySchema, response: { 200: organizationChangedSchema } } },
      async (request) => {
        await service.answerInvite(actorOf(request), request.body);
        return { success: true as const };
      },
    );

    app.post(
      '/invites/accept',
      {
        config: user,
        schema: { tags, body: acceptInviteLinkBodySchema, response: { 200: acceptInviteLinkResponseSchema } },
      },
      (request) => service.acceptInviteLink(actorOf(request), request.body.token),
    );

    // Without an account: the link's holder sees whose invitation it is before logging in or signing up. The
    // token is a 256-bit secret, so a guess finds nothing; the global rate limit bounds the guessing anyway.
    app.post(
      '/invites/preview',
      {
        config: { auth: 'public' },
        schema: { tags, body: previewInviteLinkBodySchema, response: { 200: inviteLinkPreviewSchema } },
      },
      (request) => service.previewInviteLink(request.body.token),
    );

    app.post(
      '/invites/decline',
      {
        config: user,
        schema: { tags, body: declineInviteLinkBodySchema, response: { 200: organizationChangedSchema } },
      },
      async (request) => {
        await service.declineInviteLink(actorOf(request), request.body.token);
        return { success: true as const };
      },
    );
  };
}
