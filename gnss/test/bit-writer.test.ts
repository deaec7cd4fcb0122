import { describe, expect, it } from 'vitest';
import { BitWriter } from '../src/bit-writer.ts';
import { getBitS, getBitU } from '../src/bits.ts';

describe('BitWriter', () => {
  it('writes fields of every length that the bit readers read back, at every bit offset', () => {
    const w = new BitWriter(4);
    const fields: { len: number; value: number; signed: boolean }[] = [];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 400; i++) {
      const len = 1 + Math.floor(random() * 53);
      const signed = len > 1 && random() < 0.5;
      const value = signed ? Math.floor(random() * 2 ** len) - 2 ** (len - 1) : Math.floor(random() * 2 ** len);
      fields.push({ len, value, signed });
      if (signed) w.s(len, value);
      else w.u(len, value);
    }
    const bytes = w.bytes();
    expect(bytes.length).toBe(Math.ceil(w.pos / 8));
    let pos = 0;
    for (const f of fields) {
      expect(f.signed ? getBitS(bytes, pos, f.len) : getBitU(bytes, pos, f.len)).toBe(f.value);
      pos += f.len;
    }
  });

  it('copies bit ranges, counted text, and refuses values that do not fit the field', () => {
    const src = new BitWriter();
    src.u(3, 5);
    src.text('TRM59800.00     SCIS');
    src.s(30, -123_456_789);
    const bytes = src.bytes();
    const w = new BitWriter();
    w.u(1, 1);
    w.copy(bytes, 3, src.pos - 3);
    const copy = w.bytes();
    expect(getBitU(copy, 1, 8)).toBe(20);
    expect(String.fromCharCode(...Array.from({ length: 20 }, (_, i) => getBitU(copy, 9 + 8 * i, 8)))).toBe(
      'TRM59800.00     SCIS',
    );
    expect(getBitS(copy, 9 + 160, 30)).toBe(-123_456_789);
    expect(() => w.u(4, 16)).toThrow(RangeError);
    expect(() => w.s(4, 8)).toThrow(RangeError);
    expect(() => w.s(4, -9)).toThrow(RangeError);
    expect(() => w.u(4, 1.5)).toThrow(RangeError);
  });
});
