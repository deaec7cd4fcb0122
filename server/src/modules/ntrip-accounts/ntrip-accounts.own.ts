import {
  type AccountMountpoint,
  CONNECTION_TEST_SECONDS,
  type ConnectionTestResult,
  NEAR_MOUNTPOINT_SUFFIX,
  type NtripAccount,
  type NtripAccountWithPassword,
  type NtripSessionPage,
  nearMountpoint,
  type PageWindow,
  SESSION_CSV_COLUMNS,
} from '@portal/contract';
import type { Actor } from '../../shared/actor.ts';
import { conflict, forbidden, notFound } from '../../shared/errors.ts';
import { hashPassword } from '../../shared/password-hash.ts';
import { issueProbeToken } from '../ntrip/index.ts';
import { readSettings } from '../settings/index.ts';
import { testCasterConnection } from './connection-test.ts';
import {
  type AccountsCore,
  CSV_ROW_LIMIT,
  csvCell,
  emptyResult,
  presentOutcome,
  thousandths,
  toSession,
} from './ntrip-accounts.core.ts';
import { generatePassword } from './ntrip-accounts.credentials.ts';
import { canManageOrganizationAccount } from './ntrip-accounts.policy.ts';
import type { AccountChanges, GrantRow } from './ntrip-accounts.repo.ts';

