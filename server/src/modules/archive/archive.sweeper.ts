import type { Logger } from '@portal/caster';
import { type ArchiveStore, HOUR_MS } from '@portal/caster/archive';
import { type ArchiveRepo, DEFAULT_RETENTION_DAYS } from './archive.repo.ts';

const DAY_MS = 86_400_000;
/** The writer seals an hour at its first flush after the hour; one left open a minute later was abandoned. */
const ABANDONED_AFTER_MS = 60_000;

export interface SweepResult {
  /** Hours a crashed or stopped writer left open, sealed now (NATS store). */
  sealed: number;
  /** Hours past their network's retention, deleted from the store. */
  removed: number;
  /** Index rows deleted: those of the hours removed, and any other past retention. */
  rows: number;
}

/**
 * One pass of the retention sweeper: every hour the store holds that ended more than its network's retention ago
 * is deleted, data first and index row after (a crash between them leaves a row the next pass deletes); then the
 * index rows past retention whose data was not in this store. Safe to run on several nodes at once.
 */
export async function sweepArchive(store: ArchiveStore, repo: ArchiveRepo, now: Date): Promise<SweepResult> {
  const sealed = await store.sealAbandoned(now.getTime() - ABANDONED_AFTER_MS);
  const retention = await repo.retentionByMountpoint();
  let removed = 0;
  let rows = 0;
  for await (const key of store.list()) {
    const days = retention.get(key.mountpoint.toLowerCase()) ?? DEFAULT_RETENTION_DAYS;
    if (key.hour + HOUR_MS > now.getTime() - days * DAY_MS) continue;
    await store.remove(key);
    rows += await repo.deleteHour(key.mountpoint, new Date(key.hour));
    removed++;
  }
  rows += await repo.deleteExpiredRows(now);
  return { sealed, removed, rows };
}

/** Sweeps a minute after start and then every `intervalMs`; returns the stop function. */
export function startArchiveSweeper(
  store: ArchiveStore,
  repo: ArchiveRepo,
  logger: Logger,
  intervalMs = HOUR_MS,
): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const result = await sweepArchive(store, repo, new Date());
      if (result.sealed || result.removed || result.rows) {
        logger.info({ ...result, store: store.name }, 'archive sweep: abandoned hours sealed, expired hours deleted');
      }
    } catch (err) {
      logger.error({ err, store: store.name }, 'archive sweep failed; tried again at the next interval');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void run(), Math.min(60_000, intervalMs));
  const timer = setInterval(() => void run(), intervalMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
