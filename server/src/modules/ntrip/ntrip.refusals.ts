import type { RefusalRecord } from '@portal/caster';
import type { AccountFact } from '../webhooks/index.ts';
import type { LoginFailureUpsert, NtripRefusalsRepo, RefusalUpsert } from './ntrip-refusals.repo.ts';

/** Refused attempts are kept this long; the accounts page shows the last day of them. */
export const REFUSAL_RETENTION_MS = 30 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
/**
 * An account's refused attempts make at most one `attempt.refused` event per reason and clock hour (UTC): a rover
 * retrying a wrong password every second is one event an hour, not 3,600. The event carries the first minute seen.
 */
const EVENT_WINDOW_MS = 3_600_000;

const refusedFact = (r: RefusalUpsert): AccountFact => {
  const window = new Date(Math.floor(r.minute.getTime() / EVENT_WINDOW_MS) * EVENT_WINDOW_MS);
  return {
    accountId: r.account_id,
    event: 'attempt.refused',
    key: `refused:${r.account_id}:${r.reason}:${window.toISOString()}`,
    data: {
      reason: r.reason,
      mountpoint: r.mountpoint,
      remoteAddress: r.remote_address,
      userAgent: r.user_agent,
      ntripVersion: r.ntrip_version,
      tls: r.tls,
      count: r.count,
      firstAt: r.first_at.toISOString(),
      lastAt: r.last_at.toISOString(),
      detail: r.detail,
    },
  };
};

/**
 * Writes the caster's aggregated refused attempts (the usage port's `recordRefusals`). Names the caster only knew
 * as names (throttled before their password was checked) are looked up once per batch; those that name no live
 * account, and the caster's per-address entries for made-up names, go to the admin-wide log only.
 */
export function createRefusalRecorder(options: {
  repo: NtripRefusalsRepo;
  clock?: () => Date;
  /** Reports refusals to the webhooks of the accounts' owners (issue 37). */
  accountEvents?: (facts: AccountFact[]) => Promise<void>;
}) {
  const { repo } = options;
  const clock = options.clock ?? (() => new Date());
  let prunedAt = 0;

  return async function recordRefusals(records: RefusalRecord[]): Promise<void> {
    const names = [...new Set(records.filter((r) => r.scope === 'name').map((r) => r.usernames[0] ?? ''))];
    const byName = await repo.accountIdsByUsername(names);
    const refusals = new Map<string, RefusalUpsert>();
    const failures = new Map<string, LoginFailureUpsert>();
    for (const r of records) {
      const accountId =
        r.scope === 'account' ? r.accountId : r.scope === 'name' ? byName.get(r.usernames[0] ?? '') : undefined;
      if (accountId) {
        const key = `${accountId}\n${r.reason}\n${r.minute.getTime()}`;
        const known = refusals.get(key);
        if (known) {
          known.count += r.count;
          if (r.firstAt < known.first_at) known.first_at = r.firstAt;
          if (r.lastAt < known.last_at) continue;
        }
        refusals.set(key, {
          account_id: accountId,
          reason: r.reason,
          minute: r.minute,
          count: known ? known.count : r.count,
          first_at: known ? known.first_at : r.firstAt,
          last_at: r.lastAt,
          mountpoint: r.mountpoint,
          remote_address: r.remoteAddress,
          user_agent: r.userAgent,
          ntrip_version: r.ntripVersion,
          tls: r.tls,
          detail: r.detail,
        });
        continue;
      }
      const reason = r.reason;
      const key = `${r.remoteAddress}\n${reason}\n${r.minute.getTime()}`;
      const known = failures.get(key);
      if (known) {
        known.count += r.count;
        if (r.firstAt < known.first_at) known.first_at = r.firstAt;
        if (r.lastAt > known.last_at) known.last_at = r.lastAt;
        for (const name of r.usernames) {
          if (known.usernames.length < 5 && !known.usernames.includes(name)) known.usernames.push(name);
        }
        continue;
      }
      failures.set(key, {
        remote_address: r.remoteAddress,
        reason,
        minute: r.minute,
        count: r.count,
        first_at: r.firstAt,
        last_at: r.lastAt,
        usernames: r.usernames.slice(0, 5),
        mountpoint: r.mountpoint,
        user_agent: r.userAgent,
        ntrip_version: r.ntripVersion,
        tls: r.tls,
      });
    }
    await repo.upsertRefusals([...refusals.values()]);
    await repo.upsertLoginFailures([...failures.values()]);
    await options.accountEvents?.([...refusals.values()].map(refusedFact));
    const now = clock().getTime();
    if (now - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now;
      await repo.prune(new Date(now - REFUSAL_RETENTION_MS));
    }
  };
}
