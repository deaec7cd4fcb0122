import type {
  AccountGrant,
  AdminNtripAccount,
  AdminNtripAccountPage,
  NtripAccount,
  NtripAccountWithPassword,
  NtripSessionPage,
  PageWindow,
} from '@portal/contract';
import type { Actor } from '../../shared/actor.ts';
import { conflict, forbidden, notFound } from '../../shared/errors.ts';
import { hashPassword } from '../../shared/password-hash.ts';
import { type AuditWho, recordAudit } from '../audit/index.ts';
import { readSettings } from '../settings/index.ts';
import { type AccountsCore, auditView, toSession } from './ntrip-accounts.core.ts';
import { generatePassword } from './ntrip-accounts.credentials.ts';
import { canAdministerAccounts } from './ntrip-accounts.policy.ts';

/** The back office's accounts: the list, one account's page, its flags, manual grants, and the customer pages' lists. */
export function createAdminAccounts(core: AccountsCore) {
  const { repo, clock, notify, present, presentOne, insertWithFreshUsername, grantDays, grantOf } = core;
  return {
    async adminList(actor: Actor, query: PageWindow & { search?: string }): Promise<AdminNtripAccountPage> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const { rows, total } = await repo.adminSearch(query.search || undefined, query.limit, query.offset);
      const presented = await present(rows);
      const items: AdminNtripAccount[] = presented.map((a, i) => ({
        ...a,
        ownerUserId: rows[i]?.owner_user_id ?? '',
        ownerEmail: rows[i]?.owner_email ?? null,
      }));
      return { items, total, limit: query.limit, offset: query.offset };
    },

    async adminGet(actor: Actor, id: string): Promise<AdminNtripAccount> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const row = await repo.findWithOwner(id);
      if (!row) throw notFound('NTRIP account');
      return { ...(await presentOne(row)), ownerUserId: row.owner_user_id, ownerEmail: row.owner_email };
    },

    async adminSetEnabled(actor: Actor, id: string, enabled: boolean): Promise<AdminNtripAccount> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const before = await repo.findWithOwner(id);
      if (!before) throw notFound('NTRIP account');
      const row = await repo.update(id, { enabled }, clock());
      if (!row) throw notFound('NTRIP account');
      if (before.enabled !== enabled) await notify(row, enabled ? 'enabled' : 'disabled');
      return { ...(await presentOne(row)), ownerUserId: before.owner_user_id, ownerEmail: before.owner_email };
    },

    async adminSetMaxConnections(actor: Actor, id: string, maxConnections: number): Promise<AdminNtripAccount> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const before = await repo.findWithOwner(id);
      if (!before) throw notFound('NTRIP account');
      const row = await repo.update(id, { maxConnections }, clock());
      if (!row) throw notFound('NTRIP account');
      // A cached decision carries the old limit and would let a rover past the new one until it expires.
      if (before.max_connections !== maxConnections) await notify(row, 'limit');
      return { ...(await presentOne(row)), ownerUserId: before.owner_user_id, ownerEmail: before.owner_email };
    },

    /** A support case: access to a network for some days, from now, without spending tokens. */
    async adminGrant(actor: Actor, id: string, body: { networkId: string; days: number }): Promise<AccountGrant> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const { account, grantId } = await repo.transaction(async (trx) => {
        const account = await repo.find(id, trx, true);
        if (!account) throw notFound('NTRIP account');
        const network = await repo.network(body.networkId, trx);
        if (!network) throw notFound('Network');
        const { grantId } = await grantDays(account, network.id, body.days, 'manual', trx);
        return { account, grantId };
      });
      await notify(account, 'grant');
      return grantOf(account, grantId);
    },

    /** The back office's view of one customer's accounts: their own list, as they see it. */
    async accountsOfCustomer(ownerUserId: string): Promise<NtripAccount[]> {
      return present(await repo.listByOwner(ownerUserId));
    },

    /** An organisation's accounts for the back office, with their holders; an admin may change each of them. */
    async accountsOfOrganization(orgId: string, name: string): Promise<NtripAccount[]> {
      const rows = await repo.listByOrganization(orgId);
      return present(
        rows,
        new Map(rows.map((r) => [r.id, { id: orgId, name, holderEmail: r.holder_email, canManage: true }])),
      );
    },

    /** An account made by an admin for a customer, under the customer's limit; its password is shown once. */
    async adminCreate(
      actor: Actor,
      body: { ownerUserId: string; label: string },
      who: AuditWho,
    ): Promise<NtripAccountWithPassword> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const password = generatePassword();
      const passwordHash = await hashPassword(password);
      const row = await repo.transaction(async (trx) => {
        if (!(await repo.lockUser(body.ownerUserId, trx))) throw notFound('User');
        const settings = await readSettings(trx);
        if ((await repo.countByOwner(body.ownerUserId, trx)) >= settings.ntripAccountsPerUser) {
          throw conflict(
            'account_limit_reached',
            `A customer can have at most ${settings.ntripAccountsPerUser} NTRIP accounts.`,
          );
        }
        const created = await insertWithFreshUsername(
          body.ownerUserId,
          {
            organizationId: null,
            label: body.label,
            passwordHash,
            maxConnections: settings.defaultConnectionsPerAccount,
          },
          trx,
        );
        await recordAudit(trx, {
          ...who,
          action: 'ntrip_account.create',
          target: { type: 'ntrip_account', id: created.id },
          after: auditView(created),
        });
        return created;
      });
      return { account: await presentOne(row), password };
    },

    async adminRegeneratePassword(actor: Actor, id: string, who: AuditWho): Promise<NtripAccountWithPassword> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const password = generatePassword();
      const passwordHash = await hashPassword(password);
      const row = await repo.transaction(async (trx) => {
        if (!(await repo.find(id, trx, true))) throw notFound('NTRIP account');
        const changed = await repo.update(id, { passwordHash }, clock(), trx);
        if (!changed) throw notFound('NTRIP account');
        // The password itself is never logged; the entry says that it changed.
        await recordAudit(trx, {
          ...who,
          action: 'ntrip_account.reset_password',
          target: { type: 'ntrip_account', id },
          after: auditView(changed),
        });
        return changed;
      });
      await notify(row, 'password');
      return { account: await presentOne(row), password };
    },

    /** Soft delete as the owner's delete does: grants end, open connections close, the log stays. */
    async adminRemove(actor: Actor, id: string, who: AuditWho): Promise<void> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const row = await repo.transaction(async (trx) => {
        const account = await repo.find(id, trx, true);
        if (!account) throw notFound('NTRIP account');
        const now = clock();
        await repo.endGrantsOfAccount(id, now, trx);
        await repo.softDelete(id, now, trx);
        await recordAudit(trx, {
          ...who,
          action: 'ntrip_account.delete',
          target: { type: 'ntrip_account', id },
          before: auditView(account),
        });
        return account;
      });
      await notify(row, 'deleted');
    },

    /** Any live account's connection log, newest first. */
    async adminSessions(actor: Actor, id: string, page: PageWindow): Promise<NtripSessionPage> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const account = await repo.findWithOwner(id);
      if (!account) throw notFound('NTRIP account');
      const now = clock();
      const [rows, total] = await Promise.all([
        repo.sessions(account.id, page.limit, page.offset),
        repo.countSessions(account.id),
      ]);
      return { items: rows.map((r) => toSession(r, now)), total, ...page };
    },
  };
}
