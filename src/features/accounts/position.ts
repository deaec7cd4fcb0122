import type { AccountMountpoint } from '@portal/contract';

/** Where the rover is: the position a nearest-station mountpoint needs (degrees, ellipsoidal height in metres). */
export interface RoverPosition {
  latitude: number;
  longitude: number;
  height: number;
}

/** Great-circle distance in kilometres (mean Earth radius), the caster's measure for the nearest station. */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A typed position: decimal degrees with a point (a comma is read as one, as Dutch keyboards type it), height
 * optional (0). Undefined when a coordinate is missing or outside the Earth.
 */
export function parsePosition(latitude: string, longitude: string, height: string): RoverPosition | undefined {
  const number = (text: string) => {
    const clean = text.trim().replace(',', '.');
    return /^[-+]?\d+(\.\d+)?$/.test(clean) ? Number(clean) : Number.NaN;
  };
  const lat = number(latitude);
  const lon = number(longitude);
  const hgt = height.trim() === '' ? 0 : number(height);
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || !Number.isFinite(hgt)) return undefined;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180 || Math.abs(hgt) > 10_000) return undefined;
  return { latitude: lat, longitude: lon, height: hgt };
}

export type StationMountpoint = AccountMountpoint & { kind: 'station'; latitude: number; longitude: number };

const isStation = (m: AccountMountpoint): m is StationMountpoint =>
  m.kind === 'station' && m.latitude !== null && m.longitude !== null;

/** The account's mountpoints with each station's distance from the position (null without one). */
export function withDistances(
  mountpoints: AccountMountpoint[],
  position: RoverPosition | undefined,
): Array<AccountMountpoint & { distanceKm: number | null }> {
  const rows = mountpoints.map((m) => ({
    ...m,
    distanceKm: position && isStation(m) ? distanceKm(position, m) : null,
  }));
  if (!position) return rows;
  // Nearest-station mountpoints stay on top, the stations follow nearest first.
  return rows.sort((a, b) => {
    if (a.kind !== b.kind) return a.kind === 'near' ? -1 : 1;
    return (a.distanceKm ?? 0) - (b.distanceKm ?? 0);
  });
}

export type Recommendation =
  /** The network's nearest-station mountpoint, for a rover at the position; `station` is what it would serve. */
  | { kind: 'near'; mountpoint: string; station: StationMountpoint; distanceKm: number }
  /** Without a position: a station's own mountpoint, which needs no position. */
  | { kind: 'station'; mountpoint: string; station: StationMountpoint };

/**
 * With a position, the nearest-station mountpoint of the network whose online station is nearest (the caster
 * serves that station); without one, a fixed station (the first online one), because a nearest-station
 * mountpoint sends nothing until it has a position. Only online stations are recommended: with none online there is
 * no recommendation (issue 32: the card said "the caster serves AMST00NLD0" while AMST00NLD0 sent nothing);
 * `{ offline: true }` then picks among all stations, for settings the rover can keep until a station is back.
 */
export function recommendMountpoint(
  mountpoints: AccountMountpoint[],
  position: RoverPosition | undefined,
  { offline = false } = {},
): Recommendation | undefined {
  const all = mountpoints.filter(isStation);
  const stations = offline ? all : all.filter((s) => s.online);
  if (position) {
    let best: StationMountpoint | undefined;
    let bestKm = Number.POSITIVE_INFINITY;
    for (const s of stations) {
      const km = distanceKm(position, s);
      if (km < bestKm) {
        best = s;
        bestKm = km;
      }
    }
    const near = best && mountpoints.find((m) => m.kind === 'near' && m.networkSlug === best.networkSlug);
    if (best && near) return { kind: 'near', mountpoint: near.mountpoint, station: best, distanceKm: bestKm };
  }
  const station = stations[0];
  return station && { kind: 'station', mountpoint: station.mountpoint, station };
}

/** Plain case-insensitive text match on name, place and network; the query never becomes a pattern. */
export function matchesMountpoint(m: AccountMountpoint, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [m.mountpoint, m.identifier, m.networkName].some((field) => field.toLowerCase().includes(q));
}

/** Whether a network's coverage box ([minLon, minLat, maxLon, maxLat], crossing the antimeridian when minLon > maxLon) holds the point. */
export function bboxContains(
  [minLon, minLat, maxLon, maxLat]: readonly [number, number, number, number],
  p: { latitude: number; longitude: number },
): boolean {
  if (p.latitude < minLat || p.latitude > maxLat) return false;
  return minLon <= maxLon
    ? p.longitude >= minLon && p.longitude <= maxLon
    : p.longitude >= minLon || p.longitude <= maxLon;
}
