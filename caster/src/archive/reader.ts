import { type ArchiveDamage, decodeMembers } from './member.ts';
import { type ArchiveStore, type HourKey, hoursBetween } from './store.ts';

export interface HourDamage extends ArchiveDamage {
  mountpoint: string;
  /** Start of the UTC hour the damage is in, Unix ms. */
  hour: number;
}

/**
 * The archived frames of the given hours, in the order given, as a stream of buffers of whole RTCM 3 frames (one
 * buffer per stored member, a few seconds of data), read hour after hour: memory stays that of one member whatever
 * the window. Hours the store does not have are skipped; damage (a member cut by a crash) is skipped and reported.
 */
export async function* readArchiveHours(
  store: ArchiveStore,
  keys: Iterable<HourKey>,
  onDamage?: (damage: HourDamage) => void,
): AsyncGenerator<Buffer> {
  for (const key of keys) {
    yield* decodeMembers(store.read(key), (damage) => onDamage?.({ ...damage, ...key }));
  }
}

/** A station's archived frames for the UTC hours overlapping [from, to) (Unix ms), as readArchiveHours. */
export function readArchive(
  store: ArchiveStore,
  mountpoint: string,
  from: number,
  to: number,
  onDamage?: (damage: HourDamage) => void,
): AsyncGenerator<Buffer> {
  return readArchiveHours(
    store,
    hoursBetween(from, to).map((hour) => ({ mountpoint, hour })),
    onDamage,
  );
}
