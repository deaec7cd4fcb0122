import { Worker } from 'node:worker_threads';
import type { ArchiveHourUpdate, ArchiveIndexPort } from '../ports.ts';
import type { Logger } from '../session-log.ts';
import type { NatsLeaseOptions } from './lease.ts';
import { createRing, NAME_RECORD, RingWriter } from './ring.ts';
import type { ArchiveStoreSpec } from './store.ts';
import type { ArchiveWriterOptions } from './writer.ts';

export interface ArchiveOptions
  extends Pick<ArchiveWriterOptions, 'flushMs' | 'queueBytes' | 'indexFlushMs' | 'clock'> {
  /** The store the archive's thread opens and writes to. */
  store: ArchiveStoreSpec;
  /** Several caster nodes: the lease bucket that makes one of them archive a station (lease.ts). */
  lease?: NatsLeaseOptions;
  /** Told what was stored, in batches, on the caster's thread (the server keeps the index in its database). */
  index: ArchiveIndexPort;
  /**
   * Room for frames between the relay and the archive's thread; past it frames are dropped and counted. The thread
   * takes them within milliseconds unless it is starved: the default holds some 20 s of 200 stations.
   */
  ringBytes?: number;
}

/** What the archive's thread is started with. */
export interface ArchiveThreadInit {
  ring: SharedArrayBuffer;
  store: ArchiveStoreSpec;
  lease?: NatsLeaseOptions;
  writer: Pick<ArchiveWriterOptions, 'flushMs' | 'queueBytes' | 'indexFlushMs'>;
}

type Level = 'info' | 'warn' | 'error';

export type FromArchiveThread =
  | { type: 'ready' }
  | { type: 'failed'; error: Error }
  | { type: 'log'; level: Level; fields: object; message: string }
  | { type: 'index'; id: number; updates: ArchiveHourUpdate[] }
  | { type: 'closed' };

export type ToArchiveThread =
  | { type: 'indexed'; id: number; error?: string }
  /** Frames counted as dropped on the relay's side that no later record carried: [mountpoint, frames, at]. */
  | { type: 'close'; dropped: Array<[string, number, number]> };

const ENTRY = new URL('./worker-entry.mjs', import.meta.url);
const RING_DEFAULT = 4 * 1024 * 1024;
const LOG_EVERY_MS = 60_000;

/**
 * The caster's side of the archive: the writer (compression, the store, the lease, the index's totals) runs in a
 * worker thread of its own, so its work and its garbage never pause the relay. `frame` copies the frame into a
 * shared ring and wakes the thread; nothing per frame is allocated or posted. The index is written here, where the
 * server's database connection is: one message from the thread every few seconds.
 */
export class ArchiveThread {
  private readonly ring: RingWriter;
  private readonly clock: (() => number) | undefined;
  /** Station numbers in the ring, by mountpoint, and whether the thread has been told the name yet. */
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly named: boolean[] = [];
  /** Frames of each station refused by a full ring since its last record; the next record carries the count. */
  private readonly droppedOf: number[] = [];
  private readonly droppedAt: number[] = [];
  private droppedSinceLog = 0;
  private lastDropLogAt = 0;
  private running = true;
  private readonly closed: Promise<void>;
  private readonly indexing = new Set<Promise<void>>();

  private constructor(
    private readonly worker: Worker,
    ring: SharedArrayBuffer,
    options: ArchiveOptions,
    private readonly logger: Logger,
    ready: { resolve(): void; reject(err: Error): void },
  ) {
    this.ring = new RingWriter(ring);
    this.clock = options.clock;
    this.closed = new Promise<void>((resolve) => {
      worker.on('message', (m: FromArchiveThread) => {
        if (m.type === 'ready') ready.resolve();
        else if (m.type === 'failed') ready.reject(m.error);
        else if (m.type === 'log') logger[m.level](m.fields, m.message);
        else if (m.type === 'index') this.index(options.index, m.id, m.updates);
        else if (m.type === 'closed') resolve();
      });
      worker.on('error', (err) => {
        this.running = false;
        logger.error({ err }, 'archive thread failed: frames are no longer archived');
        ready.reject(err);
        resolve();
      });
      worker.on('exit', () => {
        this.running = false;
        ready.reject(new Error('archive thread exited'));
        resolve();
      });
    });
  }

