/** One station's UTC hour in the archive. */
export interface HourKey {
  /** The station's mountpoint as the catalogue spells it. */
  mountpoint: string;
  /** Start of the UTC hour, Unix milliseconds. */
  hour: number;
}

export const HOUR_MS = 3_600_000;

/**
 * How to open a store, as data: the archive's writing thread opens its own from this (a store object cannot cross
 * threads). `module` names a module whose `openArchiveStore(options, logger)` returns one: a store of one's own.
 */
export type ArchiveStoreSpec =
  | { kind: 'local'; dir: string }
  | { kind: 'nats'; url: string; bucket: string; replicas?: number }
  | { kind: 'module'; module: string; options?: unknown };

/**
 * Where archive hours are kept: a local directory, or a NATS JetStream object store that every caster node shares.
 * An hour is a sequence of gzip members (member.ts) that only grows, so a store never rewrites what it holds.
 */
export interface ArchiveStore {
  /** `local` or `nats:BUCKET`, for log lines and the index. */
  readonly name: string;
  /** How another thread opens this same store. */
  readonly spec: ArchiveStoreSpec;
  /** Appends one member to the hour; resolves once the store holds it (the local file is synced, NATS acked). */
  append(key: HourKey, member: Buffer): Promise<void>;
  /** Nothing more will be written to the hour: the local file is closed, the NATS tail becomes the hour's object. */
  seal(key: HourKey): Promise<void>;
  /** This process stops writing the hour for now (shutting down mid-hour); another process may continue it. */
  release(key: HourKey): Promise<void>;
  /** The stored bytes of the hour as they are read; nothing when the store has no such hour. */
  read(key: HourKey): AsyncIterable<Buffer>;
  remove(key: HourKey): Promise<void>;
  /** Every hour the store holds, for the retention sweeper. */
  list(): AsyncIterable<HourKey>;
  /** Seals hours that ended before `before` and that a crashed or stopped writer left open; returns how many. */
  sealAbandoned(before: number): Promise<number>;
  close(): Promise<void>;
}

/** Mountpoints as the catalogue allows them: safe as a path component and as a NATS subject token. */
const MOUNTPOINT = /^[A-Za-z0-9_-]{1,64}$/;

export function checkKey(key: HourKey): void {
  if (!MOUNTPOINT.test(key.mountpoint)) throw new Error(`archive: not a mountpoint: ${JSON.stringify(key.mountpoint)}`);
  if (!Number.isSafeInteger(key.hour) || key.hour % HOUR_MS !== 0) {
    throw new Error(`archive: not the start of a UTC hour: ${key.hour}`);
  }
}

/** `2026-11-24T10` for the hour starting 2026-11-24 10:00 UTC. */
export function hourLabel(hour: number): string {
  return new Date(hour).toISOString().slice(0, 13);
}

const LABEL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})$/;

export function parseHourLabel(label: string): number | null {
  const m = LABEL.exec(label);
  if (!m) return null;
  const hour = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]));
  return hourLabel(hour) === label ? hour : null;
}

export function isMountpoint(name: string): boolean {
  return MOUNTPOINT.test(name);
}

/** The UTC hours that overlap [from, to), oldest first. */
export function hoursBetween(from: number, to: number): number[] {
  const hours: number[] = [];
  for (let h = from - (((from % HOUR_MS) + HOUR_MS) % HOUR_MS); h < to; h += HOUR_MS) hours.push(h);
  return hours;
}
