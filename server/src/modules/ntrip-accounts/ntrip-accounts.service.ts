import { randomUUID } from 'node:crypto';
import type { LedgerNoteCode } from '@portal/contract';
import {
  type AccountGrant,
  type AccountMountpoint,
  type AdminNtripAccount,
  type AdminNtripAccountPage,
  activationPrice,
  CONNECTION_TEST_SECONDS,
  type ConnectionTestResult,
  NEAR_MOUNTPOINT_SUFFIX,
  type NtripAccount,
  type NtripAccountWithPassword,
  type NtripSession,
  type NtripSessionPage,
  nearMountpoint,
  type PageWindow,
  rtcmProfileSchema,
  SESSION_CSV_COLUMNS,
  type TokenActivation,
} from '@portal/contract';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError, conflict, forbidden, notFound } from '../../shared/errors.ts';
import { hashPassword } from '../../shared/password-hash.ts';
import { type AuditWho, recordAudit } from '../audit/index.ts';
import type { SessionRow } from '../ntrip/index.ts';
import { issueProbeToken } from '../ntrip/index.ts';
import { readSettings } from '../settings/index.ts';
import { type CasterAddress, type CasterOutcome, testCasterConnection } from './connection-test.ts';
import { generatePassword, generateUsername } from './ntrip-accounts.credentials.ts';
import {
  accountStatus,
  activationWindow,
  canActivateNetwork,
  canAdministerAccounts,
  canManageAccount,
  canManageOrganizationAccount,
} from './ntrip-accounts.policy.ts';
import type { AccountChanges, AccountRow, GrantRow, NtripAccountsRepo } from './ntrip-accounts.repo.ts';

/** The token ledger as this module uses it: billing's `TokenLedger.spend`, inside our transaction. */
export interface TokenSpender {
  spend(
    entry: {
      userId: string;
      amount: number;
      referenceId: string;
      note?: string;
      noteCode?: LedgerNoteCode;
      noteParams?: Record<string, string | number>;
    },
    trx: Database,
  ): Promise<{
    balance: number;
  }>;
  balance(userId: string): Promise<number>;
}

/** The organisation's tokens (organizations.ledger.ts), spent inside our transaction. */
export interface OrganizationTokenSpender {
  spend(
    entry: { orgId: string; amount: number; referenceId: string; note?: string; createdBy: string },
    trx: Database,
  ): Promise<{ balance: number }>;
  balance(orgId: string): Promise<number>;
}

/**
 * Tells the caster side that what an account may do has changed, after the change is committed: the ntrip
 * module drops its cached authorisation decisions and the caster ends connections that are no longer allowed.
 */
export interface AccessChangeListener {
  accessChanged(change: { accountId: string; ownerUserId: string; reason: AccessChangeReason }): void | Promise<void>;
}
/**
 * `limit`: the most concurrent connections changed; `profile`: the RTCM profile or constellations changed (issue 36).
 * Open connections stay as they are; the next login sees the change.
 */
export type AccessChangeReason = 'disabled' | 'enabled' | 'password' | 'deleted' | 'grant' | 'limit' | 'profile';

/** How many rovers are logged in with each account now (the running caster); absent accounts have none. */
export interface LiveConnections {
  connectionsByAccount(accountIds: string[]): Map<string, number> | Promise<Map<string, number>>;
}

/** How the connection test reaches the caster and signs its one-time login (ntrip.probe.ts). */
export interface ConnectionTestSettings {
  caster: CasterAddress;
  feedSecretKey: string;
  /** At most CONNECTION_TEST_SECONDS; tests shorten it. */
  durationMs?: number;
}

export interface NtripAccountsServiceDeps {
  repo: NtripAccountsRepo;
  ledger: TokenSpender;
  organizationLedger?: OrganizationTokenSpender;
  access?: AccessChangeListener;
  live?: LiveConnections;
  connectionTest?: ConnectionTestSettings;
  clock?: () => Date;
}

const CSV_ROW_LIMIT = 100_000;

export type NtripAccountsService = ReturnType<typeof createNtripAccountsService>;

/** The ledger refused the spend; answered as 402 once the transaction has rolled back. */
class ShortOfTokens extends Error {
  constructor(readonly needed: number) {
    super('insufficient tokens');
  }
}

