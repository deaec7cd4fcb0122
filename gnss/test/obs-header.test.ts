/**
 * The RINEX 3.04 observation header: what the station's own messages say (marker, ARP, antenna, receiver, GLONASS
 * biases), the observation types and times as convbin lists them, and the records RINEX 3.04 requires.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBitU } from '../src/bits.ts';
import { type ConvertOptions, convertRtcmToRinex, fileSource } from '../src/convert.ts';
import { formatObsHeader } from '../src/rinex/obs-writer.ts';
import { decodeStationMessage, emptyStation } from '../src/station.ts';
import { parseApproxTime } from '../src/time.ts';
import { frameMessageType, framePayload, validFrames } from '../src/transport.ts';
import { convbin, parseRinexObs, type RinexObsFile } from './support/rinex-obs.ts';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const HIRO = 'oem729_hiroshima_20221213_msm7_alleph.rtcm3';
const GMSD = 'GMSD7_20121014_netr9_msm7_weekrollover.rtcm3';
const AAMA = 'aamakinen_20260705_msm7_glomsm4.rtcm3';
const TIMES: Record<string, string> = {
  [HIRO]: '2022/12/13 01:09:00',
  [GMSD]: '2012/10/13 23:59:00',
  [AAMA]: '2026/07/05 12:00:00',
};

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'obs-header-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

let n = 0;
async function ours(name: string, options: Partial<ConvertOptions> = {}): Promise<RinexObsFile> {
  const out = join(work, `h-${n++}.obs`);
  await convertRtcmToRinex({
    input: fileSource(fixture(name)),
    approxTime: parseApproxTime(TIMES[name] as string) as NonNullable<ReturnType<typeof parseApproxTime>>,
    obsOut: out,
    ...options,
  });
  return parseRinexObs(await readFile(out, 'latin1'));
}

const record = (file: RinexObsFile, label: string) => file.records.get(label) ?? [];

/** The ARP each capture's README row gives (ECEF metres). */
async function readmeArp(name: string): Promise<number[]> {
  const readme = await readFile(fixture('README.md'), 'utf8');
  const row = readme.split('\n').find((l) => l.startsWith(`| ${name} |`) && /\| -?\d+\.\d{4} \|/.test(l));
  if (!row) throw new Error(`README has no ARP for ${name}`);
  return row
    .split('|')
    .map((c) => c.trim())
    .filter((c) => /^-?\d+\.\d+$/.test(c))
    .map(Number);
}

function glonassSlots(file: RinexObsFile): string[] {
  return record(file, 'GLONASS SLOT / FRQ #')
    .flatMap((l) => [...l.slice(4).matchAll(/R(\d\d) +(-?\d+)/g)].map((m) => `R${m[1]}:${m[2]}`))
    .sort();
}

function times(file: RinexObsFile, label: string): number[] {
  return (record(file, label)[0] as string).trim().split(/\s+/).slice(0, 6).map(Number);
}

