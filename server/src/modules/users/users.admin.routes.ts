import {
  ADMIN_CUSTOMER_LEDGER_ENTRIES,
  type AdminCustomer,
  type AdminUser,
  adminCustomerSchema,
  adminUserParamsSchema,
  adminUserPatchSchema,
  adminUserSchema,
  adminUsersPageSchema,
  adminUsersQuerySchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../http/auth.ts';
import { conflict, notFound } from '../../shared/errors.ts';
import { iso } from '../../shared/iso.ts';
import { auditWho, recordAudit } from '../audit/index.ts';
import { canChangeUserFlags } from './users.policy.ts';
import type { UsersRepo } from './users.repo.ts';

type UserRow = Awaited<ReturnType<UsersRepo['list']>>['items'][number];

const present = (u: UserRow): AdminUser => ({
  id: u.id,
  email: u.email,
  displayName: u.display_name,
  isAdmin: u.is_admin,
  disabled: u.disabled,
  createdAt: iso(u.created_at),
});

/** What the customer page reads from the modules that own it (billing, organisations). */
export interface CustomerSources {
  billing(
    userId: string,
    ledgerEntries: number,
  ): Promise<Pick<AdminCustomer, 'tokenAmount' | 'ledger' | 'subscriptions'>>;
  organizations(userId: string): Promise<AdminCustomer['organizations']>;
  ntripAccounts(userId: string): Promise<AdminCustomer['ntripAccounts']>;
  invoices(userId: string): Promise<AdminCustomer['invoices']>;
  billingDetails(userId: string): Promise<AdminCustomer['billingDetails']>;
}

/** The admin back office's users: search, one customer's page, and the admin and disabled flags of other users. */
export function adminUsersRoutes(users: UsersRepo, sources: CustomerSources): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/admin/users/:userId',
      {
        config: { auth: 'admin' },
        schema: { tags: ['admin'], params: adminUserParamsSchema, response: { 200: adminCustomerSchema } },
      },
      async (request): Promise<AdminCustomer> => {
        const { userId } = request.params;
        const row = await users.findAdminView(userId);
        if (!row) throw notFound('User');
        const [billing, organizations, ntripAccounts, invoices, billingDetails] = await Promise.all([
          sources.billing(userId, ADMIN_CUSTOMER_LEDGER_ENTRIES),
          sources.organizations(userId),
          sources.ntripAccounts(userId),
          sources.invoices(userId),
          sources.billingDetails(userId),
        ]);
        return {
          user: { ...present(row), termsAcceptedAt: row.terms_accepted_at ? iso(row.terms_accepted_at) : null },
          ...billing,
          organizations,
          ntripAccounts,
          invoices,
          billingDetails,
        };
      },
    );

    app.get(
      '/admin/users',
      {
        config: { auth: 'admin' },
        schema: { tags: ['admin'], querystring: adminUsersQuerySchema, response: { 200: adminUsersPageSchema } },
      },
      async (request) => {
        const page = await users.list(request.query);
        const { limit, offset } = request.query;
        return { items: page.items.map(present), total: page.total, limit, offset };
      },
    );

    app.patch(
      '/admin/users/:userId',
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['admin'],
          params: adminUserParamsSchema,
          body: adminUserPatchSchema,
          response: { 200: adminUserSchema },
        },
      },
      async (request) => {
        if (!canChangeUserFlags(actorOf(request), request.params.userId)) {
          throw conflict('cannot_change_self', 'You cannot change your own admin or disabled flag.');
        }
        const { userId } = request.params;
        const row = await users.transaction(async (trx) => {
          const before = await users.findAdminView(userId, trx, true);
          if (!before) throw notFound('User');
          const after = await users.updateFlags(userId, request.body, trx);
          if (!after) throw notFound('User');
          await recordAudit(trx, {
            ...auditWho(request),
            action: 'user.update',
            target: { type: 'user', id: userId },
            before: { isAdmin: before.is_admin, disabled: before.disabled },
            after: { isAdmin: after.is_admin, disabled: after.disabled },
          });
          return after;
        });
        return present(row);
      },
    );
  };
}
