import { type ArchiveStore, type ArchiveStoreSpec, localArchiveStore } from '../../src/archive/index.ts';
import type { Logger } from '../../src/session-log.ts';
import { waitWhile } from './shared-flag.ts';

/**
 * A local store that the archive's thread opens (spec `module`) and a test holds up and watches through shared
 * memory, as it cannot reach into that thread: appends wait while it is held; seals are counted, the last one's
 * hour kept.
 */
export function observedStore(dir: string) {
  const shared = new SharedArrayBuffer(24);
  const flags = new Int32Array(shared, 0, 2);
  const sealedHour = new Float64Array(shared, 8, 1);
  const spec: ArchiveStoreSpec = {
    kind: 'module',
    module: new URL(import.meta.url).href,
    options: { dir, shared } satisfies ObservedOptions,
  };
  return {
    spec,
    hold: () => Atomics.store(flags, HELD, 1),
    release: () => {
      Atomics.store(flags, HELD, 0);
      Atomics.notify(flags, HELD);
    },
    seals: () => Atomics.load(flags, SEALS),
    lastSealed: () => sealedHour[0] as number,
  };
}

interface ObservedOptions {
  dir: string;
  shared: SharedArrayBuffer;
}

const HELD = 0;
const SEALS = 1;

/** Called in the archive's thread by the spec above. */
export async function openArchiveStore(options: ObservedOptions, logger: Logger): Promise<ArchiveStore> {
  const inner = localArchiveStore(options.dir, logger);
  const flags = new Int32Array(options.shared, 0, 2);
  const sealedHour = new Float64Array(options.shared, 8, 1);
  return {
    ...inner,
    async append(key, member) {
      await waitWhile(flags, HELD, 1);
      await inner.append(key, member);
    },
    async seal(key) {
      sealedHour[0] = key.hour;
      Atomics.add(flags, SEALS, 1);
      await inner.seal(key);
    },
  };
}
