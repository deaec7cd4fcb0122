/**
 * RTCM 3 observation decoder: MSM4–7 of every constellation and the legacy 1001–1004 / 1009–1012 messages, assembled
 * into epochs. Decisions (how time is resolved, when an epoch is complete, how LLI is derived) follow RTKLIB's
 * convbin so our RINEX matches it; where convbin is wrong the reason is in docs/adr/0018-rinex-observation-files.md.
 */
import { diffSeconds, type GpsTime, resolveBdsTow, resolveGlonassTod, resolveTow } from '../time.ts';
import { BitReader } from './bit-reader.ts';
import {
  carrierFrequency,
  type GnssSystem,
  msmKind,
  msmSatellite,
  msmSignal,
  SPEED_OF_LIGHT,
  SYSTEM_INDEX,
} from './signals.ts';
import {
  LLI_HALF_CYCLE,
  LLI_SLIP,
  type ObservationEpoch,
  type SatelliteObservation,
  type SignalObservation,
} from './types.ts';

const RANGE_MS = SPEED_OF_LIGHT * 0.001;
const P2_10 = 2 ** -10;
const P2_24 = 2 ** -24;
const P2_29 = 2 ** -29;
const P2_31 = 2 ** -31;
/** Legacy messages count whole light-milliseconds (GPS) and two-millisecond units (GLONASS) in these metres. */
const PR_UNIT_GPS = 299_792.458;
const PR_UNIT_GLO = 599_584.916;
const SAME_EPOCH = 1e-9;

/** Signal slots of legacy L1 and L2, after the 32 MSM signal IDs. */
const LEGACY_L1 = 33;
const LEGACY_L2 = 34;

function satelliteKey(sys: GnssSystem, prn: number): number {
  return SYSTEM_INDEX[sys] * 64 + prn;
}

/** A number per satellite and signal (MSM signal ID, or a legacy slot) indexing the per-signal state. */
function signalKey(sys: GnssSystem, prn: number, slot: number): number {
  return satelliteKey(sys, prn) * 64 + slot;
}

const SIGNAL_KEYS = 7 * 64 * 64;

export type BeidouTimeTag = 'auto' | 'bdt' | 'gpst';

export interface ObservationDecoderOptions {
  /** Any time within half a week of the data (half a day for GLONASS); never the wall clock. */
  approxTime: GpsTime;
  /**
   * How BeiDou MSM epochs are tagged. RTCM says BeiDou time (BDT = GPST − 14 s); some old firmware (Trimble NETR9
   * 4.x) sends GPST. 'auto' switches to GPST when a BeiDou MSM is exactly 14 s off the epoch it belongs to.
   */
  beidouTime?: BeidouTimeTag;
  /** GLONASS slot → frequency channel known beforehand (from 1020 or MSM5/7 seen in an earlier pass). */
  glonassChannels?: ReadonlyMap<number, number>;
}

export interface DecoderStats {
  /** Epochs whose last message (multiple-message bit clear) never came; dropped like convbin drops them. */
  incompleteEpochs: number;
  /** MSM or legacy messages too short for the satellites and cells they announce. */
  malformedMessages: number;
  /** True once BeiDou epochs were found tagged in GPST. */
  beidouTaggedGpst: boolean;
}

interface Pending {
  time: GpsTime;
  stationId: number;
  satellites: Map<number, SatelliteObservation>;
  /** Set while every satellite so far is BeiDou, for the GPST-tag detection. */
  beidouOnly: boolean;
}

/** Is this message one the observation decoder reads? (1020 only for its GLONASS frequency channel.) */
export function isObservationMessage(type: number): boolean {
  return (type >= 1001 && type <= 1004) || (type >= 1009 && type <= 1012) || type === 1020 || msmKind(type) !== null;
}

