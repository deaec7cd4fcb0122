import type { ArchiveHourUpdate, ArchiveIndexPort } from '../ports.ts';
import type { Logger } from '../session-log.ts';
import { epochRange } from './epochs.ts';
import type { ArchiveLease } from './lease.ts';
import { encodeMember } from './member.ts';
import { type ArchiveStore, HOUR_MS, type HourKey, hourLabel } from './store.ts';

export interface ArchiveOptions {
  store: ArchiveStore;
  /** Told what was stored, in batches (the server keeps the index in its database). */
  index: ArchiveIndexPort;
  /** Several caster nodes: which one archives a station (lease.ts). One node alone archives all it is fed. */
  lease?: ArchiveLease;
  /** Frames are compressed and stored this often: at most this much of an hour is lost when the process dies. */
  flushMs?: number;
  /**
   * RTCM bytes waiting to be stored, over all stations, before new frames are dropped (and counted): a slow disk
   * must not grow the caster's memory without bound.
   */
  queueBytes?: number;
  /** The index port is called this often (and on close), never per frame. */
  indexFlushMs?: number;
  /** The clock that puts frames into UTC hours: their arrival time. */
  clock?: () => number;
}

export const ARCHIVE_DEFAULTS = { flushMs: 2_000, queueBytes: 32 * 1024 * 1024, indexFlushMs: 5_000 };

/** Frames of one station waiting for the next flush. */
class Pending {
  buffer: Buffer;
  used = 0;
  frames = 0;
  types = new Set<number>();
  firstAt = 0;
  lastAt = 0;
  /** Frames of this hour not archived (queue full, store failed) since the last flush. */
  dropped = 0;

  constructor(
    readonly hour: number,
    buffer: Buffer,
  ) {
    this.buffer = buffer;
  }
}

class Station {
  pending: Pending | null = null;
  /** Writes of this station, in order: members of an hour are appended one after the other. */
  chain: Promise<void> = Promise.resolve();
  /** The hour of the last frames queued for writing, until its end is queued (sealed or released). */
  open: number | null = null;
  holdsLease = false;
  lastFrameAt = 0;
  /** The buffer of the last batch compressed, reused for the next: no allocation per flush. */
  spare: Buffer | null = null;
  lastErrorLogAt = 0;

  constructor(readonly mountpoint: string) {}
}

const LOG_EVERY_MS = 60_000;
/** Compressing this much takes about 1 ms of the event loop: far above a station's 2 s, a bound for a runaway one. */
const MAX_MEMBER_INPUT = 64 * 1024;

/**
 * Archives the frames of the stations this process is fed, off the relay's path: `frame` copies a frame into the
 * station's buffer and returns; a timer compresses and stores each station's buffer every few seconds as one gzip
 * member, in order per station, and adds what it stored to the index port in batches. When the stored-but-not-yet-
 * written bytes reach `queueBytes`, new frames are dropped and counted, with a log line a minute: a slow disk
 * delays the archive, never a rover.
 */
export class ArchiveWriter {
  private readonly stations = new Map<string, Station>();
  private readonly store: ArchiveStore;
  private readonly lease: ArchiveLease | undefined;
  private readonly limits: typeof ARCHIVE_DEFAULTS;
  private readonly clock: () => number;
  private queued = 0;
  private droppedSinceLog = 0;
  private lastDropLogAt = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly indexTimer: NodeJS.Timeout;
  private updates = new Map<string, ArchiveHourUpdate>();
  private indexing: Promise<void> = Promise.resolve();
  private closed = false;
  /** Totals since start: what a test or an operator can compare with what was sent. */
  readonly counts = { frames: 0, dropped: 0, members: 0, failed: 0 };

  private readonly index: ArchiveIndexPort;

  constructor(
    options: ArchiveOptions,
    private readonly logger: Logger,
  ) {
    this.store = options.store;
    this.index = options.index;
    this.lease = options.lease;
    this.clock = options.clock ?? Date.now;
    this.limits = {
      flushMs: options.flushMs ?? ARCHIVE_DEFAULTS.flushMs,
      queueBytes: options.queueBytes ?? ARCHIVE_DEFAULTS.queueBytes,
      indexFlushMs: options.indexFlushMs ?? ARCHIVE_DEFAULTS.indexFlushMs,
    };
    this.timer = setInterval(() => this.flush(), this.limits.flushMs);
    this.timer.unref();
    this.indexTimer = setInterval(() => void this.flushIndex(), this.limits.indexFlushMs);
    this.indexTimer.unref();
  }

  /** RTCM bytes taken in and not yet stored (or given up on). */
  get queuedBytes(): number {
    return this.queued;
  }

