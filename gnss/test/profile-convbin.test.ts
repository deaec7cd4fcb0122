/**
 * RTCM output profiles on every repository capture: each output frame CRC-valid and of the profile's message types,
 * 1008 after every 1005/1006, and Debian rtklib's convbin reading the output to the same observables as the input,
 * each within the output message's resolution and with the same loss-of-lock flags where the format carries them.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msmKind } from '../src/obs/signals.ts';
import {
  createProfileEncoder,
  messageConstellation,
  type ProfileOptions,
  type RtcmProfile,
} from '../src/profile/index.ts';
import { decodeStationMessage, emptyStation } from '../src/station.ts';
import { encodeFrame, frameMessageType, validFrames } from '../src/transport.ts';
import { convbin, type ObsValue, type RinexObsFile, retagBeidouAsBdt } from './support/rinex-obs.ts';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const CAPTURES = [
  { name: 'oem729 Hiroshima', file: 'oem729_hiroshima_20221213_msm7_alleph.rtcm3', time: '2022/12/13 01:09:00' },
  {
    name: 'GMSD7 NETR9',
    file: 'GMSD7_20121014_netr9_msm7_weekrollover.rtcm3',
    time: '2012/10/13 23:59:00',
    // The NETR9 tags BeiDou MSM in GPST; convbin only reads it retagged to BDT (obs-convbin.test.ts), input and output.
    retag: true,
  },
  { name: 'aamakinen', file: 'aamakinen_20260705_msm7_glomsm4.rtcm3', time: '2026/07/05 12:00:00' },
] as const;

const ANTENNA = { descriptor: 'TRM59800.00     SCIS', setupId: 3, serialNumber: '5000118' };
const RECEIVER = { type: 'TEST RECEIVER', firmware: '1.2.3', serialNumber: 'R42' };
const LIGHT_MS = 299_792.458;
/** Highest carrier frequency of any band: tolerances in metres become cycles without under-counting. */
const MAX_CYCLES_PER_METRE = 1.61e9 / 299_792_458;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'profile-convbin-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function encode(frames: Buffer[], options: ProfileOptions): Uint8Array[] {
  const encoder = createProfileEncoder(options);
  return frames.flatMap((f) => encoder.push(f));
}

let n = 0;
async function rinex(frames: readonly Uint8Array[], time: string, retag: boolean): Promise<RinexObsFile> {
  const path = join(work, `${n++}.rtcm3`);
  const buffers = frames.map((f) => Buffer.from(f.buffer, f.byteOffset, f.byteLength));
  await writeFile(path, retag ? retagBeidouAsBdt(buffers, encodeFrame) : Buffer.concat(buffers));
  return convbin(path, time);
}

/** Whether convbin's LLI says half-cycle (it adds 3 to the flag for DF420, see lliMatches) and whether a slip. */
const halfCycle = (lli: number) => lli >= 3;
const slip = (lli: number) => (lli >= 3 ? lli - 3 : lli) & 1;

interface Rules {
  /** Constellations expected in the output. */
  systems: string;
  /** Input observation type for an output type of a satellite's epoch (legacy renames some signals). */
  source: (sat: string, type: string, input: Map<string, ObsValue>) => string | undefined;
  /**
   * Input observables the output is expected to carry; `phaseSeen`: the output had a phase of this satellite before
   * (a GLONASS phase needs the frequency channel, which MSM4 does not carry: the rover learns it from 1020).
   */
  expected: (sat: string, type: string, value: ObsValue, input: Map<string, ObsValue>, phaseSeen: boolean) => boolean;
  /** Largest allowed |output − input| per observation kind (C metres, L cycles, S dB-Hz). */
  tolerance: Record<'C' | 'L' | 'S', number>;
  /** Whether the LLI of a phase is compared whole (MSM4) or only its slip bit (legacy: no half-cycle field). */
  halfCycleCarried: boolean;
}

/** RINEX values are printed to 0.001: two roundings. */
const PRINT = 0.001;

