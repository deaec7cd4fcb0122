/**
 * Our RINEX 3.04 observation files against Debian rtklib's convbin (2.4.3 b34), run on the same captures in the same
 * test: the same epochs, satellites and signals, every observable within 0.0015, the same LLI flags. Where convbin
 * is known to be wrong, the test says how and compares what can be compared (docs/adr/0018-rinex-observation-files.md).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConvertOptions, convertRtcmToRinex, fileSource } from '../src/convert.ts';
import { parseApproxTime } from '../src/time.ts';
import { encodeFrame, frameMessageType, validFrames } from '../src/transport.ts';
import {
  compareObs,
  convbin,
  lliMatches,
  parseRinexObs,
  type RinexObsFile,
  retagBeidouAsBdt,
  shiftKey,
  withoutFirstObservationLli,
} from './support/rinex-obs.ts';

const HIRO = fileURLToPath(new URL('./fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3', import.meta.url));
const GMSD = fileURLToPath(new URL('./fixtures/GMSD7_20121014_netr9_msm7_weekrollover.rtcm3', import.meta.url));
const AAMA = fileURLToPath(new URL('./fixtures/aamakinen_20260705_msm7_glomsm4.rtcm3', import.meta.url));
const HIRO_TIME = '2022/12/13 01:09:00';
const GMSD_TIME = '2012/10/13 23:59:00';
const AAMA_TIME = '2026/07/05 12:00:00';
const TOLERANCE = 0.0015;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'obs-convbin-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/**
 * str2str keeps running after its input file ends (it reports the file stream as "end" in its status line every
 * few seconds); it is stopped then, and closes its output on SIGTERM.
 *
 * It resolves a GLONASS MSM epoch (time of day only) to the day nearest the machine's clock while GPS keeps the
 * capture's time of week, so re-encoded on another weekday than the capture's, GLONASS lands days away from GPS and
 * convbin drops nearly every epoch. faketime gives it the capture's date.
 */
