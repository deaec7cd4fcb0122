import type { ProfileConstellation, RtcmProfile } from '../ports.ts';

/** What a caster node tells the portal about its live connections (issue 17), locally or over the bus. */

/** GGA fix quality (NMEA field 6) in words: 0 no fix, 1 single, 2 DGNSS, 4 RTK fixed, 5 RTK float; the rest other. */
export type FixQuality = 'no_fix' | 'single' | 'dgnss' | 'float' | 'fixed' | 'other';

export interface RoverFixReport {
  quality: FixQuality;
  /** Age of the differential corrections the rover uses (GGA field 13), seconds; null when it sends none. */
  ageOfCorrections: number | null;
  satellites: number | null;
  /** When the GGA arrived (ISO). */
  at: string;
}

export interface LiveSession {
  node: string;
  /** Unique on its node while it lasts. */
  id: string;
  accountId: string;
  remoteAddress: string;
  userAgent: string | null;
  ntripVersion: 1 | 2;
  /** It connected over a TLS port. */
  tls: boolean;
  /** The mountpoint asked for. */
  mountpoint: string;
  /** The station whose data it gets: the mountpoint itself, or for `{NET}_NEAR` the one chosen (null: none yet). */
  servedStation: string | null;
  /** From the rover's last GGA position to the served station, km; null without either. */
  distanceKm: number | null;
  /** What it gets (issue 36); absent from nodes that predate profiles, which send every rover 'as-sent'. */
  rtcmProfile?: RtcmProfile;
  /** null: every constellation the station sends. */
  constellations?: readonly ProfileConstellation[] | null;
  connectedAt: string;
  bytesSent: number;
  position: { latitude: number; longitude: number } | null;
  fix: RoverFixReport | null;
}

export interface LiveSource {
  node: string;
  mountpoint: string;
  kind: 'push' | 'pull';
  /** The base station's address (push sources); null for pull feeds. */
  address: string | null;
  connectedAt: string;
  /** Last valid frame (ISO); null when none arrived since the source connected. */
  lastFrameAt: string | null;
  bytesPerSecond: number;
  /** A valid frame arrived within the station-online window: what makes the station online. */
  receiving: boolean;
}

/** Which part of the live state a caller asks for; sessions of the accounts given, or of every account. */
export interface TelemetryQuery {
  sessions?: { accountIds: string[] } | { all: true };
  sources?: boolean;
}

export interface TelemetrySnapshot {
  node: string;
  /** The node's clock when it answered (ISO), so ages are computed against the same clock as the times. */
  at: string;
  sessions: LiveSession[];
  sources: LiveSource[];
}

export interface LiveTelemetry {
  /** This node's state and, with a bus, every other node's that answered in time. */
  live(query: TelemetryQuery): Promise<{ nodes: TelemetrySnapshot[]; complete: boolean }>;
}