export class ObservationDecoder {
  /** The last decoded epoch time: each message's time of week is resolved against it. */
  private ref: GpsTime;
  private pending: Pending | null = null;
  /** The previous message closed its epoch (multiple-message bit clear). */
  private closed = true;
  private beidouMode: BeidouTimeTag;
  /** Indexed by signalKey(): per satellite and signal, the last lock-time indicator (-1: none yet). */
  private readonly lock = new Int32Array(SIGNAL_KEYS).fill(-1);
  /** Indexed by signalKey(): the last legacy phase − pseudorange in cycles (NaN: none yet). */
  private readonly legacyPhase = new Float64Array(SIGNAL_KEYS).fill(Number.NaN);
  /** Per-message working arrays, sized for the largest MSM (64 satellites, 32 signals, 64 cells). */
  private readonly scratch = {
    sats: new Int32Array(64),
    sigs: new Int32Array(32),
    cells: new Uint8Array(64),
    range: new Float64Array(64),
    info: new Int32Array(64),
    rate: new Float64Array(64),
    pr: new Float64Array(64),
    cp: new Float64Array(64),
    fineRate: new Float64Array(64),
    lock: new Int32Array(64),
    half: new Uint8Array(64),
    cnr: new Float64Array(64),
    codes: new Array<string>(32).fill(''),
    frequencies: new Float64Array(32),
  };
  readonly glonassChannels: Map<number, number>;
  readonly stats: DecoderStats = { incompleteEpochs: 0, malformedMessages: 0, beidouTaggedGpst: false };

  constructor(
    options: ObservationDecoderOptions,
    private readonly onEpoch: (epoch: ObservationEpoch) => void,
  ) {
    this.ref = options.approxTime;
    this.beidouMode = options.beidouTime ?? 'auto';
    this.glonassChannels = new Map(options.glonassChannels ?? []);
  }

  /**
   * The receiver's time as far as the stream has told: the last observation epoch decoded, or the approximate time
   * before the first. Ephemerides are stamped with it (RTCM carries no transmission time).
   */
  get time(): GpsTime {
    return this.ref;
  }

  /** Feeds one message payload (message number first). Messages of other types are ignored. */
  decode(payload: Uint8Array): void {
    if (payload.length < 2) return;
    const type = ((payload[0] as number) << 4) | ((payload[1] as number) >> 4);
    const msm = msmKind(type);
    if (msm) {
      this.decodeMsm(payload, msm.sys, msm.kind);
      return;
    }
    if (type === 1020) this.readGlonassChannel(payload);
    else if (type >= 1001 && type <= 1004) this.decodeLegacy(payload, 'G', type);
    else if (type >= 1009 && type <= 1012) this.decodeLegacy(payload, 'R', type);
  }

  /** A frequency channel learnt elsewhere (the navigation decoder's 1020); MSM5/7 still take precedence. */
  setGlonassChannel(slot: number, channel: number): void {
    this.glonassChannels.set(slot, channel);
  }

  /** End of input: an epoch still waiting for its last message is dropped, as convbin drops it. */
  end(): void {
    if (this.pending && !this.closed && this.pending.satellites.size > 0) this.stats.incompleteEpochs++;
    this.pending = null;
    this.closed = true;
  }

  private readGlonassChannel(payload: Uint8Array): void {
    if (payload.length * 8 < 23) return;
    const r = new BitReader(payload, 12);
    const slot = r.u(6);
    const channel = r.u(5) - 7;
    if (slot >= 1) this.glonassChannels.set(slot, channel);
  }

  /** Opens (or continues) the epoch at `time`; convbin's rule: a new time or a closed epoch starts afresh. */
  private epochFor(time: GpsTime, stationId: number): Pending {
    const p = this.pending;
    if (p && !this.closed && Math.abs(diffSeconds(p.time, time)) <= SAME_EPOCH) return p;
    if (p && !this.closed && p.satellites.size > 0) this.stats.incompleteEpochs++;
    const fresh: Pending = { time, stationId, satellites: new Map(), beidouOnly: true };
    this.pending = fresh;
    this.closed = false;
    return fresh;
  }

  private finishMessage(sync: boolean): void {
    if (sync) return;
    this.closed = true;
    const p = this.pending;
    if (!p || p.satellites.size === 0) return;
    this.pending = null;
    this.onEpoch({ time: p.time, stationId: p.stationId, satellites: [...p.satellites.values()] });
  }

  private satellite(p: Pending, sys: GnssSystem, prn: number): SatelliteObservation {
    const key = satelliteKey(sys, prn);
    let sat = p.satellites.get(key);
    if (!sat) {
      sat = { sys, prn, signals: [] };
      p.satellites.set(key, sat);
      if (sys !== 'C') p.beidouOnly = false;
    }
    return sat;
  }

  private signal(sat: SatelliteObservation, code: string): SignalObservation {
    let s = sat.signals.find((x) => x.code === code);
    if (!s) {
      s = { code, pseudorange: 0, phase: 0, doppler: 0, snrMilli: 0, lli: 0 };
      sat.signals.push(s);
    }
    return s;
  }

