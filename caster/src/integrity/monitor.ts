import {
  decodeStationMessage,
  decodeStationPosition,
  ecefToGeodetic,
  emptyStation,
  geodeticToEcef,
  getBitU,
  gpstToUtc,
  horizontalVertical,
  resolveGlonassTod,
  resolveTow,
  utcToGpst,
} from '@portal/gnss';

import type { IntegrityCode, IntegrityState, NetworkIntegritySettings } from '../ports.ts';

/** What a check found: the worst of them is the station's state (issue 33). */
export type IntegrityLevel = IntegrityState;

export interface IntegrityReason {
  code: IntegrityCode;
  level: Exclude<IntegrityLevel, 'ok'>;
  message: string;
  /** When the check left ok (ms since the epoch). */
  since: number;
}

/** What a network's operator may set; the rest are the monitor's fixed rules (ADR 0063). */
export type IntegritySettings = NetworkIntegritySettings;

export const DEFAULT_INTEGRITY: IntegritySettings = {
  movedHorizontalM: 0.02,
  movedVerticalM: 0.04,
  goodPeriodMs: 60_000,
};

/** The surveyed position the catalogue keeps for the station. */
export interface SurveyedPosition {
  latitude: number;
  longitude: number;
  heightM: number | null;
  /** The receiver and antenna the catalogue names; empty or absent: not stated, nothing to compare. */
  receiver?: string;
  antenna?: string;
}

/** A descriptor as compared: upper case, runs of spaces as one (1033 pads the antenna's radome with spaces). */
const descriptor = (text: string) => text.trim().replace(/\s+/g, ' ').toUpperCase();

/**
 * The same equipment: equal descriptors, or one names the antenna without the radome the other adds (a catalogue
 * entry often leaves out `NONE`).
 */
function sameDescriptor(catalogue: string, sent: string): boolean {
  const a = descriptor(catalogue);
  const b = descriptor(sent);
  return a === b || b.startsWith(`${a} `) || a.startsWith(`${b} `);
}

/** Beyond this the catalogue's position is not the one the station sends (a warning: rovers use the sent one). */
const MISMATCH_HORIZONTAL_M = 1;
const MISMATCH_VERTICAL_M = 3;
/** Median latency above these over the last epochs: warning, failing. */
const LATE_WARNING_MS = 2_000;
const LATE_FAILING_MS = 5_000;
/**
 * Epochs this far from now, either way, are a recording or a receiver without time, not a late stream: a rover
 * cannot match them with its own epochs, so they mislead nobody (a warning, not a failure).
 */
const NOT_CURRENT_MS = 3_600_000;
/** CRC failures over the last minute, as a share of the frames: warning (with at least 3 failures), failing. */
const CRC_WARNING_SHARE = 0.01;
const CRC_FAILING_SHARE = 0.1;
/** A gap of observations is reported this long after it ended. */
const GAP_HOLD_MS = 5 * 60_000;
/** A message type is part of the station's usual set once it arrived this many times, apart. */
const USUAL_AFTER = 3;
const FIRST_TYPE = 1001;
const LAST_TYPE = 1300;

const SYSTEMS = ['GPS', 'GLONASS', 'Galileo', 'SBAS', 'QZSS', 'BeiDou', 'NavIC'] as const;
type System = (typeof SYSTEMS)[number];

/** Index into SYSTEMS of an MSM message type (1071–1137, MSM1–7), or -1. */
function msmSystem(type: number): number {
  if (type < 1071 || type > 1137) return -1;
  const kind = type % 10;
  if (kind < 1 || kind > 7) return -1;
  return Math.floor((type - 1071) / 10);
}

