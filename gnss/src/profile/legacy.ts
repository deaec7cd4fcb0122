/**
 * GPS 1004 and GLONASS 1012 (RTCM 10403.3 §3.5.2–3.5.3, extended L1&L2 RTK observables) written from an MSM4–7 of the
 * same constellation and epoch. The choices the standard leaves to the encoder:
 *
 * - Signals: L1 from C/A (1C), else P(Y) (1P, then 1W: DF010 knows only C/A and P(Y)); GPS L2 from P(Y) (2P, then the
 *   semi-codeless 2W), else L2C (2L, 2X, 2S, 2C, DF016 = 0); GLONASS L2 from P (2P), else C/A (2C). P(Y) first because
 *   the rovers that need legacy messages are the ones built around L1 C/A + L2 P(Y).
 * - A satellite needs a valid L1 pseudorange (every other field is relative to it); without one it is left out, and
 *   a GLONASS satellite also needs its frequency channel (DF040 has no "unknown"): from the MSM5/7 extended satellite
 *   information or from a 1020 ephemeris seen earlier.
 * - Pseudorange: DF011/DF041 are the L1 pseudorange modulo one light-millisecond (299,792.458 m) or two
 *   (599,584.916 m for GLONASS), rounded to 0.02 m; DF014/DF044 are the whole moduli. DF017/DF047 (L2 − L1
 *   pseudorange) are relative to the *rounded* L1 pseudorange, so L2 is off by at most 0.01 m too.
 * - Phase: DF012/DF018 (DF042/DF048) are phaserange − the rounded L1 pseudorange in 0.0005 m, so the phase a decoder
 *   rebuilds is off by at most 0.25 mm. Where that difference exceeds the field (±262.1435 m) it is rolled over by
 *   whole 1500-cycle steps, as the standard prescribes; decoders keep the phase continuous across such a roll-over.
 * - Half-cycle: 1004/1012 cannot say a phase has an unresolved half cycle, and DF420 asks rovers that cannot handle
 *   one to skip that phase; legacy rovers cannot tell, so such a phase is sent as not valid (0x80000).
 * - Lock time: the MSM lock time (ms) rounded to whole seconds, through DF013's table (0–23 s by 1 s … 937 s and more
 *   = 127). Rounded, not cut: an MSM lock time is the bottom of a step (DF407 992 means 992–1023 ms), and one second
 *   after a reset it would read 0 s again, which decoders take for a second loss of lock; rounding overstates the
 *   lock by under half a second. Losses of lock stay visible through LockTracker; an output that changes its source
 *   signal counts as a loss of lock.
 * - CNR: 0.25 dB-Hz (DF015), rounded from MSM's 2^-4 dB-Hz or 1 dB-Hz; a measured CNR never becomes 0.
 * - Header: station ID, epoch time (GPS time of week; GLONASS time of day without MSM's day of week) and the
 *   smoothing fields are the MSM's. More than 31 satellites (DF006 is 5 bits) go into a second message.
 */
import { BitWriter } from '../bit-writer.ts';
import { getBitU } from '../bits.ts';
import { carrierFrequency, SPEED_OF_LIGHT } from '../obs/signals.ts';
import type { LockTracker } from './lock.ts';
import { MSM_SYNC_BIT, type MsmMessage } from './msm.ts';

const LIGHT_MS = SPEED_OF_LIGHT * 0.001;
const PR_STEP = 0.02;
const PHASE_STEP = 0.0005;
const PHASE_LIMIT = 524_287 * PHASE_STEP;
const MAX_SATS = 31;

interface Choice {
  sig: number;
  code: number;
}