/** The customer's own accounts and their organisations' accounts: listing, creating, changing, testing, sessions. */
export function createOwnAccounts(core: AccountsCore) {
  const { deps, repo, clock, notify, present, presentOne, access, insertWithFreshUsername } = core;
  return {
    async list(actor: Actor): Promise<NtripAccount[]> {
      return present(await repo.listByOwner(actor.userId));
    },

    async get(actor: Actor, id: string): Promise<NtripAccount> {
      const { row, org } = await access(actor, id, 'read');
      return presentOne(row, org);
    },

    async create(actor: Actor, label: string): Promise<NtripAccountWithPassword> {
      const password = generatePassword();
      // Hashed before the transaction: the owner's lock is held only for the count and the insert.
      const passwordHash = await hashPassword(password);
      const row = await repo.transaction(async (trx) => {
        // Without the lock concurrent creations all count the same total and all insert (issue 16: 87 of 50).
        await repo.lockUser(actor.userId, trx);
        const settings = await readSettings(trx);
        if ((await repo.countByOwner(actor.userId, trx)) >= settings.ntripAccountsPerUser) {
          throw conflict(
            'account_limit_reached',
            `You can have at most ${settings.ntripAccountsPerUser} NTRIP accounts.`,
          );
        }
        return insertWithFreshUsername(
          actor.userId,
          { organizationId: null, label, passwordHash, maxConnections: settings.defaultConnectionsPerAccount },
          trx,
        );
      });
      return { account: await presentOne(row), password };
    },

    /** The organisation's accounts, for its members; the caller's role says whether they may change them. */
    async listOfOrganization(actor: Actor, orgId: string): Promise<NtripAccount[]> {
      const membership = await repo.organizationRole(orgId, actor.userId);
      if (!membership?.role) throw notFound('Organisation');
      const canManage = canManageOrganizationAccount(membership.role);
      const rows = await repo.listByOrganization(orgId);
      const views = new Map(
        rows.map((r) => [
          r.id,
          { id: orgId, name: membership.name, holderEmail: r.holder_email, canManage, viewerId: actor.userId },
        ]),
      );
      return present(rows, views);
    },

    /**
     * An organisation's account, made by an owner or admin for a member (themselves unless `holderId` says who).
     * The password is answered once, to the maker, who passes it to that member.
     */
    async createForOrganization(
      actor: Actor,
      orgId: string,
      body: { label: string; holderId?: string },
    ): Promise<NtripAccountWithPassword> {
      const password = generatePassword();
      const passwordHash = await hashPassword(password);
      const holderId = body.holderId ?? actor.userId;
      const { row, view } = await repo.transaction(async (trx) => {
        const membership = await repo.organizationRole(orgId, actor.userId, trx, true);
        if (!membership?.role) throw notFound('Organisation');
        if (!canManageOrganizationAccount(membership.role)) {
          throw forbidden('Only owners and admins of the organisation may do this.');
        }
        if (!(await repo.organizationRole(orgId, holderId, trx))?.role) throw notFound('Member');
        // The same limits as one user's (docs/adr/0028): accounts per user, connections per account.
        const settings = await readSettings(trx);
        if ((await repo.countByOrganization(orgId, trx)) >= settings.ntripAccountsPerUser) {
          throw conflict(
            'account_limit_reached',
            `An organisation can have at most ${settings.ntripAccountsPerUser} NTRIP accounts.`,
          );
        }
        const row = await insertWithFreshUsername(
          holderId,
          {
            organizationId: orgId,
            label: body.label,
            passwordHash,
            maxConnections: settings.defaultConnectionsPerAccount,
          },
          trx,
        );
        const holderEmail = await repo.userEmail(holderId, trx);
        return { row, view: { id: orgId, name: membership.name, holderEmail, canManage: true } };
      });
      return { account: await presentOne(row, view), password };
    },

    async update(
      actor: Actor,
      id: string,
      changes: Pick<AccountChanges, 'label' | 'enabled' | 'rtcmProfile' | 'constellations'>,
    ): Promise<NtripAccount> {
      const { row: before, org } = await access(actor, id, 'manage');
      const row = await repo.update(id, changes, clock());
      if (!row) throw notFound('NTRIP account');
      if (changes.enabled !== undefined && changes.enabled !== before.enabled) {
        await notify(row, changes.enabled ? 'enabled' : 'disabled');
      }
      if (
        row.rtcm_profile !== before.rtcm_profile ||
        (row.constellations ?? []).join() !== (before.constellations ?? []).join()
      ) {
        await notify(row, 'profile');
      }
      return presentOne(row, org);
    },

    async regeneratePassword(actor: Actor, id: string): Promise<NtripAccountWithPassword> {
      const { org } = await access(actor, id, 'password');
      const password = generatePassword();
      const row = await repo.update(id, { passwordHash: await hashPassword(password) }, clock());
      if (!row) throw notFound('NTRIP account');
      await notify(row, 'password');
      return { account: await presentOne(row, org), password };
    },

    /** Soft delete: the row stays for the connection log; its own grants end; open connections are closed. */
    async remove(actor: Actor, id: string): Promise<void> {
      const row = await repo.transaction(async (trx) => {
        const { row: account } = await access(actor, id, 'manage', trx, true);
        const now = clock();
        await repo.endGrantsOfAccount(id, now, trx);
        await repo.softDelete(id, now, trx);
        return account;
      });
      await notify(row, 'deleted');
    },

    async mountpoints(actor: Actor, id: string): Promise<AccountMountpoint[]> {
      const { row: account } = await access(actor, id, 'read');
      const now = clock();
      const grants = (await repo.openGrants([account], now)).filter(
        (g) => new Date(g.valid_from) <= now && new Date(g.valid_until) > now,
      );
      const networks = new Map<string, GrantRow>();
      for (const g of grants) if (!networks.has(g.network_id)) networks.set(g.network_id, g);
      const stations = await repo.stationsOf([...networks.keys()]);
      const items: AccountMountpoint[] = [];
      for (const net of [...networks.values()].sort((a, b) => a.network_name.localeCompare(b.network_name))) {
        const own = stations.filter((s) => s.network_id === net.network_id);
        items.push({
          mountpoint: nearMountpoint(net.network_slug),
          kind: 'near',
          networkSlug: net.network_slug,
          networkName: net.network_name,
          identifier: '',
          online: own.some((s) => s.status === 'online'),
          latitude: null,
          longitude: null,
        });
        for (const s of own) {
          items.push({
            mountpoint: s.mountpoint,
            kind: 'station',
            networkSlug: net.network_slug,
            networkName: net.network_name,
            identifier: s.identifier,
            online: s.status === 'online',
            latitude: Number(s.latitude),
            longitude: Number(s.longitude),
          });
        }
      }
      return items;
    },

    /**
     * Issue 17 "Test connection": logs in to the caster as this account on `mountpoint` with a one-time token (the
     * user's password is only stored hashed), listens for up to CONNECTION_TEST_SECONDS and reports what came.
     * The caster counts it as one of the account's connections and logs it as a session (ADR 0040).
     */
    async testConnection(
      actor: Actor,
      id: string,
      body: { mountpoint: string; position?: { latitude: number; longitude: number } },
    ): Promise<ConnectionTestResult> {
      const { row: account } = await access(actor, id, 'read');
      const settings = deps.connectionTest;
      if (!settings) return emptyResult(body.mountpoint, 'caster_unreachable');
      // Without a position a nearest-station mountpoint would answer 200 and send nothing for the whole test.
      if (body.mountpoint.toUpperCase().endsWith(NEAR_MOUNTPOINT_SUFFIX) && !body.position) {
        return emptyResult(body.mountpoint, 'needs_position');
      }
      const outcome = await testCasterConnection({
        caster: settings.caster,
        username: account.username,
        password: issueProbeToken(settings.feedSecretKey, account.username, body.mountpoint),
        mountpoint: body.mountpoint,
        position: body.position,
        durationMs: Math.min(settings.durationMs ?? CONNECTION_TEST_SECONDS * 1000, CONNECTION_TEST_SECONDS * 1000),
      });
      return presentOutcome(outcome, account);
    },

    async sessions(actor: Actor, id: string, page: PageWindow): Promise<NtripSessionPage> {
      const { row: account } = await access(actor, id, 'read');
      const now = clock();
      const [rows, total] = await Promise.all([
        repo.sessions(account.id, page.limit, page.offset),
        repo.countSessions(account.id),
      ]);
      return { items: rows.map((r) => toSession(r, now)), total, ...page };
    },

    async sessionsCsv(actor: Actor, id: string): Promise<{ filename: string; body: string }> {
      const { row: account } = await access(actor, id, 'read');
      const now = clock();
      const rows = await repo.sessions(account.id, CSV_ROW_LIMIT, 0);
      const lines = [SESSION_CSV_COLUMNS.join(',')];
      for (const row of rows) {
        const s = toSession(row, now);
        lines.push(
          [
            s.startedAt,
            s.endedAt,
            s.durationSeconds,
            s.mountpoint,
            s.bytesSent,
            s.endReason,
            s.lastPosition?.latitude ?? null,
            s.lastPosition?.longitude ?? null,
            s.remoteAddress,
            s.userAgent,
            s.servedStation,
            thousandths(s.distanceKm),
            thousandths(s.fixedShare),
            thousandths(s.floatShare),
          ]
            .map(csvCell)
            .join(','),
        );
      }
      return { filename: `ntrip-sessions-${account.username}.csv`, body: `${lines.join('\r\n')}\r\n` };
    },

    // --- admin ---
  };
}