function str2str(args: string[], capturedAt: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/faketime', [capturedAt, '/usr/bin/str2str', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      // faketime runs str2str as its child: the signal goes to the whole group, or str2str would outlive the test.
      detached: true,
    });
    let status = '';
    child.stderr.on('data', (chunk: Buffer) => {
      status += chunk.toString();
      if (/ end\b/.test(status) && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
}

let n = 0;
async function ours(input: string, approx: string, options: Partial<ConvertOptions> = {}): Promise<RinexObsFile> {
  const out = join(work, `ours-${n++}.obs`);
  await convertRtcmToRinex({
    input: fileSource(input),
    approxTime: parseApproxTime(approx) as NonNullable<ReturnType<typeof parseApproxTime>>,
    obsOut: out,
    ...options,
  });
  return parseRinexObs(await readFile(out, 'latin1'));
}

describe('observation files match convbin epoch by epoch', () => {
  it('oem729 Hiroshima (MSM7 of six constellations, a cut frame first): same epochs, values and flags', async () => {
    const mine = await ours(HIRO, HIRO_TIME);
    const theirs = await convbin(HIRO, HIRO_TIME);
    expect([...mine.epochs.keys()]).toEqual([...theirs.epochs.keys()]);
    const { differences, compared } = compareObs(mine, theirs, { tolerance: TOLERANCE, lliMatches });
    expect(withoutFirstObservationLli(differences, mine)).toEqual([]);
    expect(compared).toBeGreaterThan(40_000);
  });

  it('aamakinen (GLONASS as MSM4 without 1020, epochs at x.001 s): same epochs, values and flags', async () => {
    const mine = await ours(AAMA, AAMA_TIME);
    const theirs = await convbin(AAMA, AAMA_TIME);
    expect([...mine.epochs.keys()]).toEqual([...theirs.epochs.keys()]);
    expect([...mine.epochs.keys()][0]).toMatch(/ 21\.0010000$/);
    const { differences, compared } = compareObs(mine, theirs, { tolerance: TOLERANCE, lliMatches });
    expect(withoutFirstObservationLli(differences, mine)).toEqual([]);
    expect(compared).toBeGreaterThan(3000);
  });

  it('GMSD7 (NETR9 tags BeiDou MSM in GPST, crosses the GPS week): matches convbin given the capture as RTCM says it should be sent', async () => {
    // convbin takes the BeiDou epochs as BDT, puts them 14 s late and, since each then starts an epoch of its own,
    // throws away the GPS, GLONASS, Galileo and QZSS messages before them. So convbin is given the capture with
    // BeiDou's epoch time moved to BDT (CRC recomputed); we convert the original capture.
    const retagged = join(work, 'gmsd-bdt.rtcm3');
    await writeFile(retagged, retagBeidouAsBdt(validFrames(await readFile(GMSD)), encodeFrame));
    const mine = await ours(GMSD, GMSD_TIME);
    const theirs = await convbin(retagged, GMSD_TIME);
    expect([...mine.epochs.keys()]).toEqual([...theirs.epochs.keys()]);
    const { differences, compared } = compareObs(mine, theirs, { tolerance: TOLERANCE, lliMatches });
    expect(withoutFirstObservationLli(differences, mine)).toEqual([]);
    expect(compared).toBeGreaterThan(60_000);
    const systems = new Set([...mine.epochs.values()].flatMap((sats) => [...sats.keys()].map((s) => s[0])));
    expect([...systems].sort()).toEqual(['C', 'G', 'J', 'R']);

    // Across the week boundary (Saturday 23:59:59 → Sunday 00:00:00 GPST) the epochs stay one second apart.
    const keys = [...mine.epochs.keys()];
    expect(keys).toContain('2012 10 13 23 59 59.0000000');
    expect(keys).toContain('2012 10 14 00 00 00.0000000');
    keys.slice(1).forEach((k, i) => {
      expect(k).toBe(shiftKey(keys[i] as string, 1));
    });
  });

  it('GMSD7: convbin on the original capture writes BeiDou only, 14 s late; those BeiDou values are ours', async () => {
    const mine = await ours(GMSD, GMSD_TIME);
    const theirs = await convbin(GMSD, GMSD_TIME);
    const theirSystems = new Set([...theirs.epochs.values()].flatMap((sats) => [...sats.keys()].map((s) => s[0])));
    expect([...theirSystems]).toEqual(['C']);
    const { differences, compared } = compareObs(mine, theirs, {
      tolerance: TOLERANCE,
      lliMatches,
      satellites: (id) => id.startsWith('C'),
      theirKey: (key) => shiftKey(key, 14),
    });
    expect([...theirs.epochs.keys()]).toEqual([...mine.epochs.keys()].map((k) => shiftKey(k, 14)));
    expect(withoutFirstObservationLli(differences, mine)).toEqual([]);
    expect(compared).toBeGreaterThan(10_000);
  });

  describe('other message kinds, written from the Hiroshima MSM7 by rtklib str2str', () => {
    const kinds: Record<string, number[]> = {
      'legacy 1004/1012': [1004, 1012, 1020],
      MSM4: [1074, 1084, 1094, 1114, 1124, 1134, 1020],
      MSM5: [1075, 1085, 1095, 1115, 1125, 1135, 1020],
      MSM6: [1076, 1086, 1096, 1116, 1126, 1136, 1020],
    };
    const files = new Map<string, string>();
    beforeAll(async () => {
      await Promise.all(
        Object.entries(kinds).map(([name, types], i) => {
          const out = join(work, `hiro-${i}.rtcm3`);
          files.set(name, out);
          return str2str(
            ['-in', `file://${HIRO}#rtcm3`, '-out', `file://${out}#rtcm3`, '-msg', types.join(',')],
            HIRO_TIME.replaceAll('/', '-'),
          );
        }),
      );
    }, 90_000);

    it.each(Object.keys(kinds))('%s: same epochs, values and flags', async (name) => {
      const file = files.get(name) as string;
      const types = new Set(validFrames(await readFile(file)).map(frameMessageType));
      expect([...types].sort()).toEqual([...(kinds[name] as number[])].sort());
      const mine = await ours(file, HIRO_TIME);
      const theirs = await convbin(file, HIRO_TIME);
      expect([...mine.epochs.keys()]).toEqual([...theirs.epochs.keys()]);
      const { differences, compared } = compareObs(mine, theirs, { tolerance: TOLERANCE, lliMatches });
      expect(withoutFirstObservationLli(differences, mine)).toEqual([]);
      for (const sys of ['G', 'R']) {
        expect(mine.types.get(sys)).toContain('L1C');
        expect(mine.types.get(sys)?.some((t) => t.startsWith('L2'))).toBe(true);
      }
      expect(compared).toBeGreaterThan(5000);
    });
  });

  it('decimates to whole multiples of the interval and keeps only the chosen constellations, as convbin -ti -y does', async () => {
    const mine = await ours(HIRO, HIRO_TIME, { interval: 5, systems: 'GE' });
    const theirs = await convbin(HIRO, HIRO_TIME, ['-ti', '5', '-y', 'R', '-y', 'J', '-y', 'C', '-y', 'I', '-y', 'S']);
    expect([...mine.epochs.keys()]).toEqual([...theirs.epochs.keys()]);
    for (const key of mine.epochs.keys()) expect(Number(key.slice(-10)) % 5).toBe(0);
    expect([...mine.types.keys()]).toEqual(['G', 'E']);
    const { differences } = compareObs(mine, theirs, { tolerance: TOLERANCE, lliMatches });
    // A slip in a left-out epoch is carried to the next written one; no first-observation exception applies here.
    expect(differences).toEqual([]);
  });

  it('leaves out an epoch whose last message (multiple-message bit clear) is missing, as convbin does', async () => {
    const frames = validFrames(await readFile(AAMA));
    const lastOfThirdEpoch = frames.filter((f) => frameMessageType(f) === 1127)[2] as Buffer;
    const cut = join(work, 'aama-missing-last.rtcm3');
    await writeFile(cut, Buffer.concat(frames.filter((f) => f !== lastOfThirdEpoch)));
    const complete = await ours(AAMA, AAMA_TIME);
    const mine = await ours(cut, AAMA_TIME);
    const theirs = await convbin(cut, AAMA_TIME);
    expect(mine.epochs.size).toBe(complete.epochs.size - 1);
    expect(mine.epochs.has([...complete.epochs.keys()][2] as string)).toBe(false);
    expect([...mine.epochs.keys()]).toEqual([...theirs.epochs.keys()]);
    const { differences } = compareObs(mine, theirs, { tolerance: TOLERANCE, lliMatches });
    expect(withoutFirstObservationLli(differences, mine)).toEqual([]);
  });
});