  /** One valid frame from the station's own source. Copies it; allocates only when the station's buffer grows. */
  frame(mountpoint: string, data: Buffer, messageType: number): void {
    if (this.closed) return;
    let station = this.stations.get(mountpoint);
    if (!station) {
      station = new Station(mountpoint);
      this.stations.set(mountpoint, station);
    }
    const now = this.clock();
    const hour = now - (now % HOUR_MS);
    let pending = station.pending;
    if (pending && pending.hour !== hour) {
      this.cut(station);
      pending = null;
    }
    if (!pending) {
      pending = new Pending(hour, station.spare ?? Buffer.allocUnsafe(16 * 1024));
      station.spare = null;
      station.pending = pending;
    }
    station.lastFrameAt = now;
    if (this.queued + data.length > this.limits.queueBytes) {
      pending.dropped++;
      this.counts.dropped++;
      this.droppedSinceLog++;
      if (now - this.lastDropLogAt >= LOG_EVERY_MS) {
        this.lastDropLogAt = now;
        this.logger.warn(
          { queuedBytes: this.queued, dropped: this.droppedSinceLog, mountpoint },
          'archive queue full: frames dropped from the archive (the relay is not affected)',
        );
        this.droppedSinceLog = 0;
      }
      return;
    }
    if (pending.used + data.length > pending.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(pending.buffer.length * 2, pending.used + data.length));
      pending.buffer.copy(grown, 0, 0, pending.used);
      pending.buffer = grown;
    }
    data.copy(pending.buffer, pending.used);
    pending.used += data.length;
    pending.frames++;
    pending.types.add(messageType);
    if (pending.firstAt === 0) pending.firstAt = now;
    pending.lastAt = now;
    this.queued += data.length;
    this.counts.frames++;
    if (pending.used >= MAX_MEMBER_INPUT) this.cut(station);
  }

  /** Hands each station's pending frames to its write chain; seals hours that are over. */
  private flush(): void {
    const now = this.clock();
    const hour = now - (now % HOUR_MS);
    for (const station of this.stations.values()) {
      if (station.pending) this.cut(station);
      else if (station.holdsLease && now - station.lastFrameAt >= this.limits.flushMs) this.releaseLease(station);
      if (station.open !== null && station.open !== hour) this.finish(station, 'seal');
      if (!station.pending && station.open === null && now - station.lastFrameAt > HOUR_MS) {
        this.stations.delete(station.mountpoint);
      }
    }
  }

  private cut(station: Station): void {
    const pending = station.pending;
    if (!pending) return;
    station.pending = null;
    if (pending.frames === 0 && pending.dropped === 0) return;
    if (station.open !== pending.hour) this.finish(station, 'seal');
    if (pending.frames > 0) station.open = pending.hour;
    station.chain = station.chain.then(() => this.write(station, pending));
  }

  private async write(station: Station, pending: Pending): Promise<void> {
    const key: HourKey = { mountpoint: station.mountpoint, hour: pending.hour };
    try {
      if (pending.frames === 0) {
        this.addUpdate(key, pending, 0);
        return;
      }
      if (this.lease && !(await this.holdLease(station))) return;
      const frames = pending.buffer.subarray(0, pending.used);
      const { member, epochs } = await this.compress(() => {
        const done = { member: encodeMember(frames), epochs: epochRange(frames, pending.lastAt) };
        station.spare = pending.buffer;
        return done;
      });
      await this.store.append(key, member);
      this.counts.members++;
      this.addUpdate(key, pending, member.length, epochs);
    } catch (err) {
      this.counts.failed += pending.frames;
      pending.dropped += pending.frames;
      pending.frames = 0;
      this.addUpdate(key, pending, 0);
      const now = Date.now();
      if (now - station.lastErrorLogAt >= LOG_EVERY_MS) {
        station.lastErrorLogAt = now;
        this.logger.error(
          { err, mountpoint: station.mountpoint, hour: hourLabel(pending.hour), store: this.store.name },
          'archive write failed: frames lost from the archive',
        );
      }
    } finally {
      this.queued -= pending.used;
    }
  }

  /**
   * Runs compressions one per turn of the event loop, so the frames that arrive meanwhile are relayed between two
   * of them: all stations flush at the same moment, and their compressions in one go would hold up a fan-out.
   */
  private compress<T>(job: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.compressions.push(() => {
        try {
          resolve(job());
        } catch (err) {
          reject(err);
        }
      });
      if (this.compressions.length === 1) setImmediate(this.nextCompression);
    });
  }

  private readonly compressions: Array<() => void> = [];
  private readonly nextCompression = () => {
    this.compressions.shift()?.();
    if (this.compressions.length > 0) setImmediate(this.nextCompression);
  };

  private async holdLease(station: Station): Promise<boolean> {
    const held = await (this.lease as ArchiveLease).hold(station.mountpoint);
    if (held !== station.holdsLease) {
      station.holdsLease = held;
      this.logger.info(
        { mountpoint: station.mountpoint },
        held ? 'archive: this node archives the station' : 'archive: another node archives the station',
      );
    }
    return held;
  }

  private releaseLease(station: Station): void {
    station.holdsLease = false;
    const lease = this.lease as ArchiveLease;
    station.chain = station.chain.then(() =>
      lease.release(station.mountpoint).catch((err: unknown) => {
        this.logger.warn({ err, mountpoint: station.mountpoint }, 'archive lease release failed; it expires');
      }),
    );
  }

  /** Queues the end of the station's open hour: sealed when it is over, released when only this process stops. */
  private finish(station: Station, how: 'seal' | 'release'): void {
    const hour = station.open;
    if (hour === null) return;
    station.open = null;
    const key = { mountpoint: station.mountpoint, hour };
    station.chain = station.chain.then(async () => {
      try {
        await (how === 'seal' ? this.store.seal(key) : this.store.release(key));
      } catch (err) {
        this.logger.error({ err, mountpoint: key.mountpoint, hour: hourLabel(hour) }, `archive ${how} failed`);
      }
    });
  }

  private addUpdate(
    key: HourKey,
    pending: Pending,
    storedBytes: number,
    epochs: { first: number; last: number } | null = null,
  ): void {
    const id = `${key.mountpoint}\n${key.hour}`;
    const update: ArchiveHourUpdate = {
      mountpoint: key.mountpoint,
      hour: new Date(key.hour),
      bytes: pending.frames ? pending.used : 0,
      storedBytes,
      frames: pending.frames,
      droppedFrames: pending.dropped,
      firstFrameAt: pending.frames ? new Date(pending.firstAt) : null,
      lastFrameAt: pending.frames ? new Date(pending.lastAt) : null,
      firstEpoch: epochs && new Date(epochs.first),
      lastEpoch: epochs && new Date(epochs.last),
      messageTypes: pending.frames ? [...pending.types].sort((a, b) => a - b) : [],
    };
    const existing = this.updates.get(id);
    if (existing) mergeUpdate(existing, update);
    else this.updates.set(id, update);
  }

  /** Hands what was stored since the last call to the index port; a failed call is retried with the next. */
  flushIndex(): Promise<void> {
    this.indexing = this.indexing.then(async () => {
      if (this.updates.size === 0) return;
      const batch = this.updates;
      this.updates = new Map();
      try {
        await this.index.recordHours([...batch.values()]);
      } catch (err) {
        this.logger.error({ err, hours: batch.size }, 'archive index write failed; retried with the next batch');
        for (const [id, update] of batch) {
          const newer = this.updates.get(id);
          if (newer) mergeUpdate(update, newer);
          this.updates.set(id, update);
        }
      }
    });
    return this.indexing;
  }

  /**
   * Stores what is pending and waits for every write; an hour that is over is sealed, the current one released
   * (another process may continue it), and the index told.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    clearInterval(this.indexTimer);
    const now = this.clock();
    const hour = now - (now % HOUR_MS);
    for (const station of this.stations.values()) {
      this.cut(station);
      this.finish(station, station.open === hour ? 'release' : 'seal');
      if (station.holdsLease) this.releaseLease(station);
    }
    await Promise.all([...this.stations.values()].map((s) => s.chain));
    await this.flushIndex();
  }
}

/** Adds `more` into `into`: counts summed, first and last widened, message types joined. */
function mergeUpdate(into: ArchiveHourUpdate, more: ArchiveHourUpdate): void {
  into.bytes += more.bytes;
  into.storedBytes += more.storedBytes;
  into.frames += more.frames;
  into.droppedFrames += more.droppedFrames;
  if (more.firstFrameAt && (!into.firstFrameAt || more.firstFrameAt < into.firstFrameAt))
    into.firstFrameAt = more.firstFrameAt;
  if (more.lastFrameAt && (!into.lastFrameAt || more.lastFrameAt > into.lastFrameAt))
    into.lastFrameAt = more.lastFrameAt;
  if (more.firstEpoch && (!into.firstEpoch || more.firstEpoch < into.firstEpoch)) into.firstEpoch = more.firstEpoch;
  if (more.lastEpoch && (!into.lastEpoch || more.lastEpoch > into.lastEpoch)) into.lastEpoch = more.lastEpoch;
  into.messageTypes = [...new Set([...into.messageTypes, ...more.messageTypes])].sort((a, b) => a - b);
}