  /** Starts the archive's thread; resolves once it has opened its store (and lease), rejects if it could not. */
  static async start(options: ArchiveOptions, logger: Logger): Promise<ArchiveThread> {
    const ring = createRing(options.ringBytes ?? RING_DEFAULT);
    const init: ArchiveThreadInit = {
      ring,
      store: options.store,
      lease: options.lease,
      writer: { flushMs: options.flushMs, queueBytes: options.queueBytes, indexFlushMs: options.indexFlushMs },
    };
    const worker = new Worker(ENTRY, { workerData: init, name: 'rtcm-archive' });
    let ready!: { resolve(): void; reject(err: Error): void };
    const started = new Promise<void>((resolve, reject) => {
      ready = { resolve, reject };
    });
    const thread = new ArchiveThread(worker, ring, options, logger, ready);
    try {
      await started;
    } catch (err) {
      await worker.terminate();
      throw err;
    }
    // Like the caster's other timers, the thread does not keep the process alive; close() holds it until it is done.
    worker.unref();
    return thread;
  }

  /** One valid frame from the station's own source: copied into the ring, or dropped and counted when it is full. */
  frame(mountpoint: string, data: Buffer, messageType: number): void {
    if (!this.running) return;
    const at = this.clock ? this.clock() : Date.now();
    if (this.clock) this.ring.setClockOffset(at - Date.now());
    let id = this.ids.get(mountpoint);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(mountpoint, id);
      this.names.push(mountpoint);
      this.named.push(false);
      this.droppedOf.push(0);
      this.droppedAt.push(0);
    }
    if (!this.named[id]) this.named[id] = this.ring.write(id, NAME_RECORD, Buffer.from(mountpoint), at, 0);
    const dropped = this.droppedOf[id] as number;
    if (this.named[id] && this.ring.write(id, messageType, data, at, dropped)) {
      if (dropped > 0) this.droppedOf[id] = 0;
      return;
    }
    this.droppedOf[id] = dropped + 1;
    this.droppedAt[id] = at;
    this.droppedSinceLog++;
    if (at - this.lastDropLogAt >= LOG_EVERY_MS) {
      this.lastDropLogAt = at;
      this.logger.warn(
        { dropped: this.droppedSinceLog, mountpoint },
        'archive thread behind: frames dropped from the archive (the relay is not affected)',
      );
      this.droppedSinceLog = 0;
    }
  }

  private index(port: ArchiveIndexPort, id: number, updates: ArchiveHourUpdate[]): void {
    const done = port.recordHours(updates).then(
      () => this.post({ type: 'indexed', id }),
      (err: unknown) => this.post({ type: 'indexed', id, error: err instanceof Error ? err.message : String(err) }),
    );
    this.indexing.add(done);
    void done.finally(() => this.indexing.delete(done));
  }

  private post(message: ToArchiveThread): void {
    if (this.running) this.worker.postMessage(message);
  }

  /**
   * Stores what the thread holds and waits for it: an hour that is over is sealed, the current one released
   * (another process may continue it), and the index told. Then the thread ends.
   */
  async close(): Promise<void> {
    if (!this.running) {
      await this.closed;
      return;
    }
    this.worker.ref();
    const dropped: Array<[string, number, number]> = [];
    for (let id = 0; id < this.names.length; id++) {
      const n = this.droppedOf[id] as number;
      if (n > 0) dropped.push([this.names[id] as string, n, this.droppedAt[id] as number]);
    }
    this.worker.postMessage({ type: 'close', dropped } satisfies ToArchiveThread);
    await this.closed;
    this.running = false;
    await Promise.all(this.indexing);
    await this.worker.terminate();
  }
}
