import { distanceKm, type Position } from '../gga.ts';
import type { Mount } from './mount.ts';

/**
 * The station a nearest-station rover is to be served by: the closest of its network whose data flows, unless the
 * current one still flows and is less than `hysteresisKm` farther (undefined: stay). Null when none flows and the
 * rover has no station yet.
 */
export function nearestStation(
  position: Position,
  network: string,
  current: Mount | null,
  mounts: Iterable<Mount>,
  flowing: (mount: Mount) => boolean,
  hysteresisKm: number,
): Mount | null | undefined {
  let best: Mount | null = null;
  let bestKm = Number.POSITIVE_INFINITY;
  for (const m of mounts) {
    if (m.info.network !== network || !flowing(m)) continue;
    const km = distanceKm(position, m.info);
    if (km < bestKm) {
      best = m;
      bestKm = km;
    }
  }
  if (current && best && current !== best && flowing(current)) {
    if (bestKm + hysteresisKm >= distanceKm(position, current.info)) return undefined;
  }
  if (current && !best) return undefined;
  return best;
}
