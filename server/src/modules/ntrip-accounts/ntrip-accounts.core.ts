import { randomUUID } from 'node:crypto';
import type { LedgerNoteCode } from '@portal/contract';
import {
  type AccountGrant,
  type ConnectionTestResult,
  type NtripAccount,
  type NtripSession,
  rtcmProfileSchema,
} from '@portal/contract';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError, forbidden, notFound } from '../../shared/errors.ts';
import type { SessionRow } from '../ntrip/index.ts';
import type { CasterAddress, CasterOutcome } from './connection-test.ts';
import { generateUsername } from './ntrip-accounts.credentials.ts';
import {
  accountStatus,
  activationWindow,
  canManageAccount,
  canManageOrganizationAccount,
} from './ntrip-accounts.policy.ts';
import type { AccountRow, GrantRow, NtripAccountsRepo } from './ntrip-accounts.repo.ts';

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
  /** The organisations' tokens, which pay for their accounts' activations. */
  organizationLedger?: OrganizationTokenSpender;
  /** The ntrip module's cache invalidation (and the caster's disconnect of what is no longer allowed). */
  access?: AccessChangeListener;
  /** The running caster's connection count per account. */
  live?: LiveConnections;
  /** Where the connection test reaches the caster; without it the test answers caster_unreachable. */
  connectionTest?: ConnectionTestSettings;
  clock?: () => Date;
}

export const CSV_ROW_LIMIT = 100_000;

/** The ledger refused the spend; answered as 402 once the transaction has rolled back. */
export class ShortOfTokens extends Error {
  constructor(readonly needed: number) {
    super('insufficient tokens');
  }
}

export function toGrant(row: GrantRow): AccountGrant {
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

export function toSession(row: SessionRow, now: Date): NtripSession {
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
export function emptyResult(mountpoint: string, reason: ConnectionTestResult['reason']): ConnectionTestResult {
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
export function presentOutcome(outcome: CasterOutcome, account: AccountRow): ConnectionTestResult {
  const { status, reason, ...result } = outcome;
  if (result.ok) return { ...result, reason: null };
  if (status === 403) return { ...result, reason: account.enabled ? 'no_access' : 'disabled' };
  if (status === 404) return { ...result, reason: 'unknown_mountpoint' };
  if (status === 429) return { ...result, reason: 'too_many_connections' };
  return { ...result, reason };
}

/** The shares are 4-byte floats: unrounded, 0.85 reads 0.8500000238418579 on one of the two engines. */
export function thousandths(value: number | null): number | null {
  return value === null ? null : Math.round(value * 1000) / 1000;
}

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  // Quote what needs it, and defuse spreadsheet formulas.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** What every use case of the module shares: its deps, and the access checks and presenters over the repo. */
export function createAccountsCore(deps: NtripAccountsServiceDeps) {
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
    deps,
    repo,
    ledger,
    clock,
    notify,
    present,
    presentOne,
    access,
    insertWithFreshUsername,
    grantDays,
    grantOf,
  };
}

export type AccountsCore = ReturnType<typeof createAccountsCore>;

/** What the audit log keeps of an account: never its password hash. */
export function auditView(row: AccountRow) {
  return {
    ownerUserId: row.owner_user_id,
    username: row.username,
    label: row.label,
    enabled: row.enabled,
    maxConnections: row.max_connections,
  };
}
