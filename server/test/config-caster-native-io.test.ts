import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

/** The caster's native I/O of the plain port (ADR 0095): on unless turned off, and only `true` or `false`. */
const base = { FIREBASE_PROJECT_ID: 'demo-gnss-portal' };

describe('CASTER_NATIVE_IO', () => {
  it('is on by default and off only when set to false', () => {
    expect(loadConfig({ ...base }).CASTER_NATIVE_IO).toBe(true);
    expect(loadConfig({ ...base, CASTER_NATIVE_IO: 'true' }).CASTER_NATIVE_IO).toBe(true);
    expect(loadConfig({ ...base, CASTER_NATIVE_IO: 'false' }).CASTER_NATIVE_IO).toBe(false);
  });

  it.each(['1', 'yes', 'on', 'TRUE'])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig({ ...base, CASTER_NATIVE_IO: value })).toThrow(
      /^Invalid configuration:\n {2}CASTER_NATIVE_IO:/,
    );
  });
});