function toGrant(row: GrantRow): AccountGrant {
  return {
    id: row.id,
    networkId: row.network_id,
    networkSlug: row.network_slug,
    networkName: row.network_name,
    validFrom: new Date(row.valid_from).toISOString(),
    validUntil: new Date(row.valid_until).toISOString(),
    source: row.source,
    allAccounts: row.account_id === null,
  };
}

function toSession(row: SessionRow, now: Date): NtripSession {
  const started = new Date(row.started_at);
  const ended = row.ended_at ? new Date(row.ended_at) : null;
  const hasPosition = row.last_gga_lat !== null && row.last_gga_lon !== null;
  return {
    id: row.id,
    mountpoint: row.mountpoint,
    remoteAddress: row.remote_address ?? '',
    startedAt: started.toISOString(),
    endedAt: ended?.toISOString() ?? null,
    durationSeconds: Math.max(0, Math.round(((ended ?? now).getTime() - started.getTime()) / 1000)),
    bytesSent: Number(row.bytes_sent),
    endReason: row.end_reason,
    lastPosition: hasPosition ? { latitude: Number(row.last_gga_lat), longitude: Number(row.last_gga_lon) } : null,
    userAgent: row.user_agent,
    servedStation: row.served_station,
    distanceKm: row.distance_km === null ? null : Number(row.distance_km),
    fixedShare: row.fixed_share === null ? null : Number(row.fixed_share),
    floatShare: row.float_share === null ? null : Number(row.float_share),
    rtcmProfile: rtcmProfileSchema.safeParse(row.rtcm_profile).data ?? null,
  };
}

/** A result for a test that did not reach the point of receiving data. */
function emptyResult(mountpoint: string, reason: ConnectionTestResult['reason']): ConnectionTestResult {
  return {
    mountpoint,
    ok: false,
    reason,
    casterAnswer: null,
    durationMs: 0,
    bytes: 0,
    frames: 0,
    firstFrameAfterMs: null,
    lastFrameAgeMs: null,
    observationAgeSeconds: null,
    stationId: null,
    messages: [],
    satellites: [],
  };
}

/** The caster's answer in the account's terms: its own state says which of the 403s it was. */
function presentOutcome(outcome: CasterOutcome, account: AccountRow): ConnectionTestResult {
  const { status, reason, ...result } = outcome;
  if (result.ok) return { ...result, reason: null };
  if (status === 403) return { ...result, reason: account.enabled ? 'no_access' : 'disabled' };
  if (status === 404) return { ...result, reason: 'unknown_mountpoint' };
  if (status === 429) return { ...result, reason: 'too_many_connections' };
  return { ...result, reason };
}

/** The shares are 4-byte floats: unrounded, 0.85 reads 0.8500000238418579 on one of the two engines. */
function thousandths(value: number | null): number | null {
  return value === null ? null : Math.round(value * 1000) / 1000;
}

