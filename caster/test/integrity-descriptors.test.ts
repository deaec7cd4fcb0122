import { encodeFrame } from '@portal/gnss';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INTEGRITY, StationMonitor } from '../src/integrity/monitor.ts';

/** A 1033 frame (CRC included): antenna descriptor and serial, receiver type, firmware and serial. */
function msg1033(antenna: string, receiver: string): Buffer {
  const bits: number[] = [];
  const put = (value: number, n: number) => {
    for (let i = n - 1; i >= 0; i--) bits.push((value >> i) & 1);
  };
  const text = (s: string) => {
    put(s.length, 8);
    for (const c of s) put(c.charCodeAt(0), 8);
  };
  put(1033, 12);
  put(7, 12);
  text(antenna);
  put(0, 8);
  text('12345');
  text(receiver);
  text('4.10');
  text('3001');
  while (bits.length % 8) bits.push(0);
  const payload = Buffer.alloc(bits.length / 8);
  bits.forEach((b, i) => {
    if (b) payload[i >> 3] = (payload[i >> 3] as number) | (0x80 >> (i & 7));
  });
  return encodeFrame(payload);
}

const AMSTERDAM = { latitude: 52.37, longitude: 4.9, heightM: null };

function reasons(catalogue: { receiver?: string; antenna?: string }, frame?: Buffer) {
  const monitor = new StationMonitor();
  const now = 1_800_000_000_000;
  if (frame) monitor.frame(frame, 1033, now);
  return monitor.evaluate(now, DEFAULT_INTEGRITY, { ...AMSTERDAM, ...catalogue }, now);
}

describe('the station’s receiver and antenna against its catalogue entry (1033, issue 32)', () => {
  it('warns when the receiver or antenna the station sends is not the one in the catalogue', () => {
    const found = reasons(
      { receiver: 'SEPT POLARX5', antenna: 'LEIAR25.R4 LEIT' },
      msg1033('TRM59800.00     SCIS', 'TRIMBLE NETR9'),
    );
    expect(found).toEqual([
      expect.objectContaining({
        code: 'descriptor_mismatch',
        level: 'warning',
        message:
          'The station sends receiver TRIMBLE NETR9 (the catalogue: SEPT POLARX5) and antenna TRM59800.00 SCIS (the catalogue: LEIAR25.R4 LEIT).',
      }),
    ]);
  });

  it('accepts the same equipment written differently: case, padding, or the radome left out', () => {
    const frame = msg1033('TRM59800.00     NONE', 'TRIMBLE NETR9');
    expect(reasons({ receiver: 'Trimble NetR9', antenna: 'TRM59800.00' }, frame)).toEqual([]);
    expect(reasons({ receiver: 'TRIMBLE NETR9', antenna: 'TRM59800.00 NONE' }, frame)).toEqual([]);
  });

  it('compares nothing the catalogue does not state, nor before the station sent a 1033', () => {
    expect(reasons({ receiver: '', antenna: '' }, msg1033('TRM59800.00', 'TRIMBLE NETR9'))).toEqual([]);
    expect(reasons({ receiver: 'SEPT POLARX5', antenna: 'LEIAR25.R4' })).toEqual([]);
  });
});
