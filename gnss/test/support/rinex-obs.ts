/**
 * A small RINEX 3 observation reader for the tests: enough to compare two files epoch by epoch, independent of the
 * writer under test (it reads columns as RINEX 3.04 table A3 defines them).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface ObsValue {
  value: number;
  lli: number;
}

export interface RinexObsFile {
  header: string[];
  /** Header records by label (each label's lines, content columns 1–60). */
  records: Map<string, string[]>;
  types: Map<string, string[]>;
  /** Epoch key "YYYY MM DD hh mm ss.sssssss" → satellite → observation type → value. */
  epochs: Map<string, Map<string, Map<string, ObsValue>>>;
}

export function parseRinexObs(text: string): RinexObsFile {
  const lines = text.split('\n');
  const header: string[] = [];
  const records = new Map<string, string[]>();
  const types = new Map<string, string[]>();
  let k = 0;
  let sysForContinuation = '';
  for (; k < lines.length; k++) {
    const l = lines[k] as string;
    header.push(l);
    const label = l.slice(60).trim();
    const content = l.slice(0, 60);
    records.set(label, [...(records.get(label) ?? []), content]);
    if (label === 'SYS / # / OBS TYPES') {
      const sys = content[0] === ' ' ? sysForContinuation : (content[0] as string);
      sysForContinuation = sys;
      const list = content.slice(7).trim().split(/\s+/).filter(Boolean);
      types.set(sys, [...(types.get(sys) ?? []), ...list]);
    }
    if (label === 'END OF HEADER') break;
  }
  const epochs = new Map<string, Map<string, Map<string, ObsValue>>>();
  for (k++; k < lines.length; k++) {
    const l = lines[k] as string;
    if (!l.startsWith('>')) continue;
    const key = canonicalKey(l.slice(2, 29));
    const flag = Number(l.slice(31, 32));
    const n = Number(l.slice(32, 35));
    const sats = new Map<string, Map<string, ObsValue>>();
    for (let s = 0; s < n; s++) {
      const sl = lines[++k] as string;
      const id = sl.slice(0, 3);
      const list = types.get(id[0] as string) ?? [];
      const values = new Map<string, ObsValue>();
      list.forEach((type, i) => {
        const field = sl.slice(3 + i * 16, 3 + i * 16 + 14);
        if (field.trim() === '') return;
        const lliChar = sl.slice(3 + i * 16 + 14, 3 + i * 16 + 15).trim();
        values.set(type, { value: Number(field), lli: lliChar === '' ? 0 : Number(lliChar) });
      });
      sats.set(id, values);
    }
    if (flag <= 1) epochs.set(key, sats);
  }
  return { header, records, types, epochs };
}

/** "YYYY MM DD hh mm ss.sssssss" with two-digit fields, whatever blank-padding the writer used. */
function canonicalKey(fields: string): string {
  const [y, mo, d, h, mi, s] = fields.trim().split(/\s+/).map(Number) as number[];
  const p = (n: number | undefined) => String(n).padStart(2, '0');
  return `${y} ${p(mo)} ${p(d)} ${p(h)} ${p(mi)} ${(s as number).toFixed(7).padStart(10, '0')}`;
}

const run = promisify(execFile);