  /**
   * convbin's loss-of-lock rule on the lock-time indicator: a slip when it went down, or when it is 0 now and was 0
   * before. A signal's first observation also counts as a slip: there is no earlier phase to be continuous with
   * (convbin gets the same flag from comparing with the indicator its scan pass left behind).
   */
  private lossOfLock(key: number, indicator: number): number {
    const previous = this.lock[key] as number;
    this.lock[key] = indicator;
    if (previous < 0) return LLI_SLIP;
    return (indicator === 0 && previous === 0) || indicator < previous ? LLI_SLIP : 0;
  }

  private msmTime(sys: GnssSystem, r: BitReader): GpsTime {
    if (sys === 'R') {
      r.skip(3); // day of week: the time of day resolved near the reference is enough
      return resolveGlonassTod(r.u(27) * 0.001, this.ref);
    }
    const tow = r.u(30) * 0.001;
    if (sys === 'C') return resolveBdsTow(tow, this.ref, this.beidouMode === 'gpst');
    return resolveTow(tow, this.ref);
  }

  /**
   * Recognises BeiDou MSM tagged in GPST: it lands exactly 14 s after the epoch it is part of, or the epoch's
   * BeiDou-only start lies exactly 14 s after the next system's message. Returns the corrected time.
   */
  private checkBeidouTag(sys: GnssSystem, time: GpsTime, tow: number): GpsTime {
    const p = this.pending;
    if (this.beidouMode !== 'auto' || !p || this.closed) return time;
    const d = diffSeconds(time, p.time);
    if (sys === 'C' && Math.abs(d - 14) < 1e-6 && !p.beidouOnly) {
      this.useBeidouGpst();
      return resolveBdsTow(tow, p.time, true);
    }
    if (sys !== 'C' && p.beidouOnly && p.satellites.size > 0 && Math.abs(d + 14) < 1e-6) {
      this.useBeidouGpst();
      p.time = time;
    }
    return time;
  }

  private useBeidouGpst(): void {
    this.beidouMode = 'gpst';
    this.stats.beidouTaggedGpst = true;
  }

