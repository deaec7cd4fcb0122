import type { ClientConnection } from '../connection.ts';
import type { DirectWriter } from '../direct-write.ts';
import type { Position } from '../gga.ts';
import type { Frame } from '../rtcm.ts';
import type { RoverFix } from '../telemetry/fix.ts';
import { isTls } from '../tls.ts';
import type { Mount } from './mount.ts';
import { AS_SENT, type RoverOutput } from './profiles.ts';

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
