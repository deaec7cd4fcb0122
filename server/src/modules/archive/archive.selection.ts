import { type HourKey, hourLabel, hoursBetween, parseHourLabel } from '@portal/caster/archive';
import type { Database } from '../../db/client.ts';
import { type ArchiveStation, createArchiveRepo } from './archive.repo.ts';

/**
 * Frames are filed under the hour they arrive in, a little after their epoch: an epoch just before `to` can be in
 * the next hour's file, one just after `from` cannot be in an earlier hour unless the clocks disagree.
 */
const EARLY_MS = 10_000;
const LATE_MS = 60_000;

export interface ArchiveSelection {
  station: Pick<ArchiveStation, 'mountpoint' | 'country'>;
  /** The stored hours to read, in time order. */
  keys: HourKey[];
}

/**
 * The stored hours holding a station's epochs in [from, to): per hour, the names the index says it was archived
 * under (a station renamed mid-hour has two), or its current name where the index has no row (a report lost in a
 * crash). Null for a station the catalogue does not know.
 */
export async function selectArchiveHours(
  db: Database,
  station: string,
  from: Date,
  to: Date,
): Promise<ArchiveSelection | null> {
  const repo = createArchiveRepo(db);
  const found = await repo.station(station);
  if (!found) return null;
  const first = from.getTime() - EARLY_MS;
  const end = to.getTime() + LATE_MS;
  const rows = await repo.hoursOf(found.id, new Date(first), new Date(end));
  const keys: HourKey[] = [];
  for (const hour of hoursBetween(first, end)) {
    const indexed = rows
      .filter((r) => r.hour.getTime() === hour)
      .sort((a, b) => (a.first_frame_at?.getTime() ?? 0) - (b.first_frame_at?.getTime() ?? 0));
    if (indexed.length === 0) keys.push({ mountpoint: found.mountpoint, hour });
    for (const row of indexed) keys.push({ mountpoint: row.mountpoint, hour });
  }
  return { station: { mountpoint: found.mountpoint, country: found.country }, keys };
}

/** A selection as text lines (the operator socket's answer): the station, then one stored hour a line. */
export function formatArchiveSelection(selection: ArchiveSelection): string[] {
  return [
    `${selection.station.mountpoint} ${selection.station.country}`,
    ...selection.keys.map((k) => `${k.mountpoint} ${hourLabel(k.hour)}`),
  ];
}

/** The lines of formatArchiveSelection read back; null when they are not such lines. */
export function parseArchiveSelection(lines: string[]): ArchiveSelection | null {
  const [head, ...rest] = lines.map((line) => line.split(' '));
  const [mountpoint, country] = head ?? [];
  if (!mountpoint || !country) return null;
  const keys: HourKey[] = [];
  for (const [name, label] of rest) {
    const hour = label === undefined ? null : parseHourLabel(label);
    if (!name || hour === null) return null;
    keys.push({ mountpoint: name, hour });
  }
  return { station: { mountpoint, country }, keys };
}