/** Centimetres to a millimetre; a rounded −0.0 reads 0.0. */
const cm = (m: number) => `${(Math.round(m * 1000) / 10 || 0).toFixed(1)} cm`;
const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
const utcTime = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)} UTC`;

/**
 * The integrity of one station from the frames its source sends (issue 33, ADR 0063). `frame` runs per frame after
 * the frame went to the rovers and only reads a few header bits (a 1005/1006 is decoded whole: one a second or
 * rarer); the checks run in `evaluate`, once a second, off the frame path.
 */
export class StationMonitor {
  /** Per message type 1001–1300: arrivals counted apart (a burst counts once), last arrival, longest gap. */
  private readonly typeCount = new Uint32Array(LAST_TYPE - FIRST_TYPE + 1);
  private readonly typeLast = new Float64Array(LAST_TYPE - FIRST_TYPE + 1);
  private readonly typeGap = new Float64Array(LAST_TYPE - FIRST_TYPE + 1);
  /** Per constellation: arrivals, last arrival, signals seen before and in the current window. */
  private readonly systemCount = new Uint32Array(SYSTEMS.length);
  private readonly systemLast = new Float64Array(SYSTEMS.length);
  private readonly usualSignals = new Uint32Array(SYSTEMS.length);
  private readonly windowSignals = new Uint32Array(SYSTEMS.length);
  private readonly signalsSeenAt = new Float64Array(SYSTEMS.length * 32);
  private readonly signalWindows = new Uint16Array(SYSTEMS.length * 32);
  /** Latency of the newest epoch's first frame (ms) over the last epochs, a ring. */
  private readonly latencies = new Float64Array(5);
  private latencyCount = 0;
  private lastEpochMs = 0;
  private epochIntervalMs = 0;
  private gap: { from: number; to: number } | null = null;
  /** The reference position of the station's recent history (after a re-survey: the first one after it). */
  private reference: [number, number, number] | null = null;
  position: [number, number, number] | null = null;
  private positionAt = 0;
  /** Frames and CRC failures per second over the last minute, rings. */
  private readonly framesPerSecond = new Uint32Array(60);
  private readonly crcPerSecond = new Uint32Array(60);
  private crcSeen = 0;
  private frames = 0;
  private readonly since = new Map<IntegrityCode, number>();
  /** The receiver type (1033) and antenna descriptor (1007/1008/1033) the station sends; empty before the first. */
  sentReceiver = '';
  sentAntenna = '';
  /** Set when a 1005/1006 moved: the check runs at once, not at the next second. */
  positionChanged = false;

  frame(data: Uint8Array, type: number, now: number): void {
    this.frames++;
    const system = msmSystem(type);
    if (system >= 0) {
      this.systemCount[system] = (this.systemCount[system] as number) + 1;
      this.systemLast[system] = now;
      this.windowSignals[system] = (this.windowSignals[system] as number) | getBitU(data, 160, 32);
      // GPS, GLONASS, Galileo and QZSS epochs carry GPS time (GLONASS: Moscow time); BeiDou's is BDT or GPST
      // depending on firmware, so it is left out of the latency.
      if (system === 0 || system === 1 || system === 2 || system === 4) this.epoch(data, system, now);
    }
    if (type >= FIRST_TYPE && type <= LAST_TYPE) {
      const i = type - FIRST_TYPE;
      const last = this.typeLast[i] as number;
      // Ephemerides come in bursts; the interval is between bursts.
      if (last === 0 || now - last >= 500) {
        if (last !== 0 && now - last > (this.typeGap[i] as number)) this.typeGap[i] = now - last;
        this.typeCount[i] = (this.typeCount[i] as number) + 1;
      }
      this.typeLast[i] = now;
    }
    if (type === 1005 || type === 1006) this.stationPosition(data, now);
    // One every few seconds or rarer: decoded whole, as a 1005 is.
    if (type === 1007 || type === 1008 || type === 1033) this.descriptors(data);
  }

  private descriptors(frame: Uint8Array): void {
    const info = emptyStation();
    // The frame's payload: after the 3-byte header, before the 3-byte CRC.
    if (!decodeStationMessage(frame.subarray(3, frame.length - 3), info)) return;
    if (info.antennaDescriptor) this.sentAntenna = info.antennaDescriptor;
    if (info.receiverType) this.sentReceiver = info.receiverType;
  }

  private epoch(data: Uint8Array, system: number, now: number): void {
    const raw = getBitU(data, 48, 30);
    const ref = utcToGpst(now);
    const t = system === 1 ? resolveGlonassTod((raw & 0x7ffffff) / 1000, ref) : resolveTow(raw / 1000, ref);
    const epochMs = gpstToUtc(t);
    // Far back: the receiver restarted its time, or a recording started over; its history of epochs starts again.
    if (epochMs < this.lastEpochMs - 60_000) this.lastEpochMs = 0;
    if (epochMs <= this.lastEpochMs) return;
    if (this.lastEpochMs > 0) {
      const step = epochMs - this.lastEpochMs;
      if (this.epochIntervalMs === 0 || step < this.epochIntervalMs) this.epochIntervalMs = step;
      if (step > Math.max(3 * this.epochIntervalMs, this.epochIntervalMs + 2000))
        this.gap = { from: this.lastEpochMs, to: epochMs };
    }
    this.lastEpochMs = epochMs;
    this.latencies[this.latencyCount++ % this.latencies.length] = now - epochMs;
  }

  private stationPosition(data: Uint8Array, now: number): void {
    const arp = decodeStationPosition(data);
    if (!arp) return;
    const before = this.position;
    this.position = arp;
    this.positionAt = now;
    if (!this.reference) this.reference = arp;
    if (!before || before[0] !== arp[0] || before[1] !== arp[1] || before[2] !== arp[2]) this.positionChanged = true;
  }

  /** A re-survey accepted the station's position: the history starts again from the next one it sends. */
  resetReference(): void {
    this.reference = this.position;
    this.since.delete('position_moved');
  }

  /** Counts the framer's CRC failures since the last call into this second. */
  crcFailures(total: number, now: number): void {
    const slot = Math.floor(now / 1000) % 60;
    this.crcPerSecond[slot] = (this.crcPerSecond[slot] as number) + Math.max(0, total - this.crcSeen);
    this.crcSeen = total;
  }

  /** A new source: its framer counts from zero. */
  restartCrc(): void {
    this.crcSeen = 0;
  }

  evaluate(
    now: number,
    settings: IntegritySettings,
    surveyed: SurveyedPosition,
    lastDataAt: number | null,
  ): IntegrityReason[] {
    const found: Array<Omit<IntegrityReason, 'since'>> = [];
    this.checkPosition(settings, surveyed, found);
    this.checkDescriptors(surveyed, found);
    const silentMs = lastDataAt === null ? 0 : now - lastDataAt;
    // A silent station is offline or in a gap; its missing messages are not separate faults.
    if (silentMs < 3000) {
      this.checkSystems(now, found);
      this.checkMessages(now, found);
      this.checkLatency(found);
    }
    this.checkCrc(now, found);
    this.checkGap(now, silentMs, lastDataAt, found);
    for (const code of [...this.since.keys()]) if (!found.some((f) => f.code === code)) this.since.delete(code);
    return found.map((f) => {
      let since = this.since.get(f.code);
      if (since === undefined) {
        since = f.code === 'gap' && this.gap ? this.gap.from : now;
        this.since.set(f.code, since);
      }
      return { ...f, since };
    });
  }

  private checkPosition(
    settings: IntegritySettings,
    surveyed: SurveyedPosition,
    found: Array<Omit<IntegrityReason, 'since'>>,
  ): void {
    this.positionChanged = false;
    const { position, reference } = this;
    if (!position) return;
    if (reference) {
      const d = horizontalVertical(reference, position);
      if (d.horizontal > settings.movedHorizontalM || Math.abs(d.vertical) > settings.movedVerticalM) {
        found.push({
          code: 'position_moved',
          level: 'failing',
          message: `The reference position the station sends moved ${cm(d.horizontal)} horizontally and ${cm(d.vertical)} vertically from its recent position (limits ${cm(settings.movedHorizontalM)} and ${cm(settings.movedVerticalM)}).`,
        });
      }
    }
    const height = surveyed.heightM ?? ecefToGeodetic(position).heightM;
    const fromCatalogue = horizontalVertical(geodeticToEcef(surveyed.latitude, surveyed.longitude, height), position);
    const vertical = surveyed.heightM === null ? 0 : fromCatalogue.vertical;
    if (fromCatalogue.horizontal > MISMATCH_HORIZONTAL_M || Math.abs(vertical) > MISMATCH_VERTICAL_M) {
      found.push({
        code: 'position_mismatch',
        level: 'warning',
        message: `The reference position the station sends is ${fromCatalogue.horizontal.toFixed(2)} m horizontally and ${vertical.toFixed(2)} m vertically from the surveyed position in the catalogue.`,
      });
    }
  }

  private checkDescriptors(surveyed: SurveyedPosition, found: Array<Omit<IntegrityReason, 'since'>>): void {
    const differ: string[] = [];
    const { receiver = '', antenna = '' } = surveyed;
    if (receiver.trim() && this.sentReceiver && !sameDescriptor(receiver, this.sentReceiver)) {
      differ.push(`receiver ${descriptor(this.sentReceiver)} (the catalogue: ${descriptor(receiver)})`);
    }
    if (antenna.trim() && this.sentAntenna && !sameDescriptor(antenna, this.sentAntenna)) {
      differ.push(`antenna ${descriptor(this.sentAntenna)} (the catalogue: ${descriptor(antenna)})`);
    }
    if (differ.length === 0) return;
    found.push({
      code: 'descriptor_mismatch',
      level: 'warning',
      message: `The station sends ${differ.join(' and ')}.`,
    });
  }

  private checkSystems(now: number, found: Array<Omit<IntegrityReason, 'since'>>): void {
    const missing: System[] = [];
    const signals: string[] = [];
    const interval = Math.max(this.epochIntervalMs, 1000);
    for (let s = 0; s < SYSTEMS.length; s++) {
      if ((this.systemCount[s] as number) < USUAL_AFTER * 2) continue;
      if (now - (this.systemLast[s] as number) > Math.max(5000, 3 * interval)) {
        missing.push(SYSTEMS[s] as System);
        continue;
      }
      const seen = this.windowSignals[s] as number;
      this.windowSignals[s] = 0;
      for (let bit = 0; bit < 32; bit++) {
        const mask = (1 << (31 - bit)) >>> 0;
        const slot = s * 32 + bit;
        if (seen & mask) {
          this.signalsSeenAt[slot] = now;
          const windows = (this.signalWindows[slot] as number) + 1;
          this.signalWindows[slot] = Math.min(windows, 1000);
          if (windows >= 5) this.usualSignals[s] = ((this.usualSignals[s] as number) | mask) >>> 0;
        } else if ((this.usualSignals[s] as number) & mask && now - (this.signalsSeenAt[slot] as number) > 30_000) {
          signals.push(`${SYSTEMS[s]} signal ${bit + 1}`);
        }
      }
    }
    if (missing.length > 0 || signals.length > 0) {
      const parts = [
        ...(missing.length ? [`no ${missing.join(', ')} observations arrive`] : []),
        ...(signals.length ? [`${signals.join(', ')} missing from the observations`] : []),
      ];
      found.push({
        code: 'constellation_missing',
        level: 'warning',
        message: `The station usually sends these, but now ${parts.join('; ')}.`,
      });
    }
  }

  private checkMessages(now: number, found: Array<Omit<IntegrityReason, 'since'>>): void {
    const missing: string[] = [];
    for (let i = 0; i < this.typeCount.length; i++) {
      if ((this.typeCount[i] as number) < USUAL_AFTER) continue;
      const type = i + FIRST_TYPE;
      const system = msmSystem(type);
      if (system >= 0 && now - (this.systemLast[system] as number) > 5000) continue;
      const gap = Math.max(this.typeGap[i] as number, 1000);
      const silent = now - (this.typeLast[i] as number);
      if (silent > Math.max(3 * gap, gap + 5000)) {
        missing.push(`${type} (usually at least every ${seconds(gap)}, none for ${seconds(silent)})`);
      }
    }
    if (missing.length > 0) {
      found.push({
        code: 'message_missing',
        level: 'warning',
        message: `Message types the station usually sends stopped: ${missing.join(', ')}.`,
      });
    }
  }

  private checkLatency(found: Array<Omit<IntegrityReason, 'since'>>): void {
    const n = Math.min(this.latencyCount, this.latencies.length);
    if (n < 3) return;
    const sorted = Array.from(this.latencies.subarray(0, n)).sort((a, b) => a - b);
    const median = sorted[Math.floor(n / 2)] as number;
    if (Math.abs(median) > NOT_CURRENT_MS) {
      const hours = Math.abs(median) / 3_600_000;
      const span = hours >= 48 ? `${Math.round(hours / 24)} days` : `${Math.round(hours)} hours`;
      found.push({
        code: 'late',
        level: 'warning',
        message: `The observations' epochs are ${span} ${median > 0 ? 'old' : 'ahead'}: a recorded stream or a receiver without the time, not live data.`,
      });
      return;
    }
    if (median <= LATE_WARNING_MS) return;
    found.push({
      code: 'late',
      level: median > LATE_FAILING_MS ? 'failing' : 'warning',
      message: `Observations arrive ${(median / 1000).toFixed(1)} s after their epoch (more than ${seconds(median > LATE_FAILING_MS ? LATE_FAILING_MS : LATE_WARNING_MS)}).`,
    });
  }

  private checkCrc(now: number, found: Array<Omit<IntegrityReason, 'since'>>): void {
    const slot = Math.floor(now / 1000) % 60;
    this.framesPerSecond[slot] = (this.framesPerSecond[slot] as number) + this.frames;
    this.frames = 0;
    let frames = 0;
    let failures = 0;
    for (let i = 0; i < 60; i++) {
      frames += this.framesPerSecond[i] as number;
      failures += this.crcPerSecond[i] as number;
    }
    const next = (slot + 1) % 60;
    this.framesPerSecond[next] = 0;
    this.crcPerSecond[next] = 0;
    if (failures < 3) return;
    const share = failures / (frames + failures);
    if (share < CRC_WARNING_SHARE) return;
    found.push({
      code: 'crc_errors',
      level: share >= CRC_FAILING_SHARE ? 'failing' : 'warning',
      message: `${failures} damaged frames (CRC failures) in the last minute, ${(share * 100).toFixed(1)} % of the frames.`,
    });
  }

  private checkGap(
    now: number,
    silentMs: number,
    lastDataAt: number | null,
    found: Array<Omit<IntegrityReason, 'since'>>,
  ): void {
    if (lastDataAt !== null && silentMs >= 3000) {
      found.push({
        code: 'gap',
        level: 'warning',
        message: `No data for ${seconds(silentMs)}, since ${utcTime(lastDataAt)}.`,
      });
      return;
    }
    const { gap } = this;
    if (!gap) return;
    if (now - gap.to > GAP_HOLD_MS) {
      this.gap = null;
      return;
    }
    found.push({
      code: 'gap',
      level: 'warning',
      message: `No observations for ${seconds(gap.to - gap.from)}, from ${utcTime(gap.from)} to ${utcTime(gap.to)}.`,
    });
  }

  /** When the last 1005/1006 arrived. */
  get positionReceivedAt(): number {
    return this.positionAt;
  }
}
