import type { Logger } from '../session-log.ts';
import { localArchiveStore } from './local-store.ts';
import { natsArchiveStore } from './nats-store.ts';
import type { ArchiveStore, ArchiveStoreSpec } from './store.ts';

/** Opens the store a spec describes; a `module` spec's module must export `openArchiveStore(options, logger)`. */
export async function openArchiveStoreSpec(spec: ArchiveStoreSpec, logger: Logger): Promise<ArchiveStore> {
  if (spec.kind === 'local') return localArchiveStore(spec.dir, logger);
  if (spec.kind === 'nats') return natsArchiveStore({ url: spec.url, bucket: spec.bucket, replicas: spec.replicas });
  const opener = (await import(spec.module)) as {
    openArchiveStore?: (options: unknown, logger: Logger) => Promise<ArchiveStore>;
  };
  if (typeof opener.openArchiveStore !== 'function') {
    throw new Error(`archive: ${spec.module} exports no openArchiveStore`);
  }
  return opener.openArchiveStore(spec.options, logger);
}
