/**
 * The archive's thread (thread.ts starts it): takes frames from the shared ring, and runs the writer (compression,
 * the store's appends and syncs or JetStream publishes, the lease, the index's totals) on its own event loop and
 * heap. The index batches go to the caster's thread, which writes them to the database.
 */

import { parentPort, workerData } from 'node:worker_threads';
import type { ArchiveHourUpdate } from '../ports.ts';
import type { Logger } from '../session-log.ts';
import { type ArchiveLease, natsArchiveLease } from './lease.ts';
import { openArchiveStoreSpec } from './open.ts';
import { NAME_RECORD, RingReader, type RingRecord } from './ring.ts';
import type { ArchiveStore } from './store.ts';
import type { ArchiveThreadInit, FromArchiveThread, ToArchiveThread } from './thread.ts';
import { ArchiveWriter } from './writer.ts';

const BATCH_MS = 50;
const port = parentPort as NonNullable<typeof parentPort>;
const init = workerData as ArchiveThreadInit;
const post = (message: FromArchiveThread) => port.postMessage(message);

const log =
  (level: 'info' | 'warn' | 'error') =>
  (fields: object, message: string): void => {
    try {
      post({ type: 'log', level, fields, message });
    } catch {
      // Something in the fields does not cross threads (an error's extra properties): send them as text.
      const plain = Object.fromEntries(
        Object.entries(fields).map(([k, v]) => [k, v instanceof Error ? new Error(v.message) : String(v)]),
      );
      post({ type: 'log', level, fields: plain, message });
    }
  };
const logger: Logger = { info: log('info'), warn: log('warn'), error: log('error') };

/** The store and lease, or null when either could not be opened (the caster's thread is told why). */
async function open(): Promise<{ store: ArchiveStore; lease?: ArchiveLease } | null> {
  let store: ArchiveStore | undefined;
  try {
    store = await openArchiveStoreSpec(init.store, logger);
    return { store, lease: init.lease && (await natsArchiveLease(init.lease)) };
  } catch (err) {
    await store?.close().catch(() => {});
    post({ type: 'failed', error: err instanceof Error ? err : new Error(String(err)) });
    return null;
  }
}

/** Takes the ring's frames until the caster's thread closes the archive (and then ends this thread). */
async function run(store: ArchiveStore, lease: ArchiveLease | undefined): Promise<void> {
  const ring = new RingReader(init.ring);
  /** Index batches sent to the caster's thread, by number, until it says they were written. */
  const indexing = new Map<number, { resolve(): void; reject(err: Error): void }>();
  let nextBatch = 0;
  const writer = new ArchiveWriter(
    {
      store,
      lease,
      ...init.writer,
      clock: () => ring.now(),
      index: {
        recordHours: (updates: ArchiveHourUpdate[]) =>
          new Promise<void>((resolve, reject) => {
            const id = ++nextBatch;
            indexing.set(id, { resolve, reject });
            post({ type: 'index', id, updates });
          }),
      },
    },
    logger,
  );

  const names: string[] = [];
  const take = (record: RingRecord) => {
    if (record.type === NAME_RECORD) {
      names[record.station] = record.payload.toString('latin1');
      return;
    }
    const mountpoint = names[record.station] as string;
    if (record.dropped > 0) writer.dropped(mountpoint, record.dropped, record.at);
    writer.frame(mountpoint, record.payload, record.type, record.at);
  };

  let closing = false;
  port.on('message', async (m: ToArchiveThread) => {
    if (m.type === 'indexed') {
      const batch = indexing.get(m.id);
      indexing.delete(m.id);
      if (m.error === undefined) batch?.resolve();
      else batch?.reject(new Error(m.error));
      return;
    }
    closing = true;
    ring.drain(take);
    for (const [mountpoint, count, at] of m.dropped) writer.dropped(mountpoint, count, at);
    try {
      await writer.close();
      await lease?.close();
      await store.close();
    } catch (err) {
      logger.error({ err }, 'archive: closing failed');
    }
    post({ type: 'closed' });
  });

  post({ type: 'ready' });
  while (!closing) {
    ring.drain(take);
    await ring.written();
    // Frames come one at a time: taking them in batches wakes this thread at most twenty times a second however
    // many stations there are. Each wake-up costs both threads a system call and this one a turn of its loop: at
    // 10 ms the thread used about 1 % of a core more than at 50 ms, and longer pauses saved nothing more.
    await new Promise((resolve) => setTimeout(resolve, BATCH_MS));
  }
}

const opened = await open();
if (opened) await run(opened.store, opened.lease);