const MSM4_RULES = (systems: string): Rules => ({
  systems,
  source: (_sat, type) => type,
  expected: (sat, type, _value, _input, phaseSeen) =>
    systems.includes(sat[0] as string) && type[0] !== 'D' && (sat[0] !== 'R' || type[0] !== 'L' || phaseSeen),
  tolerance: {
    C: 2 ** -25 * LIGHT_MS + PRINT,
    L: 2 ** -30 * LIGHT_MS * MAX_CYCLES_PER_METRE + PRINT,
    S: 0.5 + PRINT,
  },
  halfCycleCarried: true,
});

/** The signal a 1004/1012 carries on each band, in the encoder's order of preference (legacy.ts). */
const LEGACY_SIGNALS: Record<string, string[][]> = {
  G: [
    ['1C', '1P', '1W'],
    ['2P', '2W', '2L', '2X', '2S', '2C'],
  ],
  R: [
    ['1C', '1P'],
    ['2P', '2C'],
  ],
};
/** How convbin names what the code indicator of 1004/1012 says (DF010, DF016, DF039, DF046). */
const LEGACY_NAME: Record<string, string> = {
  G1C: '1C',
  G1P: '1P',
  G1W: '1P',
  G2P: '2P',
  G2W: '2W',
  G2L: '2X',
  G2X: '2X',
  G2S: '2X',
  G2C: '2X',
  R1C: '1C',
  R1P: '1P',
  R2P: '2P',
  R2C: '2C',
};

function legacyChoice(sys: string, band: number, input: Map<string, ObsValue>): string | undefined {
  return LEGACY_SIGNALS[sys]?.[band]?.find((s) => [...input.keys()].some((t) => t.slice(1) === s));
}

const LEGACY_RULES = (systems: string): Rules => ({
  systems,
  source: (sat, type, input) => {
    const sys = sat[0] as string;
    const band = type[1] === '1' ? 0 : 1;
    const chosen = legacyChoice(sys, band, input);
    return chosen && LEGACY_NAME[sys + chosen] === type.slice(1) ? type[0] + chosen : undefined;
  },
  expected: (sat, type, value, input) => {
    const sys = sat[0] as string;
    if (!systems.includes(sys) || type[0] === 'D') return false;
    // Every legacy field is relative to the L1 pseudorange: no L1 code, no satellite.
    const l1 = legacyChoice(sys, 0, input);
    if (!l1 || !input.has(`C${l1}`)) return false;
    // 1012 needs the frequency channel (DF040); where convbin had none for the input, neither had the encoder.
    if (sys === 'R' && ![...input.keys()].some((t) => t[0] === 'L')) return false;
    const band = type[1] === '1' ? 0 : 1;
    if (legacyChoice(sys, band, input) !== type.slice(1)) return false;
    // A phase with an unresolved half cycle is sent as not valid (1004/1012 cannot flag it).
    return !(type[0] === 'L' && halfCycle(value.lli));
  },
  tolerance: {
    C: 0.01 + PRINT,
    L: 0.00025 * MAX_CYCLES_PER_METRE + PRINT,
    S: 0.125 + PRINT,
  },
  halfCycleCarried: false,
});

interface Mismatch {
  epoch: string;
  sat: string;
  type: string;
  input?: ObsValue | undefined;
  output?: ObsValue | undefined;
  what: string;
}

