import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CASTER_NODE_FLAGS } from '@portal/caster';
import { describe, expect, it } from 'vitest';
import { DEV_FEED_SECRET_KEY, loadConfig } from '../src/config.ts';

/** A real project needs its own key (feed-secret-key.test.ts). */
const OWN_KEY = 'q6Xq3bGkq8m4mJ0wS0bXr0a9hQ5f8cQeWkqg2l7Y1jA=';

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
    expect(loadConfig({ FIREBASE_PROJECT_ID: 'acme-portal-prod', FEED_SECRET_KEY: OWN_KEY }).FIREBASE_PROJECT_ID).toBe(
      'acme-portal-prod',
    );
  });
});

describe('caster configuration', () => {
  const base = { FIREBASE_PROJECT_ID: 'demo-gnss-portal' };

  it('writes frames through io_uring unless CASTER_IO_URING is false, and refuses other values', () => {
    expect(loadConfig(base).CASTER_IO_URING).toBe(true);
    expect(loadConfig({ ...base, CASTER_IO_URING: 'false' }).CASTER_IO_URING).toBe(false);
    expect(() => loadConfig({ ...base, CASTER_IO_URING: 'no' })).toThrow(/CASTER_IO_URING/);
  });

  it("leaves the fan-out's threads to the caster unless CASTER_FANOUT_THREADS names 1 to 16", () => {
    expect(loadConfig({ ...base, CASTER_FANOUT_THREADS: '' }).CASTER_FANOUT_THREADS).toBeUndefined();
    expect(loadConfig({ ...base, CASTER_FANOUT_THREADS: '1' }).CASTER_FANOUT_THREADS).toBe(1);
    expect(() => loadConfig({ ...base, CASTER_FANOUT_THREADS: '0' })).toThrow(/CASTER_FANOUT_THREADS/);
    expect(() => loadConfig({ ...base, CASTER_FANOUT_THREADS: '17' })).toThrow(/CASTER_FANOUT_THREADS/);
  });

  it("starts the server (which runs the caster) with the caster's Node options", () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const start = (manifest.scripts.start as string).split(' ');
    expect(start.slice(0, 1 + CASTER_NODE_FLAGS.length)).toEqual(['tsx', ...CASTER_NODE_FLAGS]);
  });
});

