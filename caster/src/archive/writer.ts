import type { ArchiveHourUpdate, ArchiveIndexPort } from '../ports.ts';
import type { Logger } from '../session-log.ts';
import { type EpochRange, epochMinutes, epochRange } from './epochs.ts';
import type { ArchiveLease } from './lease.ts';
import { encodeMember } from './member.ts';
import { type ArchiveStore, HOUR_MS, type HourKey, hourLabel } from './store.ts';

/** The writer's settings; it runs in the archive's own thread (thread.ts), or in-process where a test needs it. */
export interface ArchiveWriterOptions {
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

/**
 * Frames of one station waiting for the next flush. Each station has two, used in turn (one filling while the other
 * is written), so a flush allocates nothing: at hundreds of stations, garbage made every two seconds is collections
 * that hold up the relay.
 */
class Pending {
  buffer = Buffer.allocUnsafe(4096);
  hour = 0;
  used = 0;
  frames = 0;
  readonly types = new Set<number>();
  firstAt = 0;
  lastAt = 0;
  /** Frames of this hour not archived (queue full, store failed) since the last flush. */
  dropped = 0;
  /** The compressed member, between compression and the store. */
  member: Buffer | null = null;
  readonly epochs: EpochRange = { first: 0, last: 0, minutesLow: 0, minutesHigh: 0 };
  hasEpochs = false;

  reset(hour: number): this {
    this.hour = hour;
    this.used = 0;
    this.frames = 0;
    this.types.clear();
    this.firstAt = 0;
    this.lastAt = 0;
    this.dropped = 0;
    this.member = null;
    this.hasEpochs = false;
    return this;
  }
}

/** What the index has not been told yet about one station's hour; dates are Unix ms, NaN for none. */
class HourTotals {
  bytes = 0;
  storedBytes = 0;
  frames = 0;
  dropped = 0;
  firstAt = Number.NaN;
  lastAt = Number.NaN;
  firstEpoch = Number.NaN;
  lastEpoch = Number.NaN;
  /** The hour's minutes holding an epoch, as EpochRange's bits. */
  minutesLow = 0;
  minutesHigh = 0;
  readonly types = new Set<number>();

  constructor(
    readonly mountpoint: string,
    readonly hour: number,
  ) {}

  add(more: HourTotals): void {
    this.bytes += more.bytes;
    this.storedBytes += more.storedBytes;
    this.frames += more.frames;
    this.dropped += more.dropped;
    this.firstAt = earliest(this.firstAt, more.firstAt);
    this.lastAt = latest(this.lastAt, more.lastAt);
    this.firstEpoch = earliest(this.firstEpoch, more.firstEpoch);
    this.lastEpoch = latest(this.lastEpoch, more.lastEpoch);
    this.minutesLow |= more.minutesLow;
    this.minutesHigh |= more.minutesHigh;
    for (const t of more.types) this.types.add(t);
  }

  update(): ArchiveHourUpdate {
    const date = (ms: number) => (Number.isNaN(ms) ? null : new Date(ms));
    return {
      mountpoint: this.mountpoint,
      hour: new Date(this.hour),
      bytes: this.bytes,
      storedBytes: this.storedBytes,
      frames: this.frames,
      droppedFrames: this.dropped,
      firstFrameAt: date(this.firstAt),
      lastFrameAt: date(this.lastAt),
      firstEpoch: date(this.firstEpoch),
      lastEpoch: date(this.lastEpoch),
      epochMinutes: epochMinutes(this),
      messageTypes: [...this.types].sort((a, b) => a - b),
    };
  }
}

const earliest = (a: number, b: number) => (Number.isNaN(a) || b < a ? b : a);
const latest = (a: number, b: number) => (Number.isNaN(a) || b > a ? b : a);

class Station {
  pending: Pending | null = null;
  /** Writes of this station, in order: members of an hour are appended one after the other. */
  chain: Promise<void> = Promise.resolve();
  /** The hour of the last frames queued for writing, until its end is queued (sealed or released). */
  open: number | null = null;
  holdsLease = false;
  lastFrameAt = 0;
  /** The station's other Pending, free again once its batch is compressed. */
  spare: Pending | null = new Pending();
  lastErrorLogAt = 0;

  constructor(readonly mountpoint: string) {}
}

const LOG_EVERY_MS = 60_000;
/** Compressing this much takes about 1 ms of the event loop: far above a station's 2 s, a bound for a runaway one. */
const MAX_MEMBER_INPUT = 64 * 1024;

/**
 * Archives the frames of the stations this process is fed; in the caster it runs in the archive's own thread
 * (thread.ts), fed from the relay through a shared ring. `frame` copies a frame into the station's buffer and
 * returns; a timer compresses and stores each station's buffer every few seconds as one gzip member, in order per
 * station, and adds what it stored to the index port in batches. When the stored-but-not-yet-written bytes reach
 * `queueBytes`, new frames are dropped and counted, with a log line a minute: a slow disk delays the archive, never
 * a rover.
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
  /** Per station and hour (ms), what the index has not been told yet. */
  private totals = new Map<string, Map<number, HourTotals>>();
  private indexing: Promise<void> = Promise.resolve();
  private closed = false;
  /** Totals since start: what a test or an operator can compare with what was sent. */
  readonly counts = { frames: 0, dropped: 0, members: 0, failed: 0 };

  private readonly index: ArchiveIndexPort;