  private decodeMsm(payload: Uint8Array, sys: GnssSystem, kind: number): void {
    const r = new BitReader(payload, 12);
    if (r.remaining < 157) {
      this.stats.malformedMessages++;
      return;
    }
    const stationId = r.u(12);
    const towStart = r.pos;
    let time = this.msmTime(sys, r);
    const sync = r.u(1) === 1;
    r.skip(3 + 7 + 2 + 2 + 1 + 3); // IODS, reserved, clock steering, external clock, smoothing
    const { sats, sigs, cells, range, info, rate, pr, cp, fineRate, lock, half, cnr } = this.scratch;
    let nsat = 0;
    let nsig = 0;
    for (let word = 0; word < 2; word++) {
      const bits = r.u(32);
      for (let b = 0; b < 32; b++) if ((bits >>> (31 - b)) & 1) sats[nsat++] = word * 32 + b + 1;
    }
    const sigBits = r.u(32);
    for (let b = 0; b < 32; b++) if ((sigBits >>> (31 - b)) & 1) sigs[nsig++] = b + 1;
    if (nsat * nsig > 64 || r.remaining < nsat * nsig) {
      this.stats.malformedMessages++;
      return;
    }
    let ncell = 0;
    for (let c = 0; c < nsat * nsig; c++) {
      const on = r.u(1);
      cells[c] = on;
      ncell += on;
    }
    if (this.beidouMode === 'auto') {
      const tow = sys === 'C' ? new BitReader(payload, towStart).u(30) * 0.001 : 0;
      time = this.checkBeidouTag(sys, time, tow);
    }
    this.ref = time;

    if (kind < 4) {
      // MSM1–3 carry no full observables but still close an epoch.
      this.finishMessage(sync);
      return;
    }
    const extended = kind === 5 || kind === 7;
    const high = kind === 6 || kind === 7;
    const satBits = extended ? 36 : 18;
    const cellBits = (high ? 65 : 48) + (extended ? 15 : 0);
    if (r.remaining < nsat * satBits + ncell * cellBits) {
      this.stats.malformedMessages++;
      return;
    }

    for (let i = 0; i < nsat; i++) {
      const ms = r.u(8);
      range[i] = ms === 255 ? 0 : ms * RANGE_MS;
    }
    if (extended) for (let i = 0; i < nsat; i++) info[i] = r.u(4);
    else info.fill(15, 0, nsat);
    for (let i = 0; i < nsat; i++) {
      const frac = r.u(10);
      if (range[i] !== 0) range[i] = (range[i] as number) + frac * P2_10 * RANGE_MS;
    }
    if (extended) {
      for (let i = 0; i < nsat; i++) {
        const v = r.s(14);
        rate[i] = v === -8192 ? Number.NaN : v;
      }
    }
    const prBits = high ? 20 : 15;
    const prInvalid = high ? -524288 : -16384;
    const prScale = (high ? P2_29 : P2_24) * RANGE_MS;
    for (let j = 0; j < ncell; j++) {
      const v = r.s(prBits);
      pr[j] = v === prInvalid ? Number.NaN : v * prScale;
    }
    const cpBits = high ? 24 : 22;
    const cpInvalid = high ? -8388608 : -2097152;
    const cpScale = (high ? P2_31 : P2_29) * RANGE_MS;
    for (let j = 0; j < ncell; j++) {
      const v = r.s(cpBits);
      cp[j] = v === cpInvalid ? Number.NaN : v * cpScale;
    }
    const lockBits = high ? 10 : 4;
    for (let j = 0; j < ncell; j++) lock[j] = r.u(lockBits);
    for (let j = 0; j < ncell; j++) half[j] = r.u(1);
    if (high) for (let j = 0; j < ncell; j++) cnr[j] = r.u(10) * 0.0625;
    else for (let j = 0; j < ncell; j++) cnr[j] = r.u(6);
    if (extended) {
      for (let j = 0; j < ncell; j++) {
        const v = r.s(15);
        fineRate[j] = v === -16384 ? Number.NaN : v * 0.0001;
      }
    }

    const epoch = this.epochFor(time, stationId);
    const system = SYSTEM_INDEX[sys];
    const { codes, frequencies } = this.scratch;
    for (let k = 0; k < nsig; k++) {
      const code = msmSignal(sys, sigs[k] as number);
      codes[k] = code;
      // GLONASS FDMA frequencies depend on the satellite's channel and are looked up per cell.
      frequencies[k] = code && sys !== 'R' ? carrierFrequency(sys, code) : 0;
    }
    let j = 0;
    for (let i = 0; i < nsat; i++) {
      const prn = msmSatellite(sys, sats[i] as number);
      let channel: number | undefined;
      if (sys === 'R' && prn) {
        const ex = info[i] as number;
        if (ex <= 13) {
          channel = ex - 7;
          if (!this.glonassChannels.has(prn)) this.glonassChannels.set(prn, channel);
        } else {
          channel = this.glonassChannels.get(prn);
        }
      }
      const sat = prn ? this.satellite(epoch, sys, prn) : null;
      const rg = range[i] as number;
      const satRate = rate[i] as number;
      for (let k = 0; k < nsig; k++) {
        if (!cells[i * nsig + k]) continue;
        const code = codes[k] as string;
        if (sat && code) {
          const freq = sys === 'R' ? carrierFrequency(sys, code, channel) : (frequencies[k] as number);
          const s = this.signal(sat, code);
          const p = pr[j] as number;
          const c = cp[j] as number;
          if (rg !== 0 && !Number.isNaN(p)) s.pseudorange = rg + p;
          if (rg !== 0 && !Number.isNaN(c)) s.phase = ((rg + c) * freq) / SPEED_OF_LIGHT;
          if (extended && !Number.isNaN(satRate) && !Number.isNaN(fineRate[j] as number)) {
            s.doppler = Math.fround((-(satRate + (fineRate[j] as number)) * freq) / SPEED_OF_LIGHT);
          }
          s.lli =
            this.lossOfLock(((system * 64 + prn) << 6) + (sigs[k] as number), lock[j] as number) |
            (half[j] ? LLI_HALF_CYCLE : 0);
          s.snrMilli = Math.floor((cnr[j] as number) / 0.001 + 0.5);
        }
        j++;
      }
    }
    this.finishMessage(sync);
  }