function compare(input: RinexObsFile, output: RinexObsFile, rules: Rules) {
  const mismatches: Mismatch[] = [];
  let compared = 0;
  const firstSeen = new Set<string>();
  const phaseSeen = new Set<string>();
  for (const [epoch, inSats] of input.epochs) {
    const outSats = output.epochs.get(epoch) ?? new Map<string, Map<string, ObsValue>>();
    for (const [sat, outValues] of outSats) {
      const inValues = inSats.get(sat);
      if (!inValues) {
        mismatches.push({ epoch, sat, type: '', what: 'satellite not in the input' });
        continue;
      }
      for (const [type, out] of outValues) {
        const source = rules.source(sat, type, inValues);
        const value = source ? inValues.get(source) : undefined;
        if (!source || !value) {
          mismatches.push({ epoch, sat, type, output: out, what: 'observable not in the input' });
          continue;
        }
        compared++;
        const kind = type[0] as 'C' | 'L' | 'S';
        if (Math.abs(out.value - value.value) > rules.tolerance[kind]) {
          mismatches.push({ epoch, sat, type, input: value, output: out, what: 'value' });
        }
        const first = !firstSeen.has(`${sat}${type}`);
        firstSeen.add(`${sat}${type}`);
        // convbin compares a signal's first lock indicator with what its scan pass left at the end of the file
        // (obs-convbin.test.ts), so the first flag of each signal says nothing about the stream.
        if (kind === 'L' && !first) {
          const same = rules.halfCycleCarried ? out.lli === value.lli : slip(out.lli) === slip(value.lli);
          if (!same) mismatches.push({ epoch, sat, type, input: value, output: out, what: 'LLI' });
        }
      }
    }
    for (const [sat, inValues] of inSats) {
      for (const [type, value] of inValues) {
        if (!rules.expected(sat, type, value, inValues, phaseSeen.has(sat))) continue;
        const outType = [...(outSats.get(sat)?.keys() ?? [])].find((t) => rules.source(sat, t, inValues) === type);
        if (!outType) mismatches.push({ epoch, sat, type, input: value, what: 'missing in the output' });
      }
    }
    for (const [sat, outValues] of outSats) if ([...outValues.keys()].some((t) => t[0] === 'L')) phaseSeen.add(sat);
  }
  return { mismatches, compared };
}

function expectFramesValid(out: readonly Uint8Array[]): number[] {
  const bytes = Buffer.concat(out.map((f) => Buffer.from(f.buffer, f.byteOffset, f.byteLength)));
  const reframed = validFrames(bytes);
  expect(reframed.length).toBe(out.length);
  expect(reframed.reduce((sum, f) => sum + f.length, 0)).toBe(bytes.length);
  return out.map(frameMessageType);
}

function expect1008AfterPositions(types: number[]): void {
  const positions = types.flatMap((t, i) => (t === 1005 || t === 1006 ? [i] : []));
  for (const i of positions) expect(types[i + 1]).toBe(1008);
}

/**
 * The message types a profile makes of the input's: MSM5–7 → MSM4 (msm4); GPS/GLONASS MSM4–7 → 1004/1012 and no
 * other MSM (legacy; 1012 only where the stream tells GLONASS frequency channels, by MSM5/7 or 1020); messages of
 * other constellations dropped; the station's 1007 replaced by 1008, 1008 after 1005/1006, 1033 always.
 */
function expectedTypes(input: number[], profile: RtcmProfile, systems: string): Set<number> {
  const out = new Set<number>([1008, 1033]);
  const channels = input.some((t) => t === 1020 || t === 1085 || t === 1087);
  for (const t of input) {
    const sys = messageConstellation(t);
    if (sys !== null && !systems.includes(sys)) continue;
    const msm = msmKind(t);
    if (t === 1007) continue;
    if (!msm || profile === 'as-sent') out.add(t);
    else if (profile === 'msm4') out.add(msm.kind >= 5 ? t - msm.kind + 4 : t);
    else if (msm.sys === 'G' && msm.kind >= 4) out.add(1004);
    else if (msm.sys === 'R' && msm.kind >= 4 && channels) out.add(1012);
  }
  return out;
}

const PROFILES: { profile: RtcmProfile; constellations: ProfileOptions['constellations'] }[] = [
  { profile: 'msm4', constellations: null },
  { profile: 'legacy', constellations: null },
  { profile: 'msm4', constellations: ['GPS', 'GAL'] },
];