/** MSM signal ID → legacy code indicator, in order of preference. */
const L1: Record<'G' | 'R', Choice[]> = {
  G: [
    { sig: 2, code: 0 },
    { sig: 3, code: 1 },
    { sig: 4, code: 1 },
  ],
  R: [
    { sig: 2, code: 0 },
    { sig: 3, code: 1 },
  ],
};
const L2: Record<'G' | 'R', Choice[]> = {
  G: [
    { sig: 9, code: 1 },
    { sig: 10, code: 3 },
    { sig: 16, code: 0 },
    { sig: 17, code: 0 },
    { sig: 15, code: 0 },
    { sig: 8, code: 0 },
  ],
  R: [
    { sig: 9, code: 1 },
    { sig: 8, code: 0 },
  ],
};

/** DF013/DF019/DF043/DF049 from a lock time in whole seconds (the inverse of the standard's table). */
export function legacyLockIndicator(seconds: number): number {
  if (seconds < 24) return seconds;
  if (seconds < 72) return Math.floor((seconds + 24) / 2);
  if (seconds < 168) return Math.floor((seconds + 120) / 4);
  if (seconds < 360) return Math.floor((seconds + 408) / 8);
  if (seconds < 744) return Math.floor((seconds + 1176) / 16);
  if (seconds < 937) return Math.floor((seconds + 3096) / 32);
  return 127;
}

export interface LegacyState {
  lock: LockTracker;
  /** Per legacy observable (lockKey): the MSM signal ID it came from last, 0 before the first. */
  source: Uint8Array;
  /** GLONASS slot → frequency channel, from MSM5/7 and 1020. */
  glonassChannels: Map<number, number>;
}

/** Index of a legacy observable in LegacyState: GPS or GLONASS, satellite 1–63, L1 or L2. */
export function lockKey(glonass: boolean, prn: number, l2: boolean): number {
  return ((glonass ? 64 : 0) + prn) * 2 + (l2 ? 1 : 0);
}
export const LEGACY_KEYS = 256;

function cellOf(msm: MsmMessage, i: number, choices: Choice[], needPr: boolean): { j: number; choice: Choice } | null {
  const nsig = msm.sigs.length;
  for (const choice of choices) {
    const k = msm.sigs.indexOf(choice.sig);
    if (k < 0) continue;
    const j = msm.cellIndex[i * nsig + k] as number;
    if (j < 0) continue;
    if (needPr && Number.isNaN(msm.finePr[j] as number)) continue;
    return { j, choice };
  }
  return null;
}

function cnr(value: number): number {
  return value === 0 ? 0 : Math.min(255, Math.max(1, Math.round(value / 4)));
}

/** Phaserange − pseudorange in DF012 steps, rolled over by 1500 cycles when it exceeds the field. */
function phaseMinusRange(phaseMetres: number, prMetres: number, wavelength: number): number {
  let d = phaseMetres - prMetres;
  if (Math.abs(d) > PHASE_LIMIT) d -= Math.round(d / (1500 * wavelength)) * 1500 * wavelength;
  return Math.round(d / PHASE_STEP);
}

