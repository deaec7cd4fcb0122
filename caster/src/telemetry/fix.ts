import { type GgaSentence, readGga } from '../gga.ts';
import type { FixQuality, RoverFixReport } from './types.ts';

const QUALITY: Record<string, FixQuality> = { '0': 'no_fix', '1': 'single', '2': 'dgnss', '4': 'fixed', '5': 'float' };
/** A gap between two GGA sentences longer than this is not counted towards the share of time in a fix quality. */
const MAX_GAP_MS = 10_000;

/** Fix quality, satellites and age of corrections from a GGA sentence, also before a fix (no position then). */
export function parseGgaFix(sentence: string): Omit<RoverFixReport, 'at'> | null {
  const gga = readGga(sentence);
  return gga && fixOf(gga);
}

function fixOf(gga: GgaSentence): Omit<RoverFixReport, 'at'> {
  return {
    quality: QUALITY[gga.quality] ?? 'other',
    satellites: gga.satellites,
    ageOfCorrections: gga.ageOfCorrections,
  };
}

/** A rover's last reported fix and how long it spent fixed and float, from the GGA it sends (issue 17). */
export class RoverFix {
  last: RoverFixReport | null = null;
  private lastAt = 0;
  private reportedMs = 0;
  private fixedMs = 0;
  private floatMs = 0;

  /** Counts one GGA sentence the rover sent at `now`. */
  record(gga: GgaSentence, now: number): void {
    const fix = fixOf(gga);
    if (this.last) {
      const gap = now - this.lastAt;
      if (gap > 0 && gap <= MAX_GAP_MS) {
        this.reportedMs += gap;
        if (this.last.quality === 'fixed') this.fixedMs += gap;
        else if (this.last.quality === 'float') this.floatMs += gap;
      }
    }
    this.last = { ...fix, at: new Date(now).toISOString() };
    this.lastAt = now;
  }

  /** Shares of the reported time in RTK fixed and float; null when the rover reported for less than a gap. */
  shares(): { fixed: number; float: number } | null {
    if (this.reportedMs === 0) return null;
    return { fixed: this.fixedMs / this.reportedMs, float: this.floatMs / this.reportedMs };
  }
}