  constructor(
    options: ArchiveWriterOptions,
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

  /**
   * One valid frame from the station's own source, arrived at `at`. Copies it; allocates only when the station's
   * buffer grows.
   */
  frame(mountpoint: string, data: Buffer, messageType: number, at = this.clock()): void {
    const pending = this.pendingOf(mountpoint, at);
    if (!pending) return;
    if (this.queued + data.length > this.limits.queueBytes) {
      pending.dropped++;
      this.counts.dropped++;
      this.droppedSinceLog++;
      if (at - this.lastDropLogAt >= LOG_EVERY_MS) {
        this.lastDropLogAt = at;
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
    if (pending.firstAt === 0) pending.firstAt = at;
    pending.lastAt = at;
    this.queued += data.length;
    this.counts.frames++;
    if (pending.used >= MAX_MEMBER_INPUT) this.cut(this.stations.get(mountpoint) as Station);
  }

  /**
   * `count` frames of the station that arrived at `at` never reached the writer: the ring from the relay was full
   * (the relay's thread logged it). They count as dropped in the hour's index.
   */
  dropped(mountpoint: string, count: number, at: number): void {
    const pending = this.pendingOf(mountpoint, at);
    if (!pending) return;
    pending.dropped += count;
    this.counts.dropped += count;
  }

  /** The station's batch for the hour of `at`; null once closed. */
  private pendingOf(mountpoint: string, at: number): Pending | null {
    if (this.closed) return null;
    let station = this.stations.get(mountpoint);
    if (!station) {
      station = new Station(mountpoint);
      this.stations.set(mountpoint, station);
    }
    const hour = at - (at % HOUR_MS);
    let pending = station.pending;
    if (pending && pending.hour !== hour) {
      this.cut(station);
      pending = null;
    }
    if (!pending) {
      // Both are taken only while one batch waits for the store and the next was cut already (a slow disk).
      pending = (station.spare ?? new Pending()).reset(hour);
      station.spare = null;
      station.pending = pending;
    }
    station.lastFrameAt = at;
    return pending;
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
    if (pending.frames === 0 && pending.dropped === 0) {
      station.spare ??= pending;
      return;
    }
    if (station.open !== pending.hour) this.finish(station, 'seal');
    if (pending.frames > 0) station.open = pending.hour;
    station.chain = station.chain.then(() => this.write(station, pending));
  }

  private async write(station: Station, pending: Pending): Promise<void> {
    const key: HourKey = { mountpoint: station.mountpoint, hour: pending.hour };
    try {
      if (pending.frames > 0 && (!this.lease || (await this.holdLease(station)))) {
        await this.compress(pending);
        await this.store.append(key, pending.member as Buffer);
        this.counts.members++;
        this.addTotals(station.mountpoint, pending, (pending.member as Buffer).length);
      } else if (pending.frames === 0) this.addTotals(station.mountpoint, pending, 0);
    } catch (err) {
      this.counts.failed += pending.frames;
      pending.dropped += pending.frames;
      pending.frames = 0;
      this.addTotals(station.mountpoint, pending, 0);
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
      pending.member = null;
      station.spare ??= pending;
    }
  }

  /**
   * Compresses a batch, one batch per turn of the event loop, so the frames that arrive meanwhile are taken in
   * between two compressions: all stations flush at the same moment, and their compressions in one go would hold
   * up whatever shares the loop (the ring's reader in the archive's thread). The index's epochs are read from the
   * frames at the same time.
   */
  private compress(pending: Pending): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.compressions.push(() => {
        try {
          const frames = pending.buffer.subarray(0, pending.used);
          pending.member = encodeMember(frames);
          pending.hasEpochs = epochRange(frames, pending.lastAt, pending.hour, pending.epochs);
          resolve();
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

  private addTotals(mountpoint: string, pending: Pending, storedBytes: number): void {
    let ofStation = this.totals.get(mountpoint);
    if (!ofStation) {
      ofStation = new Map();
      this.totals.set(mountpoint, ofStation);
    }
    let totals = ofStation.get(pending.hour);
    if (!totals) {
      totals = new HourTotals(mountpoint, pending.hour);
      ofStation.set(pending.hour, totals);
    }
    totals.dropped += pending.dropped;
    if (pending.frames === 0) return;
    totals.bytes += pending.used;
    totals.storedBytes += storedBytes;
    totals.frames += pending.frames;
    totals.firstAt = earliest(totals.firstAt, pending.firstAt);
    totals.lastAt = latest(totals.lastAt, pending.lastAt);
    if (pending.hasEpochs) {
      totals.firstEpoch = earliest(totals.firstEpoch, pending.epochs.first);
      totals.lastEpoch = latest(totals.lastEpoch, pending.epochs.last);
      totals.minutesLow |= pending.epochs.minutesLow;
      totals.minutesHigh |= pending.epochs.minutesHigh;
    }
    for (const t of pending.types) totals.types.add(t);
  }

  /** Hands what was stored since the last call to the index port; a failed call is retried with the next. */
  flushIndex(): Promise<void> {
    this.indexing = this.indexing.then(async () => {
      if (this.totals.size === 0) return;
      const batch = this.totals;
      this.totals = new Map();
      const hours = [...batch.values()].flatMap((ofStation) => [...ofStation.values()]);
      try {
        await this.index.recordHours(hours.map((h) => h.update()));
      } catch (err) {
        this.logger.error({ err, hours: hours.length }, 'archive index write failed; retried with the next batch');
        for (const failed of hours) {
          let ofStation = this.totals.get(failed.mountpoint);
          if (!ofStation) {
            ofStation = new Map();
            this.totals.set(failed.mountpoint, ofStation);
          }
          const newer = ofStation.get(failed.hour);
          if (newer) failed.add(newer);
          ofStation.set(failed.hour, failed);
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