/** The MSM (GPS or GLONASS) as 1004 or 1012 payloads; none when no satellite qualifies. */
export function writeLegacy(payload: Uint8Array, msm: MsmMessage, state: LegacyState): Uint8Array[] {
  const glo = msm.sys === 'R';
  const sys = glo ? 'R' : 'G';
  const unit = glo ? 2 * LIGHT_MS : LIGHT_MS;
  const records: ((w: BitWriter) => void)[] = [];
  msm.sats.forEach((prn, i) => {
    const rough = msm.roughMs[i] as number;
    if (rough === 255 || prn > (glo ? 24 : 32)) return;
    let channel: number | undefined;
    if (glo) {
      const ext = msm.extInfo[i] as number;
      if (ext <= 13) state.glonassChannels.set(prn, ext - 7);
      channel = state.glonassChannels.get(prn);
      if (channel === undefined) return;
    }
    const l1 = cellOf(msm, i, L1[sys], true);
    if (!l1) return;
    const l2 = cellOf(msm, i, L2[sys], false);
    const roughMs = rough + (msm.roughFrac[i] as number) / 1024;
    const metres = (fine: number, step: number) => (roughMs + fine * step) * LIGHT_MS;

    const p1 = metres(msm.finePr[l1.j] as number, 2 ** -29);
    const ambiguity = Math.floor(p1 / unit);
    // DF014 is 8 bits, DF044 7; a pseudorange beyond them (or below zero) is no satellite's.
    if (ambiguity < 0 || ambiguity > (glo ? 127 : 255)) return;
    const pr1 = Math.round((p1 - ambiguity * unit) / PR_STEP);
    const p1Sent = pr1 * PR_STEP + ambiguity * unit;
    const phase = (j: number, frequency: number): number => {
      const fine = msm.finePhase[j] as number;
      if (Number.isNaN(fine) || msm.half[j] || frequency === 0) return -524288;
      return phaseMinusRange(metres(fine, 2 ** -31), p1Sent, SPEED_OF_LIGHT / frequency);
    };
    const lockFor = (second: boolean, cell: { j: number; choice: Choice }): number => {
      const key = lockKey(glo, prn, second);
      const changed = state.source[key] !== 0 && state.source[key] !== cell.choice.sig;
      state.source[key] = cell.choice.sig;
      const ms = msm.lockMs[cell.j] as number;
      return state.lock.next(key, ms, legacyLockIndicator(Math.round(ms / 1000)), changed);
    };
    const ppr1 = phase(l1.j, carrierFrequency(sys, '1C', channel));
    const lock1 = lockFor(false, l1);

    let code2 = 0;
    let pr21 = -8192;
    let ppr2 = -524288;
    let lock2 = 0;
    let cnr2 = 0;
    if (l2) {
      code2 = l2.choice.code;
      const fp = msm.finePr[l2.j] as number;
      if (!Number.isNaN(fp)) {
        const d = Math.round((metres(fp, 2 ** -29) - p1Sent) / PR_STEP);
        if (Math.abs(d) <= 8191) pr21 = d;
      }
      ppr2 = phase(l2.j, carrierFrequency(sys, '2C', channel));
      lock2 = lockFor(true, l2);
      cnr2 = cnr(msm.cnr[l2.j] as number);
    }
    const cnr1 = cnr(msm.cnr[l1.j] as number);
    records.push((w) => {
      w.u(6, prn);
      w.u(1, l1.choice.code);
      if (glo) w.u(5, (channel as number) + 7);
      w.u(glo ? 25 : 24, pr1);
      w.s(20, ppr1);
      w.u(7, lock1);
      w.u(glo ? 7 : 8, ambiguity);
      w.u(8, cnr1);
      w.u(2, code2);
      w.s(14, pr21);
      w.s(20, ppr2);
      w.u(7, lock2);
      w.u(8, cnr2);
    });
  });
  if (records.length === 0) return [];

  const sync = getBitU(payload, MSM_SYNC_BIT, 1);
  const out: Uint8Array[] = [];
  for (let from = 0; from < records.length; from += MAX_SATS) {
    const part = records.slice(from, from + MAX_SATS);
    const last = from + MAX_SATS >= records.length;
    const w = new BitWriter(Math.ceil((64 + part.length * 130) / 8));
    w.u(12, glo ? 1012 : 1004);
    w.copy(payload, 12, 12); // DF003 reference station ID
    if (glo)
      w.copy(payload, 27, 27); // DF034 GLONASS epoch time (MSM: DF416 day of week, then these 27 bits)
    else w.copy(payload, 24, 30); // DF004 GPS epoch time
    w.u(1, last ? sync : 1); // DF005: more observables of this epoch follow
    w.u(5, part.length);
    w.copy(payload, MSM_SYNC_BIT + 1 + 3 + 7 + 2 + 2, 4); // DF417/DF418 smoothing → DF007/DF008 (DF036/DF037)
    for (const record of part) record(w);
    out.push(w.bytes());
  }
  return out;
}
