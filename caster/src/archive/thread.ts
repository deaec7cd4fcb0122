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
  /** The first pause before a thread that failed is started again (default 1 s); tests shorten it. */
  restartMs?: number;
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
const RESTART_FIRST_MS = 1_000;
/**
 * The longest pause between restarts of a thread that keeps failing. A thread that ran this long before it failed
 * starts the back-off over: a thread that fails at once is restarted at most once a minute, one that failed after a
 * good run again within a second.
 */
const RESTART_MAX_MS = 60_000;

/**
 * The caster's side of the archive: the writer (compression, the store, the lease, the index's totals) runs in a
 * worker thread of its own, so its work and its garbage never pause the relay. `frame` copies the frame into a
 * shared ring and wakes the thread; nothing per frame is allocated or posted. The index is written here, where the
 * server's database connection is: one message from the thread every few seconds.
 *
 * A thread that fails or exits unexpectedly is started again after a pause that doubles while it keeps failing;
 * until the new one is ready, frames are dropped and counted as when the ring is full. The new thread gets a new
 * ring, as the old one may hold half-taken records.
 */
export class ArchiveThread {
  private ring!: RingWriter;
  private readonly clock: (() => number) | undefined;
  /** Station numbers in the ring, by mountpoint, and whether the current thread has been told the name yet. */
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly named: boolean[] = [];
  /** Frames of each station refused by a full ring since its last record; the next record carries the count. */
  private readonly droppedOf: number[] = [];
  private readonly droppedAt: number[] = [];
  private droppedSinceLog = 0;
  private lastDropLogAt = 0;
  /** The thread that runs or is starting, until it ends; frames go into its ring once it is ready. */
  private worker: Worker | null = null;
  private ready = false;
  /** Resolves when the current thread has closed or ended. */
  private ended: Promise<void> = Promise.resolve();
  private readonly indexing = new Set<Promise<void>>();
  /** False until start() has its first thread: a first thread that fails fails start() instead of being restarted. */
  private restarts = false;
  private restartMs: number;
  private restartTimer: NodeJS.Timeout | null = null;
  /** A restart under way: settles once its thread is ready or has failed. */
  private restarting: Promise<void> = Promise.resolve();
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly options: ArchiveOptions,
    private readonly logger: Logger,
  ) {
    this.clock = options.clock;
    this.restartMs = options.restartMs ?? RESTART_FIRST_MS;
  }

  /** Starts the archive's thread; resolves once it has opened its store (and lease), rejects if it could not. */
  static async start(options: ArchiveOptions, logger: Logger): Promise<ArchiveThread> {
    const thread = new ArchiveThread(options, logger);
    await thread.launch();
    thread.restarts = true;
    return thread;
  }

  /** Starts a thread with a new ring; resolves once it is ready, rejects (and ends it) if it could not start. */
  private launch(): Promise<void> {
    const ring = createRing(this.options.ringBytes ?? RING_DEFAULT);
    const init: ArchiveThreadInit = {
      ring,
      store: this.options.store,
      lease: this.options.lease,
      writer: {
        flushMs: this.options.flushMs,
        queueBytes: this.options.queueBytes,
        indexFlushMs: this.options.indexFlushMs,
      },
    };
    this.ring = new RingWriter(ring);
    // The new thread knows no station yet: each is named again before its next frame.
    this.named.fill(false);
    const worker = new Worker(ENTRY, { workerData: init, name: 'rtcm-archive' });
    this.worker = worker;
    const startedAt = performance.now();
    let failure: Error | undefined;
    let ready!: { resolve(): void; reject(err: Error): void };
    const started = new Promise<void>((resolve, reject) => {
      ready = { resolve, reject };
    });
    this.ended = new Promise<void>((resolve) => {
      const lost = (err: Error) => {
        ready.reject(err);
        resolve();
        this.lost(worker, err, performance.now() - startedAt);
      };
      worker.on('message', (m: FromArchiveThread) => {
        if (m.type === 'ready') {
          this.ready = true;
          // Like the caster's other timers, the thread does not keep the process alive; close() holds it.
          worker.unref();
          ready.resolve();
        } else if (m.type === 'failed') {
          failure = m.error;
          ready.reject(m.error);
          void worker.terminate();
        } else if (m.type === 'log') this.logger[m.level](m.fields, m.message);
        else if (m.type === 'index') this.index(worker, m.id, m.updates);
        else if (m.type === 'closed') resolve();
      });
      worker.on('error', lost);
      worker.on('exit', (code) => lost(failure ?? new Error(`archive thread exited (code ${code})`)));
    });
    return started;
  }

  /** The thread ended: unless the archive is closing (or still starting), another is started after a pause. */
  private lost(worker: Worker, err: Error, ranMs: number): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.ready = false;
    if (!this.restarts || this.closing) return;
    if (ranMs >= RESTART_MAX_MS) this.restartMs = this.options.restartMs ?? RESTART_FIRST_MS;
    const delay = this.restartMs;
    this.restartMs = Math.min(delay * 2, RESTART_MAX_MS);
    this.logger.error(
      { err, restartInMs: delay },
      'archive thread failed: restarting it; frames are dropped from the archive until then (the relay is not affected)',
    );
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.restarting = this.launch().then(
        () => this.logger.info({}, 'archive thread restarted: frames are archived again'),
        // lost() has logged why and planned the next attempt.
        () => {},
      );
    }, delay);
    this.restartTimer.unref();
  }

  /** One valid frame from the station's own source: copied into the ring, or dropped and counted when it is full. */
  frame(mountpoint: string, data: Buffer, messageType: number): void {
    if (this.closing && !this.ready) return;
    const at = this.clock ? this.clock() : Date.now();
    let id = this.ids.get(mountpoint);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(mountpoint, id);
      this.names.push(mountpoint);
      this.named.push(false);
      this.droppedOf.push(0);
      this.droppedAt.push(0);
    }
    const dropped = this.droppedOf[id] as number;
    if (this.ready) {
      if (this.clock) this.ring.setClockOffset(at - Date.now());
      if (!this.named[id]) this.named[id] = this.ring.write(id, NAME_RECORD, Buffer.from(mountpoint), at, 0);
      if (this.named[id] && this.ring.write(id, messageType, data, at, dropped)) {
        if (dropped > 0) this.droppedOf[id] = 0;
        return;
      }
    }
    this.droppedOf[id] = dropped + 1;
    this.droppedAt[id] = at;
    this.droppedSinceLog++;
    if (at - this.lastDropLogAt >= LOG_EVERY_MS) {
      this.lastDropLogAt = at;
      this.logger.warn(
        { dropped: this.droppedSinceLog, mountpoint },
        this.ready
          ? 'archive thread behind: frames dropped from the archive (the relay is not affected)'
          : 'archive thread not running: frames dropped from the archive (the relay is not affected)',
      );
      this.droppedSinceLog = 0;
    }
  }

  /** Writes a batch of the index for the thread that sent it, and tells that thread (if it still runs) how it went. */
  private index(worker: Worker, id: number, updates: ArchiveHourUpdate[]): void {
    const post = (message: ToArchiveThread) => {
      if (this.worker === worker) worker.postMessage(message);
    };
    const done = this.options.index.recordHours(updates).then(
      () => post({ type: 'indexed', id }),
      (err: unknown) => post({ type: 'indexed', id, error: err instanceof Error ? err.message : String(err) }),
    );
    this.indexing.add(done);
    void done.finally(() => this.indexing.delete(done));
  }

  /**
   * Stores what the thread holds and waits for it: an hour that is over is sealed, the current one released
   * (another process may continue it), and the index told. Then the thread ends. During a pause before a restart
   * no thread is started; a restart under way is let finish, and its thread closed like any other.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    await this.restarting;
    const worker = this.worker;
    if (worker && this.ready) {
      worker.ref();
      const dropped: Array<[string, number, number]> = [];
      for (let id = 0; id < this.names.length; id++) {
        const n = this.droppedOf[id] as number;
        if (n > 0) dropped.push([this.names[id] as string, n, this.droppedAt[id] as number]);
      }
      worker.postMessage({ type: 'close', dropped } satisfies ToArchiveThread);
    }
    await this.ended;
    this.ready = false;
    this.worker = null;
    await Promise.all(this.indexing);
    await worker?.terminate();
  }
}
