import { randomUUID } from 'node:crypto';
import type { Logger } from '@portal/caster';
import { type ArchiveStore, localArchiveStore, type NatsLeaseOptions, natsArchiveStore } from '@portal/caster/archive';
import { archiveStoreOf, type Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createArchiveRepo } from './archive.repo.ts';
import { startArchiveSweeper } from './archive.sweeper.ts';

export { type ArchiveRepo, createArchiveRepo } from './archive.repo.ts';
export { selectArchiveHours } from './archive.selection.ts';
export { sweepArchive } from './archive.sweeper.ts';

type ArchiveConfig = Pick<
  Config,
  'ARCHIVE_STORE' | 'ARCHIVE_DIR' | 'ARCHIVE_NATS_BUCKET' | 'CASTER_BUS_URL' | 'CASTER_BUS_REPLICAS'
>;

/** The configured archive store, or null when ARCHIVE_STORE=off. */
export async function openArchiveStore(config: ArchiveConfig, logger: Logger): Promise<ArchiveStore | null> {
  const kind = archiveStoreOf(config);
  if (kind === 'off') return null;
  if (kind === 'local') return localArchiveStore(config.ARCHIVE_DIR, logger);
  return natsArchiveStore({
    url: config.CASTER_BUS_URL as string,
    bucket: config.ARCHIVE_NATS_BUCKET,
    replicas: config.CASTER_BUS_REPLICAS,
  });
}

export interface CasterArchive {
  /** This thread's connection to the store, for the sweeper and for reading; the caster's archive thread opens its own. */
  store: ArchiveStore;
  /** With a bus: the lease bucket that makes one node archive a station (the archive thread takes the leases). */
  lease?: NatsLeaseOptions;
  close(): Promise<void>;
}

/**
 * What a caster process needs to archive: the store, a lease when casters share a bus, and the retention sweeper
 * (every node runs one; a pass is safe to repeat). Null when the archive is off.
 */
export async function startCasterArchive(
  db: Database,
  config: ArchiveConfig & Pick<Config, 'CASTER_NODE_ID'>,
  logger: Logger,
): Promise<CasterArchive | null> {
  const store = await openArchiveStore(config, logger);
  if (!store) return null;
  const lease = config.CASTER_BUS_URL
    ? {
        url: config.CASTER_BUS_URL,
        bucket: `${config.ARCHIVE_NATS_BUCKET}-leases`,
        node: config.CASTER_NODE_ID ?? randomUUID(),
        replicas: config.CASTER_BUS_REPLICAS,
      }
    : undefined;
  const stopSweeper = startArchiveSweeper(store, createArchiveRepo(db), logger);
  return {
    store,
    lease,
    async close() {
      stopSweeper();
      await store.close();
    },
  };
}
