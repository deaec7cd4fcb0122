/**
 * Observation records are formatted straight into bytes. Every value must read as RINEX's F14.3 does with C's
 * printf and JavaScript's toFixed(3): the double's exact decimal value rounded, ties away from zero, so the record
 * is the same whatever the rounding of value × 1000 on the way.
 */
import { describe, expect, it } from 'vitest';
import type { ObservationEpoch, SignalObservation } from '../src/obs/types.ts';
import { type ByteOut, writeObsEpoch } from '../src/rinex/obs-writer.ts';
import { gpsTime } from '../src/time.ts';

function sink(): ByteOut & { text(): string } {
  const out = {
    buf: Buffer.alloc(1 << 16),
    pos: 0,
    room(bytes: number) {
      if (out.pos + bytes > out.buf.length) throw new Error('test sink full');
    },
    text: () => out.buf.toString('latin1', 0, out.pos),
  };
  return out;
}

/** The record line as RINEX 3.04 table A3 lays it out, from toFixed: the independent reference. */
function expectedLine(id: string, values: Array<{ v: number; lli?: number } | null>): string {
  let line = id;
  for (const x of values) {
    if (!x) {
      line += ' '.repeat(16);
      continue;
    }
    const text = x.v === 0 ? ' '.repeat(14) : x.v.toFixed(3).padStart(14);
    line += `${text}${x.lli ? String(x.lli) : ' '} `;
  }
  return line.trimEnd();
}

const TYPES = new Map([['G' as const, ['C1C', 'L1C', 'D1C', 'S1C', 'C2W', 'L2W']]]);

function signal(code: string, s: Partial<SignalObservation>): SignalObservation {
  return { code, pseudorange: 0, phase: 0, doppler: 0, snrMilli: 0, lli: 0, ...s };
}

function record(signals: SignalObservation[]): string[] {
  const epoch: ObservationEpoch = { time: gpsTime(2240, 176_962), stationId: 0, satellites: [] };
  epoch.satellites.push({ sys: 'G', prn: 7, signals });
  const out = sink();
  writeObsEpoch(epoch, TYPES, out);
  return out.text().split('\n').slice(1, -1);
}

describe('observation records', () => {
  it('writes values as toFixed(3) would, exact ties and values one unit away from them included', () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const values: number[] = [
      0.0005, // below 0.0005 in binary: 0.000
      1.0005,
      12_345.0625, // an exact tie: away from zero
      -12_345.0625,
      2.5e-3,
      -0.0004, // rounds to -0.000, sign kept like toFixed
      999_999_999.999,
      -999_999_999.999,
      123_456_789.1235,
      0.001,
    ];
    for (let k = 0; k < 5000; k++) {
      const magnitude = 10 ** Math.floor(random() * 9);
      const v = (random() - 0.5) * 2 * magnitude;
      // Values on a thousandth and a half, the closest to a tie a random double comes.
      values.push(v, Math.round(v * 1000) / 1000 + 0.0005);
    }
    for (let k = 0; k < values.length; k += 3) {
      const [a = 1, b = 1, c = 1] = values.slice(k, k + 3);
      const lines = record([signal('1C', { pseudorange: a, phase: b, doppler: c, snrMilli: 45_250, lli: 1 })]);
      expect(lines).toEqual([expectedLine('G07', [{ v: a }, { v: b, lli: 1 }, { v: c }, { v: 45.25 }, null, null])]);
    }
  });

  it('leaves a zero or out-of-range value blank, writes a phase flag without a phase, and cuts trailing blanks', () => {
    const lines = record([
      signal('1C', { pseudorange: 2e9, phase: 0, doppler: -1e9, snrMilli: 0, lli: 1 }),
      signal('2W', { pseudorange: 22_000_000.5, lli: 0 }),
    ]);
    expect(lines).toEqual([expectedLine('G07', [null, { v: 0, lli: 1 }, null, null, { v: 22_000_000.5 }])]);
    expect(lines[0]).not.toMatch(/ $/);
    expect(record([signal('2W', {})])).toEqual(['G07']);
  });
});
