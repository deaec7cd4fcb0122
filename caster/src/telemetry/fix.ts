import type { FixQuality, RoverFixReport } from './types.ts';

const QUALITY: Record<string, FixQuality> = { '0': 'no_fix', '1': 'single', '2': 'dgnss', '4': 'fixed', '5': 'float' };
/** A gap between two GGA sentences longer than this is not counted towards the share of time in a fix quality. */
const MAX_GAP_MS = 10_000;

/**
 * Fix quality, satellites and age of corrections from a $--GGA sentence (any talker), also before a fix, which
 * `parseGga` skips because it carries no position. Null for anything else or a bad checksum.
 */
export function parseGgaFix(sentence: string): Omit<RoverFixReport, 'at'> | null {
  const line = sentence.trim();
  if (!/^\$[A-Z]{2}GGA,/.test(line)) return null;
  const star = line.indexOf('*');
  const body = star >= 0 ? line.slice(1, star) : line.slice(1);
  if (star >= 0) {
    let sum = 0;
    for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
    if (Number.parseInt(line.slice(star + 1, star + 3), 16) !== sum) return null;
  }
  const f = body.split(',');
  const quality = f[6] ?? '';
  if (!/^\d$/.test(quality)) return null;
  const satellites = /^\d{1,2}$/.test(f[7] ?? '') ? Number(f[7]) : null;
  const age = f[13] ?? '';
  const ageOfCorrections = /^\d+(\.\d+)?$/.test(age) ? Number(age) : null;
  return { quality: QUALITY[quality] ?? 'other', satellites, ageOfCorrections };
}

/** A rover's last reported fix and how long it spent fixed and float, from the GGA it sends (issue 17). */
export class RoverFix {
  last: RoverFixReport | null = null;
  private lastAt = 0;
  private reportedMs = 0;
  private fixedMs = 0;
  private floatMs = 0;

  /** True when the line was a GGA sentence. */
  onLine(line: string, now: number): boolean {
    const fix = parseGgaFix(line);
    if (!fix) return false;
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
    return true;
  }

  /** Shares of the reported time in RTK fixed and float; null when the rover reported for less than a gap. */
  shares(): { fixed: number; float: number } | null {
    if (this.reportedMs === 0) return null;
    return { fixed: this.fixedMs / this.reportedMs, float: this.floatMs / this.reportedMs };
  }
}