/** Runs Debian rtklib's convbin as the issue prescribes and reads its observation file. */
export async function convbin(input: string, approx: string, extra: string[] = []): Promise<RinexObsFile> {
  const dir = await mkdtemp(join(tmpdir(), 'convbin-'));
  try {
    const out = join(dir, 'out.obs');
    await run('/usr/bin/convbin', [
      '-r',
      'rtcm3',
      '-tr',
      approx,
      '-v',
      '3.04',
      '-od',
      '-os',
      ...extra,
      '-o',
      out,
      input,
    ]);
    return parseRinexObs(await readFile(out, 'latin1'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Shifts an epoch key by whole seconds (for convbin's BeiDou epochs 14 s late). */
export function shiftKey(key: string, seconds: number): string {
  const [y, mo, d, h, mi, s] = key.split(' ').map(Number) as number[];
  const whole = Math.floor(s as number);
  const frac = (s as number) - whole;
  const t = new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, whole + seconds));
  const p = (n: number) => String(n).padStart(2, '0');
  return `${t.getUTCFullYear()} ${p(t.getUTCMonth() + 1)} ${p(t.getUTCDate())} ${p(t.getUTCHours())} ${p(t.getUTCMinutes())} ${(t.getUTCSeconds() + frac).toFixed(7).padStart(10, '0')}`;
}

export interface Difference {
  epoch: string;
  satellite?: string;
  type?: string;
  ours?: ObsValue | undefined;
  theirs?: ObsValue | undefined;
  what: string;
}

/**
 * Every difference between two parsed files: epochs only in one, satellites only in one, observation types present
 * in one only, values further apart than `tolerance`, LLI flags that do not match.
 */
export function compareObs(
  ours: RinexObsFile,
  theirs: RinexObsFile,
  options: {
    tolerance: number;
    /** Whether our LLI matches convbin's; default: equal. */
    lliMatches?: (ours: number, theirs: number) => boolean;
    satellites?: (id: string) => boolean;
    theirKey?: (ourKey: string, satellite: string) => string;
  },
): { differences: Difference[]; compared: number; epochs: number } {
  const differences: Difference[] = [];
  const want = options.satellites ?? (() => true);
  const lliMatches = options.lliMatches ?? ((a: number, b: number) => a === b);
  const theirKey = options.theirKey ?? ((k: string) => k);
  let compared = 0;
  const matchedTheirs = new Set<string>();
  for (const [key, sats] of ours.epochs) {
    for (const [sat, values] of sats) {
      if (!want(sat)) continue;
      const tk = theirKey(key, sat);
      const theirEpoch = theirs.epochs.get(tk);
      if (!theirEpoch) {
        differences.push({ epoch: key, satellite: sat, what: 'epoch missing in convbin' });
        continue;
      }
      matchedTheirs.add(`${tk}/${sat}`);
      const tv = theirEpoch.get(sat);
      if (!tv) {
        differences.push({ epoch: key, satellite: sat, what: 'satellite missing in convbin' });
        continue;
      }
      const allTypes = new Set([...values.keys(), ...tv.keys()]);
      for (const type of allTypes) {
        const a = values.get(type);
        const b = tv.get(type);
        if (!a || !b) {
          differences.push({
            epoch: key,
            satellite: sat,
            type,
            ours: a,
            theirs: b,
            what: 'observable in one file only',
          });
          continue;
        }
        compared++;
        if (Math.abs(a.value - b.value) > options.tolerance) {
          differences.push({ epoch: key, satellite: sat, type, ours: a, theirs: b, what: 'value' });
        }
        if (type[0] === 'L' && !lliMatches(a.lli, b.lli)) {
          differences.push({ epoch: key, satellite: sat, type, ours: a, theirs: b, what: 'LLI' });
        }
      }
    }
  }
  for (const [key, sats] of theirs.epochs) {
    for (const sat of sats.keys()) {
      if (want(sat) && !matchedTheirs.has(`${key}/${sat}`)) {
        differences.push({ epoch: key, satellite: sat, what: 'satellite/epoch only in convbin' });
      }
    }
  }
  return { differences, compared, epochs: ours.epochs.size };
}

/**
 * convbin (rtcm3.c) adds 3 to the LLI of a phase whose MSM half-cycle bit is set, where RINEX wants bit 1 (value 2):
 * its 3 is our 2 (or 3 when the phase is also a slip, a flag convbin's 3 can no longer show), its 4 or 5 our 3.
 */
export function lliMatches(oursLli: number, theirs: number): boolean {
  if (theirs === 3) return oursLli === 2 || oursLli === 3;
  if (theirs === 4 || theirs === 5) return oursLli === 3;
  return oursLli === theirs;
}

/** Each satellite's phase observables at the first epoch they occur in our file. */
function firstPhases(file: RinexObsFile): Set<string> {
  const seen = new Set<string>();
  const firsts = new Set<string>();
  for (const [epoch, sats] of file.epochs) {
    for (const [sat, values] of sats) {
      for (const type of values.keys()) {
        if (type[0] !== 'L' || seen.has(`${sat}/${type}`)) continue;
        seen.add(`${sat}/${type}`);
        firsts.add(`${epoch}/${sat}/${type}`);
      }
    }
  }
  return firsts;
}

/**
 * convbin reuses its decoder state from the scan pass, so a signal's first observation is compared with the lock
 * indicator the scan left at the end of the file: a slip or not depending on what happens later. We flag every
 * first observation as a slip. These, and only these, may differ (ours 1, convbin 0).
 */
export function withoutFirstObservationLli(differences: Difference[], file: RinexObsFile): Difference[] {
  const firsts = firstPhases(file);
  return differences.filter(
    (d) =>
      !(
        d.what === 'LLI' &&
        d.ours?.lli === 1 &&
        d.theirs?.lli === 0 &&
        firsts.has(`${d.epoch}/${d.satellite}/${d.type}`)
      ),
  );
}

function setBits(buf: Uint8Array, pos: number, len: number, value: number): void {
  for (let i = 0; i < len; i++) {
    const bit = Math.floor(value / 2 ** (len - 1 - i)) % 2;
    const at = pos + i;
    const mask = 1 << (7 - (at & 7));
    buf[at >> 3] = bit ? (buf[at >> 3] as number) | mask : (buf[at >> 3] as number) & ~mask;
  }
}

/**
 * The capture as a receiver that follows RTCM would have sent it: each BeiDou MSM's epoch time (DF427, 30 bits of
 * milliseconds) moved from GPST back to BDT, i.e. 14 s earlier, and the frame's CRC recomputed.
 */
export function retagBeidouAsBdt(frames: Buffer[], encode: (payload: Uint8Array) => Buffer): Buffer {
  return Buffer.concat(
    frames.map((frame) => {
      const payload = Buffer.from(frame.subarray(3, frame.length - 3));
      const type = ((payload[0] as number) << 4) | ((payload[1] as number) >> 4);
      if (type < 1121 || type > 1127) return frame;
      let ms = 0;
      for (let i = 0; i < 30; i++) ms = ms * 2 + (((payload[(24 + i) >> 3] as number) >> (7 - ((24 + i) & 7))) & 1);
      setBits(payload, 24, 30, (ms - 14_000 + 604_800_000) % 604_800_000);
      return encode(payload);
    }),
  );
}
