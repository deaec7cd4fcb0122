import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

/**
 * README and .env.example say: copy .env.example to .env and adjust. The server (and `npm start`, which calls the
 * same loader) reads that file from the folder npm was started in, under the variables the environment sets.
 */
const example = join(dirname(fileURLToPath(import.meta.url)), '../../.env.example');

function replaceEnvironment(values: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, values);
}

describe('.env', () => {
  let dir: string;
  let saved: NodeJS.ProcessEnv;
  beforeEach(() => {
    saved = { ...process.env };
    dir = mkdtempSync(join(tmpdir(), 'portal-dotenv-'));
    // process.loadEnvFile writes the real environment, so it is emptied and refilled rather than replaced.
    replaceEnvironment({ PATH: saved.PATH, INIT_CWD: dir });
  });
  afterEach(() => {
    replaceEnvironment(saved);
    rmSync(dir, { recursive: true, force: true });
  });

  it("a copy of .env.example starts with the documented defaults, plus what npm start sets: the Auth Emulator, dist/ and the brand's name", () => {
    const defaults = loadConfig({ INIT_CWD: dir });
    copyFileSync(example, join(dir, '.env'));
    const fromExample = loadConfig();
    expect(fromExample).toEqual({
      ...defaults,
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      STATIC_DIR: join(dir, 'dist'),
      VITE_BRAND: 'default',
    });
  });

  it('takes a value from .env, and the environment over it', () => {
    writeFileSync(join(dir, '.env'), 'PORT=9123\nCASTER_PORT=2202\nLOG_LEVEL=debug\n');
    process.env.CASTER_PORT = '2303';
    const config = loadConfig();
    expect(config.PORT).toBe(9123);
    expect(config.CASTER_PORT).toBe(2303);
    expect(config.LOG_LEVEL).toBe('debug');
  });

  it('names a bad value from .env like one from the environment', () => {
    writeFileSync(join(dir, '.env'), 'PORT=eighty\n');
    expect(() => loadConfig()).toThrow(/Invalid configuration:[\s\S]*PORT/);
  });

  it('is not read when the caller passes its own environment', () => {
    writeFileSync(join(dir, '.env'), 'PORT=9123\n');
    expect(loadConfig({ INIT_CWD: dir }).PORT).toBe(8080);
  });
});
