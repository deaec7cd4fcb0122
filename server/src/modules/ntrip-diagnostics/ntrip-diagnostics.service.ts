import {
  type LoginFailure,
  type LoginFailurePage,
  loginFailureReasonSchema,
  MAX_REFUSALS_LISTED,
  REFUSALS_WINDOW_HOURS,
  type Refusal,
  refusalDetailSchema,
  refusalReasonSchema,
} from '@portal/contract';
import type { Actor } from '../../http/auth.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { canAdministerAccounts, canManageAccount } from '../ntrip-accounts/ntrip-accounts.policy.ts';
import type { LoginFailureRow, NtripDiagnosticsRepo, RefusalRow } from './ntrip-diagnostics.repo.ts';

export interface NtripDiagnosticsDeps {
  repo: NtripDiagnosticsRepo;
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
  };
}

/** Why an account's rovers get no corrections, for its owner and for admins (issue 17). */
export function createNtripDiagnosticsService(deps: NtripDiagnosticsDeps) {
  const { repo } = deps;
  const clock = deps.clock ?? (() => new Date());

  /** Another user's account answers 404, like every NTRIP account call (ADR 0008). */
  async function ownAccount(actor: Actor, accountId: string): Promise<void> {
    const account = await repo.accountOwner(accountId);
    if (!account || !canManageAccount(actor, account)) throw notFound('NTRIP account');
  }

  async function refusalsOf(accountId: string): Promise<Refusal[]> {
    const since = new Date(clock().getTime() - REFUSALS_WINDOW_HOURS * 3_600_000);
    return (await repo.refusals(accountId, since, MAX_REFUSALS_LISTED)).map(toRefusal);
  }

  return {
    async refusals(actor: Actor, accountId: string): Promise<Refusal[]> {
      await ownAccount(actor, accountId);
      return refusalsOf(accountId);
    },

    async adminRefusals(actor: Actor, accountId: string): Promise<Refusal[]> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      if (!(await repo.accountOwner(accountId))) throw notFound('NTRIP account');
      return refusalsOf(accountId);
    },

    async adminLoginFailures(actor: Actor, page: number, pageSize: number): Promise<LoginFailurePage> {
      if (!canAdministerAccounts(actor)) throw forbidden();
      const { rows, total } = await repo.loginFailures(pageSize, (page - 1) * pageSize);
      return { items: rows.map(toLoginFailure), page, pageSize, total };
    },
  };
}
