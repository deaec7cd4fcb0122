import type { ClientConnection } from '../connection.ts';
import type { DirectWriter } from '../direct-write.ts';
import type { Position } from '../gga.ts';
import type { StationMonitor } from '../integrity/monitor.ts';
import type { CatalogueMountpoint } from '../ports.ts';
import type { Frame } from '../rtcm.ts';
import type { RoverFix } from '../telemetry/fix.ts';
import { isTls } from '../tls.ts';
import { AS_SENT, OUTPUT_STATION_MESSAGES, ProfileStream, type RoverOutput } from './profiles.ts';

/**
 * A station's mountpoint and the rovers on it: each knows the other (a mount its rovers, a rover its mount), so
 * both classes live here.
 */

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
  /** Every rover on the station, whatever it gets. */
  readonly rovers = new Set<Rover>();
  /** Those that get the station's frames byte for byte: the relay's fast path (ADR 0088). */
  readonly asSent = new Set<Rover>();
  /** The encoded outputs by profile key, each shared by its rovers; one goes when its last rover does. */
  readonly streams = new Map<string, ProfileStream<Rover>>();
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

  /** Puts a rover on the station, on the fast path or on its profile's output. */
  add(rover: Rover): void {
    this.rovers.add(rover);
    const key = rover.output.key;
    if (key === null) this.asSent.add(rover);
    else this.stream(rover.output).rovers.add(rover);
  }

  delete(rover: Rover): void {
    this.rovers.delete(rover);
    const key = rover.output.key;
    if (key === null) {
      this.asSent.delete(rover);
      return;
    }
    const stream = this.streams.get(key);
    stream?.rovers.delete(rover);
    if (stream?.rovers.size === 0) this.streams.delete(key);
  }

  /** What a rover switching to the station gets first: the station's position and antenna, in its output's form. */
  stationMessages(output: RoverOutput): Frame[] {
    if (output.key === null) return STATION_MESSAGES.flatMap((type) => this.cached.get(type) ?? []);
    const { cached } = this.stream(output);
    return OUTPUT_STATION_MESSAGES.flatMap((type) => cached.get(type) ?? []);
  }

  /**
   * The output of a profile, made for its first rover. A new encoder is given the station messages the station sent
   * last, so it has a position and antenna to hand on before the station sends them again.
   */
  private stream(output: RoverOutput): ProfileStream<Rover> {
    const key = output.key as string;
    let stream = this.streams.get(key);
    if (!stream) {
      stream = new ProfileStream<Rover>(output, this.info);
      for (const type of STATION_MESSAGES) {
        const frame = this.cached.get(type);
        if (frame) stream.encode(frame);
      }
      this.streams.set(key, stream);
    }
    return stream;
  }
}

export interface SourceLink {
  kind: 'push' | 'pull';
  /** The base station's address (push sources). */
  address?: string;
  close(reason: string): void;
}

/** One batch per NTRIP version: NTRIP 1 rovers get a frame raw, NTRIP 2 rovers as one chunk. */
export type DirectWriters = { 1: DirectWriter; 2: DirectWriter };

let roverIds = 0;

export class Rover {
  bytesSent = 0;
  lastSentAt: number;
  /** When it logged in (ms); a number, not a Date, as a Date is 90 more bytes per rover for a figure rarely read. */
  readonly startedMs: number;
  position: Position | null = null;
  mount: Mount | null = null;
  ended = false;
  /** When it ended (ms); null while connected. */
  endedAt: number | null = null;
  userAgent: string | null = null;
  readonly id = ++roverIds;
  /** Fix quality and corrections' age from the rover's GGA, for its live session (telemetry/); made at its first line. */
  fix: RoverFix | null = null;
  /** What it gets (issue 36): set at login from its account and mountpoint suffix, before it joins a station. */
  output: RoverOutput = AS_SENT;
  /** Its account's connection across the caster nodes, given back when it ends (ADR 0040). */
  lease: { release(): void } | null = null;
  private line = '';

  constructor(
    readonly socket: ClientConnection,
    readonly version: 1 | 2,
    readonly accountId: string,
    /** The network slug the login was allowed for, and until when (ms); both are what access re-checks test. */
    readonly network: string,
    public accessUntil: number,
    readonly requested: string,
    readonly nearNetwork: string | null,
    readonly remoteAddress: string,
    private readonly backlogLimit: number,
    private readonly onSlow: (rover: Rover) => void,
    now: number,
  ) {
    this.lastSentAt = now;
    this.startedMs = now;
  }

  /** It connected over a TLS port (read from the socket: nothing more kept per rover). */
  get tls(): boolean {
    return isTls(this.socket);
  }

  get startedAt(): Date {
    return new Date(this.startedMs);
  }

  /** With `direct`, the frame joins the batch that `deliver` flushes, when the socket can take it directly. */
  send(frame: Frame, now: number, direct?: DirectWriters): void {
    if (this.ended) return;
    const data = this.version === 2 ? frame.chunked : frame.data;
    this.bytesSent += data.length;
    this.lastSentAt = now;
    if (direct?.[this.version].add(this.socket)) return;
    this.socket.write(data);
    if (this.socket.writableLength > this.backlogLimit) this.onSlow(this);
  }

  /** Collects NMEA lines from whatever the rover sends (v2 clients may wrap them in chunks; those lines are skipped). */
  readLines(chunk: Buffer, maxLine: number, onLine: (rover: Rover, line: string) => void): void {
    let text = this.line + chunk.toString('latin1');
    let nl = text.indexOf('\n');
    while (nl >= 0) {
      onLine(this, text.slice(0, nl));
      text = text.slice(nl + 1);
      nl = text.indexOf('\n');
    }
    this.line = text.length > maxLine ? '' : text;
  }
}
