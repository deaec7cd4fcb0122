/**
 * MSM4–7 read into raw integers at the finest resolution any MSM carries (RTCM 10403.3 §3.5.6), so that a message can
 * be written again as MSM4 or as legacy 1004/1012 without a detour through floating-point observables. Field names
 * follow the DF numbers of 10403.3.
 */
import { BitWriter } from '../bit-writer.ts';
import { BitReader } from '../obs/bit-reader.ts';
import type { GnssSystem } from '../obs/signals.ts';

/** Bit offset of the multiple-message bit (DF393) in every MSM: type 12 + station 12 + epoch time 30. */
export const MSM_SYNC_BIT = 54;

export interface MsmMessage {
  sys: GnssSystem;
  kind: number;
  /** Bit offset just past the cell mask: where the satellite data start. */
  headerEnd: number;
  /** MSM satellite IDs 1–64 and signal IDs 1–32, ascending, as the masks list them. */
  sats: number[];
  sigs: number[];
  /** Per satellite × signal (satellite-major, the cell mask's order): the cell's index in the cell arrays, or -1. */
  cellIndex: Int32Array;
  /** DF397 whole milliseconds of the rough range, 255 = not valid. */
  roughMs: Uint8Array;
  /** DF398 rough range modulo 1 ms, 2^-10 ms. */
  roughFrac: Uint16Array;
  /** MSM5/7 extended satellite information (GLONASS: frequency channel + 7); 15 when the message has none. */
  extInfo: Uint8Array;
  /** DF400/DF405 fine pseudorange in 2^-29 ms (MSM4/5 values × 32); NaN = not valid. */
  finePr: Float64Array;
  /** DF401/DF406 fine phaserange in 2^-31 ms (MSM4/5 values × 4); NaN = not valid. */
  finePhase: Float64Array;
  /** DF402/DF407 lock time indicator as the minimum lock time it stands for, milliseconds. */
  lockMs: Float64Array;
  /** DF420 half-cycle ambiguity indicator. */
  half: Uint8Array;
  /** DF403/DF408 CNR in 2^-4 dB-Hz (MSM4/5 values × 16); 0 = not measured. */
  cnr: Uint16Array;
}

/**
 * Minimum lock time (ms) of DF402 (10403.3's table for DF402): 0 means under 32 ms, i ≥ 1 means at least 2^(i+4) ms.
 */
export function df402LockMs(indicator: number): number {
  return indicator === 0 ? 0 : 2 ** (indicator + 4);
}

/**
 * Minimum lock time (ms) of DF407 (10403.3's table for DF407): 0–63 count milliseconds; above, each run of 32 indicators doubles the
 * step (t = 2^k·(i − 32k) with k = ⌊i/32⌋ − 1), up to 704 = 67,108,864 ms. 705–1023 are reserved and taken as the
 * longest lock, so a reserved value never reads as a loss of lock.
 */
export function df407LockMs(indicator: number): number {
  if (indicator < 64) return indicator;
  const i = Math.min(indicator, 704);
  const k = Math.floor(i / 32) - 1;
  return 2 ** k * (i - 32 * k);
}

/** DF402 for a lock time: the largest indicator whose minimum lock time the lock time reaches (at most 15). */
export function df402FromLockMs(ms: number): number {
  if (ms < 32) return 0;
  return Math.min(15, Math.floor(Math.log2(ms)) - 4);
}

