import type { StationMonitor } from '../integrity/monitor.ts';
import type { CatalogueMountpoint } from '../ports.ts';
import type { Frame } from '../rtcm.ts';
import type { Rover } from './rover.ts';

/** Seconds the received byte rate of a source is averaged over. */
export const RATE_SECONDS = 5;

/** Message types a rover needs before it can use a station's observations: its position and antenna. */
export const STATION_MESSAGES = [1005, 1006, 1033];
export const NEAR_SUFFIX = '_NEAR';

export class Mount {
  source: SourceLink | null = null;
  remoteNode: string | null = null;
  remoteSeenAt = 0;
  /** Whether the node feeding it said, in its last announcement, that its data flows. */
  remoteFlowing = false;
  readonly rovers = new Set<Rover>();
  readonly cached = new Map<number, Frame>();
  lastDataAt: number | null = null;
  bytesInWindow = 0;
  reportedOnline = false;
  /** The evidence of the station's status: the last valid frame from its current source (ms), none yet when null. */
  sourceDataAt: number | null = null;
  sourceSince: number | null = null;
  sourceAddress: string | null = null;
  /** Bytes received in each of the last seconds, for the admin feed list's bytes per second. */
  readonly bytesPerSecond = new Uint32Array(RATE_SECONDS);
  /** The integrity monitor (issue 33): made when a source first attaches, unless the caster runs without it. */
  monitor: StationMonitor | null = null;
  /** Failing (or not yet good again): out of the nearest-station choice, still served on its own mountpoint. */
  excluded = false;
  /** What the sourcetable's misc field says while it is excluded. */
  integrityNotice: string | null = null;

  constructor(public info: CatalogueMountpoint) {}

  get name(): string {
    return this.info.mountpoint;
  }
}

export interface SourceLink {
  kind: 'push' | 'pull';
  /** The base station's address (push sources). */
  address?: string;
  close(reason: string): void;
}