function csvCell(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  // Quote what needs it, and defuse spreadsheet formulas.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function createNtripAccountsService(deps: NtripAccountsServiceDeps) {
  const { repo, ledger } = deps;
  const clock = deps.clock ?? (() => new Date());

  const notify = async (account: AccountRow, reason: AccessChangeReason) => {
    try {
      await deps.access?.accessChanged({ accountId: account.id, ownerUserId: account.owner_user_id, reason });
    } catch {
      // The decision cache also expires on its own; a failed notification must not fail the user's change.
    }
  };

  /** The organisation part of an organisation account's answer, as the caller may use it. */
  type OrgView = {
    id: string;
    name: string;
    holderEmail: string | null;
    canManage: boolean;
    /** The caller, when not a manager: the holder of an account may still renew its password. */
    viewerId?: string;
  };

  async function present(rows: AccountRow[], orgViews?: Map<string, OrgView>): Promise<NtripAccount[]> {
    const now = clock();
    const ids = rows.map((r) => r.id);
    const [grants, lastSeen, live] = await Promise.all([
      repo.openGrants(rows, now),
      repo.lastSeen(ids),
      deps.live ? deps.live.connectionsByAccount(ids) : new Map<string, number>(),
    ]);
    return rows.map((row) => {
      const own = grants.filter((g) => g.for_account_id === row.id).map(toGrant);
      const org = orgViews?.get(row.id);
      return {
        id: row.id,
        label: row.label,
        username: row.username,
        enabled: row.enabled,
        status: accountStatus(row.enabled, own, now),
        maxConnections: row.max_connections,
        rtcmProfile: row.rtcm_profile,
        constellations: row.constellations,
        grants: own,
        connectedNow: live.get(row.id) ?? 0,
        lastSeenAt: lastSeen.get(row.id)?.toISOString() ?? null,
        createdAt: new Date(row.created_at).toISOString(),
        updatedAt: new Date(row.updated_at).toISOString(),
        ...(org &&
          row.organization_id && {
            organization: {
              id: row.organization_id,
              name: org.name,
              holderUserId: row.owner_user_id,
              holderEmail: org.holderEmail,
              canManage: org.canManage,
              canRenewPassword: org.canManage || row.owner_user_id === org.viewerId,
            },
          }),
      };
    });
  }

  async function presentOne(row: AccountRow, orgView?: OrgView): Promise<NtripAccount> {
    const [account] = await present([row], orgView && new Map([[row.id, orgView]]));
    if (!account) throw new Error('account not presented');
    return account;
  }

  /**
   * A live account the caller may use this way, or 404 (another's account is indistinguishable from none). A
   * personal account is its owner's alone. An organisation's account is read by its members; changed by its owners
   * and admins; its password is also renewed by the member who uses it (docs/adr/0026). With `trx` and `lock`, the
   * organisation's row is locked before the account's (the order every membership change keeps), and the role is
   * read after it.
   */
  async function access(
    actor: Actor,
    id: string,
    need: 'read' | 'password' | 'manage',
    trx?: Database,
    lock = false,
  ): Promise<{ row: AccountRow; org?: OrgView }> {
    const peek = await repo.find(id, trx);
    if (!peek) throw notFound('NTRIP account');
    if (!peek.organization_id) {
      if (!canManageAccount(actor, peek)) throw notFound('NTRIP account');
      const row = lock ? await repo.find(id, trx, true) : peek;
      if (!row) throw notFound('NTRIP account');
      return { row };
    }
    const membership = await repo.organizationRole(peek.organization_id, actor.userId, trx, lock);
    if (!membership?.role) throw notFound('NTRIP account');
    const row = lock ? await repo.find(id, trx, true) : peek;
    if (row?.organization_id !== peek.organization_id) throw notFound('NTRIP account');
    // An organisation an operator disabled (docs/adr/0027) is read, never changed or spent on, by its members.
    if (membership.disabled && need !== 'read') {
      throw new AppError(
        403,
        'organization_disabled',
        'This organisation has been disabled by the operator of the portal.',
      );
    }
    const canManage = canManageOrganizationAccount(membership.role);
    const allowed = need === 'read' || canManage || (need === 'password' && row.owner_user_id === actor.userId);
    if (!allowed) throw forbidden('Only owners and admins of the organisation may do this.');
    const holderEmail = await repo.userEmail(row.owner_user_id, trx);
    return {
      row,
      org: { id: row.organization_id, name: membership.name, holderEmail, canManage, viewerId: actor.userId },
    };
  }

  async function insertWithFreshUsername(
    ownerUserId: string,
    account: { organizationId: string | null; label: string; passwordHash: string; maxConnections: number },
    trx: Database,
  ) {
    for (let attempt = 0; attempt < 10; attempt++) {
      const username = generateUsername();
      if (await repo.usernameExists(username, trx)) continue;
      // Undefined: a concurrent insert took the name between the check and the insert.
      const row = await repo.insert({ ownerUserId, username, ...account }, trx);
      if (row) return row;
    }
    throw new Error('no free NTRIP username after 10 attempts');
  }

  async function grantDays(
    account: AccountRow,
    networkId: string,
    days: number,
    source: 'tokens' | 'manual',
    trx: Database,
  ): Promise<{ grantId: string; from: Date; until: Date }> {
    const now = clock();
    const current = source === 'tokens' ? await repo.activationEnd(account.id, networkId, now, trx) : null;
    const { from, until } = activationWindow(now, current, days);
    const grantId = randomUUID();
    await repo.insertGrant(
      {
        id: grantId,
        accountId: account.id,
        ownerUserId: account.owner_user_id,
        organizationId: account.organization_id,
        networkId,
        validFrom: from,
        validUntil: until,
        source,
        referenceId: grantId,
      },
      trx,
    );
    return { grantId, from, until };
  }

  async function grantOf(account: AccountRow, grantId: string): Promise<AccountGrant> {
    const grants = await repo.openGrants([account], new Date(0));
    const grant = grants.find((g) => g.id === grantId);
    if (!grant) throw new Error('grant not found after insert');
    return toGrant(grant);
  }

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

    /** Accounts whose use changed outside this module (a member left): drop cached decisions and connections. */
    async accessChangedOf(accounts: { id: string; owner_user_id: string }[], reason: 'disabled' | 'deleted') {
      for (const account of accounts) {
        await deps.access?.accessChanged({ accountId: account.id, ownerUserId: account.owner_user_id, reason });
      }
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
     * Spec §7 `POST /tokens`: spends price per day × days from the ledger and writes the grant in one transaction.
     * The account row is locked first (then billing locks the balance row), so concurrent activations of one
     * account extend one after another and concurrent spends of one balance never overspend.
     */
    async activate(
      actor: Actor,
      body: { accountId: string; feedNetworkId: string; days: number },
    ): Promise<TokenActivation> {
      let payer: { orgId: string } | null = null;
      const result = await repo
        .transaction(async (trx) => {
          // An organisation's account is paid from the organisation's tokens, by its owners and admins only.
          const { row: account } = await access(actor, body.accountId, 'manage', trx, true);
          payer = account.organization_id ? { orgId: account.organization_id } : null;
          const network = await repo.network(body.feedNetworkId, trx);
          if (!network) throw notFound('Network');
          if (!canActivateNetwork(network)) {
            throw conflict('network_not_activatable', 'This network cannot be activated with tokens.');
          }
          const price = activationPrice(network.token_price_per_day, body.days);
          const { grantId } = await grantDays(account, network.id, body.days, 'tokens', trx);
          let balance: number;
          const note = `${body.days} day${body.days === 1 ? '' : 's'} of ${network.name} for ${account.username}`;
          try {
            if (account.organization_id) {
              if (!deps.organizationLedger) throw new Error('organisation accounts need the organisation ledger');
              ({ balance } = await deps.organizationLedger.spend(
                { orgId: account.organization_id, amount: price, referenceId: grantId, note, createdBy: actor.userId },
                trx,
              ));
            } else {
              ({ balance } = await ledger.spend(
                {
                  userId: actor.userId,
                  amount: price,
                  referenceId: grantId,
                  note,
                  noteCode: 'activation',
                  noteParams: { days: body.days, network: network.name, account: account.username },
                },
                trx,
              ));
            }
          } catch (err) {
            if (err instanceof AppError && err.code === 'insufficient_tokens') throw new ShortOfTokens(price);
            throw err;
          }
          return { account, grantId, price, balance };
        })
        .catch(async (err) => {
          // Rolled back; the balance is read again so the answer says what the caller has now.
          if (!(err instanceof ShortOfTokens)) throw err;
          const orgId = (payer as { orgId: string } | null)?.orgId;
          const balance =
            orgId && deps.organizationLedger
              ? await deps.organizationLedger.balance(orgId)
              : await ledger.balance(actor.userId);
          throw new AppError(
            402,
            'insufficient_tokens',
            `Not enough tokens: ${err.needed} needed, ${balance} available.`,
            undefined,
            {
              needed: err.needed,
              balance,
            },
          );
        });
      await notify(result.account, 'grant');
      return {
        grant: await grantOf(result.account, result.grantId),
        tokensSpent: result.price,
        tokenAmount: result.balance,
      };
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

/** What the audit log keeps of an account: never its password hash. */
function auditView(row: AccountRow) {
  return {
    ownerUserId: row.owner_user_id,
    username: row.username,
    label: row.label,
    enabled: row.enabled,
    maxConnections: row.max_connections,
  };
}
