import { type ArchiveStore, type ArchiveStoreSpec, localArchiveStore } from '../../src/archive/index.ts';
import type { Logger } from '../../src/session-log.ts';
import { waitWhile } from './shared-flag.ts';

/**
 * A local store that the archive's thread opens (spec `module`) and that brings that thread down: the first
 * `crashes` appends throw outside any promise, as a bug in a native module or the store's client would. A test can
 * also hold the opening of the store, to close the archive while a restarted thread is starting. The test and the
 * thread share these counts through shared memory, as a test cannot reach into the thread.
 */
export function crashingStore(dir: string, crashes: number) {
  const shared = new SharedArrayBuffer(12);
  const flags = new Int32Array(shared);
  flags[CRASHES] = crashes;
  const spec: ArchiveStoreSpec = {
    kind: 'module',
    module: new URL(import.meta.url).href,
    options: { dir, shared } satisfies CrashingOptions,
  };
  return {
    spec,
    /** How many times a thread has opened the store. */
    opens: () => Atomics.load(flags, OPENS),
    holdOpening: () => Atomics.store(flags, HOLD_OPEN, 1),
    releaseOpening: () => {
      Atomics.store(flags, HOLD_OPEN, 0);
      Atomics.notify(flags, HOLD_OPEN);
    },
  };
}

interface CrashingOptions {
  dir: string;
  shared: SharedArrayBuffer;
}

const CRASHES = 0;
const OPENS = 1;
const HOLD_OPEN = 2;

/** Called in the archive's thread by the spec above. */
export async function openArchiveStore(options: CrashingOptions, logger: Logger): Promise<ArchiveStore> {
  const flags = new Int32Array(options.shared);
  Atomics.add(flags, OPENS, 1);
  if (Atomics.load(flags, HOLD_OPEN) === 1) {
    // A wait on shared memory alone does not keep the thread's event loop alive: an idle timer does, until released.
    const alive = setInterval(() => {}, 60_000);
    await waitWhile(flags, HOLD_OPEN, 1);
    clearInterval(alive);
  }
  const inner = localArchiveStore(options.dir, logger);
  return {
    ...inner,
    append(key, member) {
      if (Atomics.sub(flags, CRASHES, 1) > 0) {
        setImmediate(() => {
          throw new Error('archive store broke');
        });
        return new Promise<void>(() => {});
      }
      return inner.append(key, member);
    },
  };
}