describe('observation header', () => {
  it.each([HIRO, AAMA])(
    '%s: MARKER NAME from the station ID and APPROX POSITION within 1 mm of the 1005 ARP',
    async (name) => {
      const file = await ours(name);
      const theirs = await convbin(fixture(name), TIMES[name] as string);
      expect(record(file, 'MARKER NAME')[0]?.trim()).toBe(record(theirs, 'MARKER NAME')[0]?.trim());
      const xyz = (record(file, 'APPROX POSITION XYZ')[0] as string).trim().split(/\s+/).map(Number);
      const arp = await readmeArp(name);
      expect(arp).toHaveLength(3);
      xyz.forEach((v, i) => {
        expect(Math.abs(v - (arp[i] as number))).toBeLessThan(0.001);
      });
      expect(record(file, 'ANTENNA: DELTA H/E/N')[0]?.trim()).toBe('0.0000        0.0000        0.0000');
    },
  );

  it('GMSD7: receiver from 1033, no 1005 (position left at zero), station 611 as the marker', async () => {
    const file = await ours(GMSD);
    expect(record(file, 'MARKER NAME')[0]?.trim()).toBe('0611');
    expect(record(file, 'REC # / TYPE / VERS')[0]?.slice(20, 40).trim()).toBe('TRIMBLE NETR9');
    expect(record(file, 'APPROX POSITION XYZ')[0]?.trim()).toBe('0.0000        0.0000        0.0000');
    expect(record(file, 'COMMENT').join(' ')).toMatch(/BeiDou MSM were tagged in GPST/);
  });

  it('receiver and antenna from 1033 in RINEX columns, the radome in the IGS antenna type columns 17-20', async () => {
    const file = await ours(HIRO);
    const theirs = await convbin(fixture(HIRO), TIMES[HIRO] as string);
    expect(record(file, 'REC # / TYPE / VERS')).toEqual(record(theirs, 'REC # / TYPE / VERS'));
    const ant = record(file, 'ANT # / TYPE')[0] as string;
    const theirAnt = record(theirs, 'ANT # / TYPE')[0] as string;
    expect(ant.slice(0, 20)).toBe(theirAnt.slice(0, 20));
    // convbin copies the descriptor "JAVGRANT_G5T NONE" as sent; IGS puts the radome in columns 17-20.
    const [antenna, radome] = theirAnt.slice(20, 40).trim().split(/\s+/);
    expect(ant.slice(20, 36).trim()).toBe(antenna);
    expect(ant.slice(36, 40)).toBe(radome);
  });

  it.each([HIRO, GMSD, AAMA])('%s: observation types, GLONASS slots and times as convbin lists them', async (name) => {
    const file = await ours(name);
    const theirs = await convbin(fixture(name), TIMES[name] as string);
    if (name !== GMSD) {
      // For GMSD7 convbin lists BeiDou only (see obs-convbin.test.ts); its slots and types are compared there.
      expect(file.types).toEqual(theirs.types);
      expect(times(file, 'TIME OF FIRST OBS')).toEqual(times(theirs, 'TIME OF FIRST OBS'));
      expect(times(file, 'TIME OF LAST OBS')).toEqual(times(theirs, 'TIME OF LAST OBS'));
    }
    expect(glonassSlots(file)).toEqual(glonassSlots(theirs));
    for (const label of ['SYS / PHASE SHIFT', 'SIGNAL STRENGTH UNIT', 'LEAP SECONDS', 'END OF HEADER']) {
      expect(file.records.has(label)).toBe(true);
    }
  });

  it.each([HIRO, AAMA])('%s: GLONASS COD/PHS/BIS carries what 1230 carries', async (name) => {
    const frame = validFrames(await readFile(fixture(name))).find((f) => frameMessageType(f) === 1230) as Buffer;
    const payload = framePayload(frame);
    const mask = getBitU(payload, 28, 4);
    const expected = ['C1C', 'C1P', 'C2C', 'C2P'].map((code, i) => {
      if (!(mask & (8 >> i))) return null;
      const before = [0, 1, 2, 3].slice(0, i).filter((j) => mask & (8 >> j)).length;
      const raw = getBitU(payload, 32 + 16 * before, 16);
      return `${code} ${((raw >= 32768 ? raw - 65536 : raw) * 0.02).toFixed(3).padStart(8)}`;
    });
    const line = record(await ours(name), 'GLONASS COD/PHS/BIS')[0] as string;
    expected.forEach((e, i) => {
      expect(line.slice(i * 13 + 1, i * 13 + 13)).toBe(e ?? ' '.repeat(12));
    });
    if (mask === 0) {
      // This station's 1230 carries no bias at all; convbin still claims 0.000 for all four.
      const theirs = await convbin(fixture(name), TIMES[name] as string);
      expect(record(theirs, 'GLONASS COD/PHS/BIS')[0]).toMatch(/C1C +0\.000 C1P +0\.000/);
      expect(line.trim()).toBe('');
    }
  });

  it('writes the chosen marker, observer and agency, and INTERVAL when decimating', async () => {
    const file = await ours(HIRO, { marker: 'HIRO00JPN', observer: 'ops', agency: 'Example Network', interval: 30 });
    expect(record(file, 'MARKER NAME')[0]?.trim()).toBe('HIRO00JPN');
    expect(record(file, 'OBSERVER / AGENCY')[0]).toBe(`${'ops'.padEnd(20)}${'Example Network'.padEnd(40)}`);
    expect(record(file, 'INTERVAL')[0]?.trim()).toBe('30.000');
    expect(file.header[0]).toMatch(/^ {5}3\.04 {11}OBSERVATION DATA {4}M/);
  });

  it('1006: APPROX POSITION is the marker, the antenna height below the ARP, and DELTA H the height', () => {
    // 1006 = 1005 + 16-bit antenna height (0.1 mm). Built from the Hiroshima 1005 with a 1.5 m height.
    const station = emptyStation();
    const frame1005 = validFramesSync(HIRO).find((f) => frameMessageType(f) === 1005) as Buffer;
    const p = Buffer.alloc(21);
    framePayload(frame1005).copy(p);
    p[0] = 0x3e; // message number 1006 = 0x3EE
    p[1] = ((p[1] as number) & 0x0f) | 0xe0;
    p.writeUInt16BE(15_000, 19);
    expect(decodeStationMessage(p, station)).toBe(true);
    expect(station.antennaHeight).toBeCloseTo(1.5, 6);
    const header = formatObsHeader({
      obsTypes: new Map([['G', ['C1C']]]),
      systems: ['G'],
      station,
      marker: 'TEST',
      observer: '',
      agency: '',
      program: 'test',
      runBy: '',
      createdAt: new Date(0),
      firstEpoch: { week: 2240, tow: 0 },
      lastEpoch: { week: 2240, tow: 0 },
      glonassChannels: new Map(),
      comments: [],
    });
    const parsed = parseRinexObs(header);
    const marker = (record(parsed, 'APPROX POSITION XYZ')[0] as string).trim().split(/\s+/).map(Number);
    const arp = station.arp as number[];
    const offset = marker.map((v, i) => (arp[i] as number) - v);
    expect(Math.hypot(...offset)).toBeCloseTo(1.5, 3);
    // The offset points up: along the position vector within the ellipsoid's deflection (< 0.2°).
    const cos =
      offset.reduce((s, v, i) => s + v * (arp[i] as number), 0) / (Math.hypot(...offset) * Math.hypot(...arp));
    expect(cos).toBeGreaterThan(Math.cos((0.2 * Math.PI) / 180));
    expect(record(parsed, 'ANTENNA: DELTA H/E/N')[0]?.trim()).toBe('1.5000        0.0000        0.0000');
    expect(parsed.header[0]).toMatch(/G: GPS/);
  });
});

function validFramesSync(name: string): Buffer[] {
  return validFrames(readFileSync(fixture(name)));
}
