import { readFileSync } from 'node:fs';
import { CASTER_NODE_FLAGS } from '@portal/caster';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

describe('identity configuration', () => {
  it('refuses the Auth Emulator with a real project id (it would accept unsigned tokens for that project)', () => {
    expect(() =>
      loadConfig({ FIREBASE_PROJECT_ID: 'acme-portal-prod', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }),
    ).toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
  });

  it('accepts the Auth Emulator with a demo- project, and a real project without the emulator', () => {
    expect(
      loadConfig({ FIREBASE_PROJECT_ID: 'demo-gnss-portal', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }),
    ).toBeTruthy();
    expect(loadConfig({ FIREBASE_PROJECT_ID: 'acme-portal-prod' }).FIREBASE_PROJECT_ID).toBe('acme-portal-prod');
  });
});

describe('caster configuration', () => {
  const base = { FIREBASE_PROJECT_ID: 'demo-gnss-portal' };

  it('writes frames through io_uring unless CASTER_IO_URING is false, and refuses other values', () => {
    expect(loadConfig(base).CASTER_IO_URING).toBe(true);
    expect(loadConfig({ ...base, CASTER_IO_URING: 'false' }).CASTER_IO_URING).toBe(false);
    expect(() => loadConfig({ ...base, CASTER_IO_URING: 'no' })).toThrow(/CASTER_IO_URING/);
  });

  it("starts the server (which runs the caster) with the caster's Node options", () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const start = (manifest.scripts.start as string).split(' ');
    expect(start.slice(0, 1 + CASTER_NODE_FLAGS.length)).toEqual(['tsx', ...CASTER_NODE_FLAGS]);
  });
});
