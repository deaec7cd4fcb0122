import { distanceKm, type Position } from '../gga.ts';
import type { RoverOutput } from '../relay/profiles.ts';
import type { RoverFix } from './fix.ts';
import type { LiveSession, LiveSource, TelemetryQuery } from './types.ts';

/** What the telemetry reads of a rover: the caster's own class satisfies it. */
export interface RoverView {
  readonly id: number;
  readonly accountId: string;
  readonly remoteAddress: string;
  readonly userAgent: string | null;
  readonly version: 1 | 2;
  readonly tls: boolean;
  readonly requested: string;
  readonly nearNetwork: string | null;
  readonly startedAt: Date;
  readonly bytesSent: number;
  readonly position: Position | null;
  readonly fix: RoverFix | null;
  readonly mount: { readonly name: string; readonly info: Position } | null;
  readonly output: RoverOutput;
}

export interface SourceView {
  readonly name: string;
  readonly source: { readonly kind: 'push' | 'pull' } | null;
  readonly sourceAddress: string | null;
  readonly sourceSince: number | null;
  readonly sourceDataAt: number | null;
  readonly bytesPerSecond: Uint32Array;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The station a rover is served by, and its distance from the rover's last position. */
function served(rover: RoverView): { servedStation: string | null; distanceKm: number | null } {
  const station = rover.mount;
  if (!station) return { servedStation: null, distanceKm: null };
  return {
    servedStation: station.name,
    distanceKm: rover.position ? round(distanceKm(rover.position, station.info), 3) : null,
  };
}

export function liveSession(node: string, rover: RoverView): LiveSession {
  return {
    node,
    id: `${node}:${rover.id}`,
    accountId: rover.accountId,
    remoteAddress: rover.remoteAddress,
    userAgent: rover.userAgent,
    ntripVersion: rover.version,
    tls: rover.tls,
    mountpoint: rover.requested,
    ...served(rover),
    rtcmProfile: rover.output.profile,
    constellations: rover.output.constellations,
    connectedAt: rover.startedAt.toISOString(),
    bytesSent: rover.bytesSent,
    position: rover.position && { latitude: rover.position.latitude, longitude: rover.position.longitude },
    fix: rover.fix?.last ?? null,
  };
}

/** What an ended session keeps beyond bytes and times: where it was served from and how well it fixed. */
export function endedTelemetry(rover: RoverView) {
  const shares = rover.fix?.shares() ?? null;
  return {
    userAgent: rover.userAgent,
    ...served(rover),
    fixedShare: shares ? round(shares.fixed, 4) : null,
    floatShare: shares ? round(shares.float, 4) : null,
  };
}

export function liveSource(node: string, mount: SourceView, now: number, onlineWindowMs: number): LiveSource | null {
  if (!mount.source || mount.sourceSince === null) return null;
  let bytes = 0;
  for (const b of mount.bytesPerSecond) bytes += b;
  return {
    node,
    mountpoint: mount.name,
    kind: mount.source.kind,
    address: mount.sourceAddress,
    connectedAt: new Date(mount.sourceSince).toISOString(),
    lastFrameAt: mount.sourceDataAt === null ? null : new Date(mount.sourceDataAt).toISOString(),
    bytesPerSecond: Math.round(bytes / mount.bytesPerSecond.length),
    receiving: mount.sourceDataAt !== null && now - mount.sourceDataAt < onlineWindowMs,
  };
}

/** Which accounts' sessions a query wants; null for none. */
export function wantedAccounts(query: TelemetryQuery): Set<string> | 'all' | null {
  if (!query.sessions) return null;
  return 'all' in query.sessions ? 'all' : new Set(query.sessions.accountIds);
}