describe('production configuration', () => {
  /** Everything production needs, and nothing a demo uses. */
  const production = {
    NODE_ENV: 'production',
    FIREBASE_PROJECT_ID: 'acme-portal-prod',
    DATABASE_URL: 'postgres://portal@db.internal:5432/portal',
    FEED_SECRET_KEY: 'q6Xq3bGkq8m4mJ0wS0bXr0a9hQ5f8cQeWkqg2l7Y1jA=',
    STRIPE_SECRET_KEY: 'sk_test_51ProdCheck',
    STRIPE_WEBHOOK_SECRET: 'whsec_prodcheck',
    SMTP_URL: 'smtp://portal:secret@mail.internal:587',
  };

  it('starts with a complete configuration', () => {
    const config = loadConfig(production);
    expect(config.FEED_SECRET_KEY).toBe(production.FEED_SECRET_KEY);
  });

  it('requires a mail server for the API only: a caster alone sends no mail', () => {
    expect(() => loadConfig({ ...production, SMTP_URL: undefined })).toThrow(
      'SMTP_URL: required in production (smtp://user:password@mail.example.com:587): without it invitations, receipts and notices are never delivered',
    );
    expect(loadConfig({ ...production, SMTP_URL: undefined, SERVICES: 'caster' }).SERVICES).toEqual(['caster']);
  });

  it('names every unsafe setting at once', () => {
    expect(() => loadConfig({ ...production, STRIPE_SECRET_KEY: undefined, FEED_SECRET_KEY: undefined })).toThrow(
      /FEED_SECRET_KEY[\s\S]*PAYMENT_PROVIDER/,
    );
  });

  it.each([
    ['the sandbox payment provider', { PAYMENT_PROVIDER: 'sandbox' }, /PAYMENT_PROVIDER/],
    ['no payment provider at all (the sandbox)', { STRIPE_SECRET_KEY: undefined }, /PAYMENT_PROVIDER/],
    ['the Auth Emulator', { FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }, /FIREBASE_AUTH_EMULATOR_HOST/],
    [
      'the Auth Emulator with the demo project',
      { FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', FIREBASE_PROJECT_ID: 'demo-gnss-portal' },
      /FIREBASE_AUTH_EMULATOR_HOST/,
    ],
    [
      'demo seeding',
      { SEED_DEMO: 'true', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', FIREBASE_PROJECT_ID: 'demo-gnss-portal' },
      /SEED_DEMO: creates demo accounts/,
    ],
    ['demo seeding without the emulator', { SEED_DEMO: 'true' }, /SEED_DEMO/],
    ['no feed key', { FEED_SECRET_KEY: undefined }, /FEED_SECRET_KEY/],
    ['no mail server', { SMTP_URL: undefined }, /SMTP_URL: required in production/],
    [
      'the built-in feed key',
      { FEED_SECRET_KEY: DEV_FEED_SECRET_KEY },
      /FEED_SECRET_KEY: is the built-in development key/,
    ],
  ])('refuses %s, naming the variable', (_, change, message) => {
    expect(() => loadConfig({ ...production, ...change })).toThrow(message);
  });
});

describe('Google credentials', () => {
  const base = { FIREBASE_PROJECT_ID: 'acme-portal-prod', FEED_SECRET_KEY: OWN_KEY };

  it('reads the credentials file at start: a missing or broken file is refused, naming the variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-credentials-'));
    try {
      const good = join(dir, 'service-account.json');
      writeFileSync(good, JSON.stringify({ type: 'service_account', project_id: 'acme-portal-prod' }));
      const broken = join(dir, 'broken.json');
      writeFileSync(broken, '{ not json');
      expect(loadConfig({ ...base, GOOGLE_APPLICATION_CREDENTIALS: good }).GOOGLE_APPLICATION_CREDENTIALS).toBe(good);
      expect(
        loadConfig({ ...base, GOOGLE_APPLICATION_CREDENTIALS: '' }).GOOGLE_APPLICATION_CREDENTIALS,
      ).toBeUndefined();
      for (const file of [broken, join(dir, 'missing.json')]) {
        expect(() => loadConfig({ ...base, GOOGLE_APPLICATION_CREDENTIALS: file })).toThrow(
          /GOOGLE_APPLICATION_CREDENTIALS: must name a readable Google credentials JSON file/,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('proxy configuration', () => {
  const base = { FIREBASE_PROJECT_ID: 'demo-gnss-portal' };

  it('trusts no proxy unless TRUST_PROXY names them, as addresses, ranges or a hop count', () => {
    expect(loadConfig(base).TRUST_PROXY).toBeUndefined();
    expect(loadConfig({ ...base, TRUST_PROXY: '' }).TRUST_PROXY).toBeUndefined();
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      'fd00::/8',
      'loopback',
    ]);
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
  });

  it.each(['true', '*', '10.0.0.0/33', 'proxy.internal', '0'])('refuses TRUST_PROXY=%s, naming it', (value) => {
    expect(() => loadConfig({ ...base, TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });
});

describe('PGlite data directory', () => {
  it('defaults to data/db in the folder npm was started in, like every relative path (not server/data/db)', () => {
    const before = process.env.INIT_CWD;
    process.env.INIT_CWD = '/srv/portal';
    try {
      expect(loadConfig({ FIREBASE_PROJECT_ID: 'demo-gnss-portal' }).PGLITE_DATA_DIR).toBe('/srv/portal/data/db');
      expect(loadConfig({ FIREBASE_PROJECT_ID: 'demo-gnss-portal', PGLITE_DATA_DIR: 'x/db' }).PGLITE_DATA_DIR).toBe(
        '/srv/portal/x/db',
      );
    } finally {
      if (before === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = before;
    }
  });
});
