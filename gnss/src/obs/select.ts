/**
 * Which decoded epochs go into the file, and the loss-of-lock flags they carry there. The rules are convbin's
 * (convrnx.c) so both programs write the same epochs: an epoch not later than the previous one is dropped, a slip in
 * an epoch left out by the interval or window is carried to the next written epoch of that signal, and the first
 * written epoch (and the first after a station ID change) marks every phase as a slip.
 */
import { diffSeconds, type GpsTime } from '../time.ts';
import { type GnssSystem, SYSTEM_INDEX } from './signals.ts';
import { LLI_SLIP, type ObservationEpoch } from './types.ts';

/** convbin's time tolerance: epochs within 5 ms count as the same instant and interval multiples. */
export const TIME_TOLERANCE = 0.005;

export interface EpochSelection {
  systems: ReadonlySet<GnssSystem>;
  /** Seconds; only epochs on whole multiples of it (seconds of the GPS week) are written. 0 or absent: all. */
  interval?: number;
  /** Inclusive start, exclusive end. */
  start?: GpsTime;
  end?: GpsTime;
}

/** Signal codes ('1C', '2W', …) numbered as they are first seen. */
const codeNumbers = new Map<string, number>();
const CODE_SLOTS = 256;

function signalNumber(sys: GnssSystem, prn: number, code: string): number {
  let n = codeNumbers.get(code);
  if (n === undefined) {
    n = codeNumbers.size;
    if (n >= CODE_SLOTS) throw new Error(`more than ${CODE_SLOTS} signal codes`);
    codeNumbers.set(code, n);
  }
  return (SYSTEM_INDEX[sys] * 64 + prn) * CODE_SLOTS + n;
}

export class EpochSelector {
  private last: GpsTime | null = null;
  private stationId: number | null = null;
  /** Per satellite and signal (signalNumber): 1 while a slip waits for the next written epoch. */
  private readonly slips = new Uint8Array(7 * 64 * CODE_SLOTS);
  /** How many entries of `slips` are set: usually none, and then written epochs need no lookups. */
  private waiting = 0;

  constructor(private readonly selection: EpochSelection) {}

  /** The epoch as it is to be written, or null when it is not written. Mutates the epoch's flags. */
  select(epoch: ObservationEpoch): ObservationEpoch | null {
    const t = epoch.time;
    if (this.last && diffSeconds(t, this.last) < TIME_TOLERANCE) return null;
    this.last = t;
    for (const sat of epoch.satellites) {
      for (const s of sat.signals) {
        if (!(s.lli & LLI_SLIP)) continue;
        const key = signalNumber(sat.sys, sat.prn, s.code);
        if (this.slips[key]) continue;
        this.slips[key] = 1;
        this.waiting++;
      }
    }
    if (!this.wanted(t)) return null;
    const newStation = this.stationId !== epoch.stationId;
    this.stationId = epoch.stationId;
    const satellites = epoch.satellites.filter((sat) => this.selection.systems.has(sat.sys));
    if (this.waiting > 0 || newStation) {
      for (const sat of epoch.satellites) {
        for (const s of sat.signals) {
          if (s.phase === 0) continue;
          const key = signalNumber(sat.sys, sat.prn, s.code);
          if (this.slips[key] || newStation) s.lli |= LLI_SLIP;
          if (this.slips[key]) {
            this.slips[key] = 0;
            this.waiting--;
          }
        }
      }
    }
    return satellites.length > 0 ? { ...epoch, satellites } : null;
  }

  private wanted(t: GpsTime): boolean {
    const { interval, start, end } = this.selection;
    if (start && diffSeconds(t, start) < -TIME_TOLERANCE) return false;
    if (end && diffSeconds(t, end) > -TIME_TOLERANCE) return false;
    if (interval && interval > 0 && (t.tow + TIME_TOLERANCE) % interval > 2 * TIME_TOLERANCE) return false;
    return true;
  }
}
