import type { LiveTelemetry, TelemetrySnapshot } from '@portal/caster';
import {
  type AdminLiveSessionList,
  type LiveSession,
  type LiveSessionList,
  type LiveSourceList,
  type LoginFailure,
  type LoginFailurePage,
  loginFailureReasonSchema,
  MAX_REFUSALS_LISTED,
  type PageWindow,
  REFUSALS_WINDOW_HOURS,
  type Refusal,
  refusalDetailSchema,
  refusalReasonSchema,
} from '@portal/contract';
import type { Actor } from '../../shared/actor.ts';
import { forbidden, notFound } from '../../shared/errors.ts';
import { canAdministerAccounts, canManageAccount } from '../ntrip-accounts/index.ts';
import type { LoginFailureRow, NtripDiagnosticsRepo, RefusalRow } from './ntrip-diagnostics.repo.ts';

export interface NtripDiagnosticsDeps {
  repo: NtripDiagnosticsRepo;
  /** The caster nodes' live state: the caster in this process, or a bus client (main.ts); none answers empty. */
  live?: LiveTelemetry;
  clock?: () => Date;
}

export type NtripDiagnosticsService = ReturnType<typeof createNtripDiagnosticsService>;

const iso = (d: Date) => new Date(d).toISOString();
const version = (v: number): 1 | 2 => (v === 2 ? 2 : 1);

/** A stored detail that no longer reads (written by an older caster) shows as none rather than failing the list. */
function toRefusal(row: RefusalRow): Refusal {
  const detail = refusalDetailSchema.safeParse(row.detail);
  return {
    id: row.id,
    reason: refusalReasonSchema.parse(row.reason),
    minute: iso(row.minute),
    count: Number(row.count),
    firstAt: iso(row.first_at),
    lastAt: iso(row.last_at),
    mountpoint: row.mountpoint,
    remoteAddress: row.remote_address,
    userAgent: row.user_agent,
    ntripVersion: version(row.ntrip_version),
    tls: row.tls,
    detail: detail.success ? detail.data : {},
  };
}

function toLoginFailure(row: LoginFailureRow): LoginFailure {
  return {
    id: row.id,
    reason: loginFailureReasonSchema.parse(row.reason),
    minute: iso(row.minute),
    count: Number(row.count),
    firstAt: iso(row.first_at),
    lastAt: iso(row.last_at),
    remoteAddress: row.remote_address,
    usernames: row.usernames,
    mountpoint: row.mountpoint,
    userAgent: row.user_agent,
    ntripVersion: version(row.ntrip_version),
    tls: row.tls,
  };
}

function toLiveSession(session: TelemetrySnapshot['sessions'][number]): LiveSession {
  return {
    id: session.id,
    node: session.node,
    accountId: session.accountId,
    remoteAddress: session.remoteAddress,
    userAgent: session.userAgent,
    ntripVersion: session.ntripVersion,
    tls: session.tls,
    mountpoint: session.mountpoint,
    servedStation: session.servedStation,
    distanceKm: session.distanceKm,
    rtcmProfile: session.rtcmProfile ?? 'as-sent',
    constellations: session.constellations ? [...session.constellations] : null,
    connectedAt: session.connectedAt,
    bytesSent: session.bytesSent,
    position: session.position,
    fix: session.fix,
  };
}

const byConnection = (a: LiveSession, b: LiveSession) =>
  a.connectedAt.localeCompare(b.connectedAt) || a.id.localeCompare(b.id);

/** Why an account's rovers get no corrections, for its owner and for admins (issue 17). */
export function createNtripDiagnosticsService(deps: NtripDiagnosticsDeps) {
  const { repo } = deps;
  const clock = deps.clock ?? (() => new Date());

  /**
   * Another user's account answers 404, like every NTRIP account call (ADR 0008); an organisation's account is
   * read by its members (ADR 0026).
   */
  async function ownAccount(actor: Actor, accountId: string): Promise<void> {
    const account = await repo.accountOwner(accountId, actor.userId);
    if (!account || !(canManageAccount(actor, account) || account.is_member)) throw notFound('NTRIP account');
  }

  async function refusalsOf(accountId: string): Promise<Refusal[]> {
    const since = new Date(clock().getTime() - REFUSALS_WINDOW_HOURS * 3_600_000);
    return (await repo.refusals(accountId, since, MAX_REFUSALS_LISTED)).map(toRefusal);
  }

  async function live(query: Parameters<LiveTelemetry['live']>[0]) {
    if (!deps.live) return { nodes: [], complete: false };
    return deps.live.live(query);
  }

  async function liveSessionsOf(query: Parameters<LiveTelemetry['live']>[0]) {
    const { nodes, complete } = await live(query);
    const items = nodes.flatMap((n) => n.sessions.map(toLiveSession)).sort(byConnection);
    return { items, complete, at: clock().toISOString() };
  }

  return {
    /** The account's rovers connected now, on every caster node that answered. */
    async liveSessions(actor: Actor, accountId: string): Promise<LiveSessionList> {
      await ownAccount(actor, accountId);
      return liveSessionsOf({ sessions: { accountIds: [accountId] } });
    },

    async adminLiveSessions(actor: Actor): Promise<AdminLiveSessionList> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const list = await liveSessionsOf({ sessions: { all: true } });
      const names = await repo.accountNames([...new Set(list.items.map((s) => s.accountId))]);
      return {
        ...list,
        items: list.items.map((s) => ({
          ...s,
          accountUsername: names.get(s.accountId)?.username ?? null,
          accountLabel: names.get(s.accountId)?.label ?? null,
        })),
      };
    },

    /** Base stations connected now: receiving, bytes/s, last frame age, address, since when (the feed list). */
    async adminLiveSources(actor: Actor): Promise<LiveSourceList> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const { nodes, complete } = await live({ sources: true });
      const items = nodes.flatMap((n) =>
        n.sources.map((s) => ({
          ...s,
          lastFrameAgeSeconds:
            s.lastFrameAt === null ? null : Math.max(0, (Date.parse(n.at) - Date.parse(s.lastFrameAt)) / 1000),
        })),
      );
      return { items: items.sort((a, b) => a.mountpoint.localeCompare(b.mountpoint)), complete };
    },

    async refusals(actor: Actor, accountId: string): Promise<Refusal[]> {
      await ownAccount(actor, accountId);
      return refusalsOf(accountId);
    },

    /** One account's rovers connected now, for the back office's customer page. */
    async adminAccountLiveSessions(actor: Actor, accountId: string): Promise<LiveSessionList> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      if (!(await repo.accountOwner(accountId))) throw notFound('NTRIP account');
      return liveSessionsOf({ sessions: { accountIds: [accountId] } });
    },

    async adminRefusals(actor: Actor, accountId: string): Promise<Refusal[]> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      if (!(await repo.accountOwner(accountId))) throw notFound('NTRIP account');
      return refusalsOf(accountId);
    },

    async adminLoginFailures(actor: Actor, page: PageWindow): Promise<LoginFailurePage> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const { rows, total } = await repo.loginFailures(page.limit, page.offset);
      return { items: rows.map(toLoginFailure), total, ...page };
    },
  };
}