describe.each(CAPTURES)('$name', (capture) => {
  let frames: Buffer[];
  let input: RinexObsFile;
  const retag = 'retag' in capture && capture.retag;
  beforeAll(async () => {
    frames = validFrames(await readFile(fixture(capture.file)));
    input = await rinex(frames, capture.time, retag);
  });

  it('as-sent without filter or antenna hands back every frame itself', () => {
    const encoder = createProfileEncoder({ profile: 'as-sent', constellations: null });
    for (const f of frames) {
      const out = encoder.push(f);
      expect(out).toHaveLength(1);
      expect(out[0]).toBe(f);
    }
  });

  it('as-sent with the catalogue antenna: the input unchanged but for 1008 after each 1005/1006 and antenna fields', () => {
    const out = encode(frames, { profile: 'as-sent', constellations: null, antenna: ANTENNA, receiver: RECEIVER });
    const types = expectFramesValid(out);
    expect1008AfterPositions(types);
    const inputTypes = frames.map(frameMessageType);
    // Without the injected and replaced station messages, the output is the input frame for frame.
    const station = new Set([1007, 1008, 1033]);
    const passed = out.filter((f) => !station.has(frameMessageType(f)));
    const sent = frames.filter((f) => !station.has(frameMessageType(f)));
    expect(passed.length).toBe(sent.length);
    expect(passed.every((f, i) => f === sent[i])).toBe(true);
    for (const f of out.filter((o) => station.has(frameMessageType(o)))) {
      const info = emptyStation();
      expect(decodeStationMessage(f.subarray(3, f.length - 3), info)).toBe(true);
      expect(info.antennaDescriptor).toBe(ANTENNA.descriptor);
      expect(info.antennaSetupId).toBe(ANTENNA.setupId);
      expect(info.antennaSerial).toBe(ANTENNA.serialNumber);
    }
    const own1033 = inputTypes.includes(1033);
    const out1033 = out.filter((f) => frameMessageType(f) === 1033);
    if (!own1033 && inputTypes.includes(1005)) {
      // The station sends no 1033: one from the catalogue after each 1005, with the receiver fields given.
      expect(out1033.length).toBe(inputTypes.filter((t) => t === 1005).length);
      const info = emptyStation();
      decodeStationMessage((out1033[0] as Uint8Array).subarray(3, -3), info);
      expect([info.receiverType, info.receiverFirmware, info.receiverSerial]).toEqual([
        RECEIVER.type,
        RECEIVER.firmware,
        RECEIVER.serialNumber,
      ]);
    }
    if (own1033) {
      // The station's own 1033 keeps its receiver fields; one from the catalogue at most, before the station's first.
      const extra = out1033.length - inputTypes.filter((t) => t === 1033).length;
      expect(extra).toBeGreaterThanOrEqual(0);
      expect(extra).toBeLessThanOrEqual(1);
      const receiverOf = (f: Uint8Array) => {
        const info = emptyStation();
        decodeStationMessage(f.subarray(3, f.length - 3), info);
        return [info.receiverType, info.receiverFirmware, info.receiverSerial];
      };
      const own = receiverOf(frames.find((f) => frameMessageType(f) === 1033) as Buffer);
      expect(own[0]).not.toBe('');
      expect(receiverOf(out1033.at(-1) as Uint8Array)).toEqual(own);
    }
  });

  it.each(PROFILES)('$profile $constellations: valid frames of the profile, observables as the input', async (p) => {
    const out = encode(frames, { ...p, antenna: ANTENNA, receiver: RECEIVER });
    const types = expectFramesValid(out);
    expect1008AfterPositions(types);
    const output = await rinex(out, capture.time, retag);
    const systems = p.constellations === null ? (p.profile === 'legacy' ? 'GR' : 'GRECJIS') : 'GE';
    const filter = p.constellations === null ? 'GRECJIS' : 'GE';
    expect(new Set(types)).toEqual(expectedTypes(frames.map(frameMessageType), p.profile, filter));
    const rules = p.profile === 'legacy' ? LEGACY_RULES(systems) : MSM4_RULES(systems);
    const { mismatches, compared } = compare(input, output, rules);
    expect([...output.epochs.keys()]).toEqual([...input.epochs.keys()]);
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(p.profile === 'legacy' ? 900 : 1800);
  });
});