  private decodeLegacy(payload: Uint8Array, sys: 'G' | 'R', type: number): void {
    const r = new BitReader(payload, 12);
    const glo = sys === 'R';
    if (r.remaining < (glo ? 49 : 52)) {
      this.stats.malformedMessages++;
      return;
    }
    const stationId = r.u(12);
    const time = glo ? resolveGlonassTod(r.u(27) * 0.001, this.ref) : resolveTow(r.u(30) * 0.001, this.ref);
    const sync = r.u(1) === 1;
    const nsat = r.u(5);
    r.skip(glo ? 1 + 3 : 1 + 3);
    this.ref = time;
    const variant = glo ? type - 1008 : type - 1000;
    if (variant === 1 || variant === 3) {
      this.finishMessage(sync);
      return;
    }
    const dual = variant === 4;
    const satBits = glo ? (dual ? 130 : 79) : dual ? 125 : 74;
    const epoch = this.epochFor(time, stationId);
    for (let n = 0; n < nsat && r.remaining >= satBits; n++) {
      let prn = r.u(6);
      const code1 = r.u(1);
      const channel = glo ? r.u(5) - 7 : 0;
      const pr1 = r.u(glo ? 25 : 24);
      const ppr1 = r.s(20);
      const lock1 = r.u(7);
      const amb = r.u(glo ? 7 : 8);
      const cnr1 = r.u(8);
      let code2 = 0;
      let pr21 = 0;
      let ppr2 = 0;
      let lock2 = 0;
      let cnr2 = 0;
      if (dual) {
        code2 = r.u(2);
        pr21 = r.s(14);
        ppr2 = r.s(20);
        lock2 = r.u(7);
        cnr2 = r.u(8);
      }
      let satSys: GnssSystem = sys;
      if (!glo && prn >= 40) {
        satSys = 'S';
        prn -= 20; // SBAS PRN 120–138 → S20–S38
      }
      if (prn < 1 || (satSys === 'G' && prn > 32) || (satSys === 'R' && prn > 27) || (satSys === 'S' && prn > 38))
        continue;
      if (glo && !this.glonassChannels.has(prn)) this.glonassChannels.set(prn, channel);
      const sat = this.satellite(epoch, satSys, prn);
      const p1 = pr1 * 0.02 + amb * (glo ? PR_UNIT_GLO : PR_UNIT_GPS);
      const l1code = code1 ? '1P' : '1C';
      const s1 = this.signal(sat, l1code);
      s1.pseudorange = p1;
      if (ppr1 !== -524288) {
        const f = carrierFrequency(satSys, l1code, channel);
        s1.phase =
          (p1 * f) / SPEED_OF_LIGHT +
          this.adjustPhase(signalKey(satSys, prn, LEGACY_L1), (ppr1 * 0.0005 * f) / SPEED_OF_LIGHT);
      }
      s1.lli = this.lossOfLock(signalKey(satSys, prn, LEGACY_L1), lock1);
      s1.snrMilli = snr(cnr1 * 0.25);
      if (!dual) continue;
      const l2code = glo ? (code2 ? '2P' : '2C') : (['2X', '2P', '2D', '2W'][code2] as string);
      const s2 = this.signal(sat, l2code);
      if (pr21 !== -8192) s2.pseudorange = p1 + pr21 * 0.02;
      if (ppr2 !== -524288) {
        const f = carrierFrequency(satSys, l2code, channel);
        s2.phase =
          (p1 * f) / SPEED_OF_LIGHT +
          this.adjustPhase(signalKey(satSys, prn, LEGACY_L2), (ppr2 * 0.0005 * f) / SPEED_OF_LIGHT);
      }
      s2.lli = this.lossOfLock(signalKey(satSys, prn, LEGACY_L2), lock2);
      s2.snrMilli = snr(cnr2 * 0.25);
    }
    this.finishMessage(sync);
  }

  /**
   * Legacy phaserange − pseudorange rolls over every 1500 cycles; keep it continuous with the previous value, as
   * the receiver's phase is.
   */
  private adjustPhase(key: number, cycles: number): number {
    const previous = this.legacyPhase[key] as number;
    let cp = cycles;
    if (!Number.isNaN(previous) && previous !== 0) {
      if (cp < previous - 750) cp += 1500;
      else if (cp > previous + 750) cp -= 1500;
    }
    this.legacyPhase[key] = cp;
    return cp;
  }
}

function snr(dbHz: number): number {
  return dbHz <= 0 || dbHz >= 100 ? 0 : Math.floor(dbHz / 0.001 + 0.5);
}