/** Reads an MSM4–7 payload (message number first); null when it is too short for what its masks announce. */
export function parseMsm(payload: Uint8Array, sys: GnssSystem, kind: number): MsmMessage | null {
  const r = new BitReader(payload, 0);
  if (payload.length * 8 < 169) return null;
  r.skip(12 + 12 + 30 + 1 + 3 + 7 + 2 + 2 + 1 + 3);
  const sats: number[] = [];
  const sigs: number[] = [];
  for (let word = 0; word < 2; word++) {
    const bits = r.u(32);
    for (let b = 0; b < 32; b++) if ((bits >>> (31 - b)) & 1) sats.push(word * 32 + b + 1);
  }
  const sigBits = r.u(32);
  for (let b = 0; b < 32; b++) if ((sigBits >>> (31 - b)) & 1) sigs.push(b + 1);
  const nsat = sats.length;
  const nsig = sigs.length;
  if (nsat * nsig > 64 || r.remaining < nsat * nsig) return null;
  const cellIndex = new Int32Array(nsat * nsig);
  let ncell = 0;
  for (let c = 0; c < nsat * nsig; c++) cellIndex[c] = r.u(1) ? ncell++ : -1;
  const headerEnd = r.pos;
  const extended = kind === 5 || kind === 7;
  const high = kind === 6 || kind === 7;
  const satBits = extended ? 36 : 18;
  const cellBits = (high ? 65 : 48) + (extended ? 15 : 0);
  if (r.remaining < nsat * satBits + ncell * cellBits) return null;

  const roughMs = new Uint8Array(nsat);
  const roughFrac = new Uint16Array(nsat);
  const extInfo = new Uint8Array(nsat).fill(15);
  for (let i = 0; i < nsat; i++) roughMs[i] = r.u(8);
  if (extended) for (let i = 0; i < nsat; i++) extInfo[i] = r.u(4);
  for (let i = 0; i < nsat; i++) roughFrac[i] = r.u(10);
  if (extended) r.skip(14 * nsat); // DF399 rough phase-range rate: neither MSM4 nor 1004/1012 carries Doppler

  const finePr = new Float64Array(ncell);
  const finePhase = new Float64Array(ncell);
  const lockMs = new Float64Array(ncell);
  const half = new Uint8Array(ncell);
  const cnr = new Uint16Array(ncell);
  // Not-valid markers are the most negative value of each field (DF400 −16384, DF405 −524288, DF401 −2097152,
  // DF406 −8388608).
  const prBits = high ? 20 : 15;
  const prScale = high ? 1 : 32;
  for (let j = 0; j < ncell; j++) {
    const v = r.s(prBits);
    finePr[j] = v === -(2 ** (prBits - 1)) ? Number.NaN : v * prScale;
  }
  const cpBits = high ? 24 : 22;
  const cpScale = high ? 1 : 4;
  for (let j = 0; j < ncell; j++) {
    const v = r.s(cpBits);
    finePhase[j] = v === -(2 ** (cpBits - 1)) ? Number.NaN : v * cpScale;
  }
  for (let j = 0; j < ncell; j++) lockMs[j] = high ? df407LockMs(r.u(10)) : df402LockMs(r.u(4));
  for (let j = 0; j < ncell; j++) half[j] = r.u(1);
  for (let j = 0; j < ncell; j++) cnr[j] = high ? r.u(10) : r.u(6) * 16;
  return {
    sys,
    kind,
    headerEnd,
    sats,
    sigs,
    cellIndex,
    roughMs,
    roughFrac,
    extInfo,
    finePr,
    finePhase,
    lockMs,
    half,
    cnr,
  };
}

/**
 * The MSM as MSM4 (DF400, DF401, DF402, DF420, DF403 per cell; DF397, DF398 per satellite). The header (station,
 * epoch time, multiple-message bit, IODS, clock and smoothing fields, the three masks) is copied bit for bit, so the
 * rough ranges and cells stay the receiver's; only the message number changes.
 *
 * - Fine pseudorange: DF405 (2^-29 ms) rounded to DF400's 2^-24 ms, error ≤ 2^-25 ms (4.5 mm).
 * - Fine phaserange: DF406 (2^-31 ms) rounded to DF401's 2^-29 ms, error ≤ 2^-30 ms (0.28 mm).
 *   Both ranges are the same in the high-resolution fields (±2^-10 ms, ±2^-8 ms), so only a value within half an
 *   output step of the bound can overflow; it is sent as not valid rather than clipped.
 * - Lock time: DF407 → DF402 through the lock time in ms (`lock`, which keeps every loss of lock visible).
 * - CNR: DF408 (2^-4 dB-Hz) rounded to DF403's 1 dB-Hz, at most 63; a measured CNR never becomes 0 ("not measured").
 * - Half-cycle ambiguity (DF420) copied. Doppler (DF399/DF404) has no MSM4 field and is dropped.
 */
export function writeMsm4(
  payload: Uint8Array,
  type: number,
  msm: MsmMessage,
  lock: (sat: number, sig: number, lockMs: number, mapped: number) => number,
): Uint8Array {
  const w = new BitWriter(payload.length);
  w.u(12, type);
  w.copy(payload, 12, msm.headerEnd - 12);
  const nsat = msm.sats.length;
  const nsig = msm.sigs.length;
  for (let i = 0; i < nsat; i++) w.u(8, msm.roughMs[i] as number);
  for (let i = 0; i < nsat; i++) w.u(10, msm.roughFrac[i] as number);
  const ncell = msm.finePr.length;
  for (let j = 0; j < ncell; j++) w.s(15, rounded(msm.finePr[j] as number, 32, 15));
  for (let j = 0; j < ncell; j++) w.s(22, rounded(msm.finePhase[j] as number, 4, 22));
  for (let i = 0; i < nsat; i++) {
    for (let k = 0; k < nsig; k++) {
      const j = msm.cellIndex[i * nsig + k] as number;
      if (j < 0) continue;
      const ms = msm.lockMs[j] as number;
      w.u(4, lock(msm.sats[i] as number, msm.sigs[k] as number, ms, df402FromLockMs(ms)));
    }
  }
  for (let j = 0; j < ncell; j++) w.u(1, msm.half[j] as number);
  for (let j = 0; j < ncell; j++) {
    const c = msm.cnr[j] as number;
    w.u(6, c === 0 ? 0 : Math.min(63, Math.max(1, Math.round(c / 16))));
  }
  return w.bytes();
}

/** `value / divisor` rounded into a `bits`-bit field; NaN or out of range → the field's not-valid value. */
function rounded(value: number, divisor: number, bits: number): number {
  const invalid = -(2 ** (bits - 1));
  if (Number.isNaN(value)) return invalid;
  const v = Math.round(value / divisor);
  return v <= invalid || v > -invalid - 1 ? invalid : v;
}
