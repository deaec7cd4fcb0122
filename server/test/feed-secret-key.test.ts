import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_FEED_SECRET_KEY, loadConfig } from '../src/config.ts';
import { FEED_SECRET_KEY_FILE, feedSecretKeyOf, processFeedSecretKey } from '../src/feed-secret-key.ts';
import type { CasterService } from '../src/modules/ntrip/index.ts';
import { issueProbeToken } from '../src/modules/ntrip/ntrip.probe.ts';

import { startTestCaster } from './support/caster.ts';
import { testDatabaseKind } from './support/database.ts';
import { activate, createAccount, createNetwork, createStation, grantTokens } from './support/factories.ts';
import { buildTestApp, type TestContext } from './support/test-app.ts';

const OWN_KEY = randomBytes(32).toString('base64');

/** Each setting that ties a start to real users, money or mail, with a value that passes its own check. */
const REAL_CREDENTIALS: Array<[string, Record<string, string>]> = [
  ['a non-demo Firebase project', { FIREBASE_PROJECT_ID: 'acme-portal-prod' }],
  ['a live Stripe key', { STRIPE_SECRET_KEY: 'sk_live_51RealKey', STRIPE_WEBHOOK_SECRET: 'whsec_realsecret' }],
  ['a Stripe test key', { STRIPE_SECRET_KEY: 'sk_test_51RealKey' }],
  ['an SMTP server', { SMTP_URL: 'smtp://portal:secret@mail.example.test:587' }],
];

describe('the portal secret where real credentials are configured', () => {
  it.each(REAL_CREDENTIALS)('refuses a start with %s and no FEED_SECRET_KEY, whatever NODE_ENV says', (_, real) => {
    for (const NODE_ENV of [undefined, 'development', 'test']) {
      expect(() => loadConfig({ ...(NODE_ENV && { NODE_ENV }), ...real }), `NODE_ENV=${NODE_ENV}`).toThrow(
        /Invalid configuration:[\s\S]*FEED_SECRET_KEY: required with real credentials \(/,
      );
    }
    expect(loadConfig({ ...real, FEED_SECRET_KEY: OWN_KEY }).FEED_SECRET_KEY).toBe(OWN_KEY);
  });

  it('names every real credential it found', () => {
    expect(() =>
      loadConfig({ FIREBASE_PROJECT_ID: 'acme-portal-prod', SMTP_URL: 'smtps://u:p@mail.example.test:465' }),
    ).toThrow('FEED_SECRET_KEY: required with real credentials (FIREBASE_PROJECT_ID, SMTP_URL)');
  });

  it('refuses the published development key in any start, demo or not', () => {
    for (const env of [{}, { NODE_ENV: 'test' }, ...REAL_CREDENTIALS.map(([, real]) => real)]) {
      expect(() => loadConfig({ ...env, FEED_SECRET_KEY: DEV_FEED_SECRET_KEY })).toThrow(
        /FEED_SECRET_KEY: is the built-in development key, published with the code/,
      );
    }
  });
});

describe('the portal secret of a development start', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-secret-'));
    dirs.push(dir);
    return join(dir, 'db');
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('makes a random key per PGlite data directory, readable by its owner only, and keeps it across restarts', () => {
    const first = dataDir();
    const config = loadConfig({ PGLITE_DATA_DIR: first });
    expect(config.FEED_SECRET_KEY).toBeUndefined();
    const key = feedSecretKeyOf(config);
    const file = join(first, FEED_SECRET_KEY_FILE);
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(readFileSync(file, 'utf8').trim()).toBe(key);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(feedSecretKeyOf(loadConfig({ PGLITE_DATA_DIR: first }))).toBe(key);

    const second = feedSecretKeyOf(loadConfig({ PGLITE_DATA_DIR: dataDir() }));
    expect(new Set([key, second, DEV_FEED_SECRET_KEY]).size).toBe(3);
  });

  it('narrows a key file others could read, and refuses one that holds no key', () => {
    const dir = dataDir();
    const key = feedSecretKeyOf({ PGLITE_DATA_DIR: dir });
    chmodSync(join(dir, FEED_SECRET_KEY_FILE), 0o644);
    expect(feedSecretKeyOf({ PGLITE_DATA_DIR: dir })).toBe(key);
    expect(statSync(join(dir, FEED_SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
    writeFileSync(join(dir, FEED_SECRET_KEY_FILE), 'not a key\n');
    expect(() => feedSecretKeyOf({ PGLITE_DATA_DIR: dir })).toThrow(
      /FEED_SECRET_KEY: .*feed-secret.key does not hold a key/,
    );
  });

  it('uses the configured key as given, one key per process for an in-memory database, and none by default on PostgreSQL', () => {
    expect(feedSecretKeyOf({ FEED_SECRET_KEY: OWN_KEY, PGLITE_DATA_DIR: dataDir() })).toBe(OWN_KEY);
    const memory = feedSecretKeyOf({ PGLITE_DATA_DIR: 'memory://' });
    expect(memory).toBe(processFeedSecretKey());
    expect(memory).not.toBe(DEV_FEED_SECRET_KEY);
    expect(() =>
      feedSecretKeyOf({ DATABASE_URL: 'postgres://portal@db.internal/portal', PGLITE_DATA_DIR: 'x' }),
    ).toThrow(/FEED_SECRET_KEY: required with DATABASE_URL/);
  });
});

/** An NTRIP 2 login; resolves with the caster's status code. */
function login(port: number, username: string, password: string, mountpoint: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const auth = Buffer.from(`${username}:${password}`).toString('base64');
    socket.on('error', reject);
    socket.write(
      `GET /${mountpoint} HTTP/1.1\r\nHost: localhost\r\nNtrip-Version: Ntrip/2.0\r\nAuthorization: Basic ${auth}\r\n\r\n`,
    );
    socket.once('data', (answer) => {
      socket.destroy();
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer.toString('latin1'))?.[1]));
    });
  });
}

describe(`a caster started with real credentials on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let caster: CasterService | undefined;
  let mountpoint: string;
  let username: string;

  beforeAll(async () => {
    t = await buildTestApp();
    const admin = await t.buildAdmin();
    const user = await t.buildUser();
    const network = await createNetwork(t.db, { price: 1 });
    mountpoint = `FK${network.slug.slice(-6).toUpperCase()}`;
    await createStation(t.db, network.id, mountpoint);
    await grantTokens(t, admin, user, 10);
    const { account } = await createAccount(t, user);
    username = account.username;
    expect((await activate(t, user, account.id, network.id, 1)).statusCode).toBe(201);
    const env = { FIREBASE_PROJECT_ID: 'acme-portal-prod', STRIPE_SECRET_KEY: 'sk_live_51RealKey' };
    expect(() => feedSecretKeyOf(loadConfig(env))).toThrow(/FEED_SECRET_KEY/);
    caster = await startTestCaster(t.db, {
      feedSecretKey: feedSecretKeyOf(loadConfig({ ...env, FEED_SECRET_KEY: OWN_KEY })),
    });
  });
  afterAll(async () => {
    await caster?.close();
    await t?.close();
  });

  it('refuses a connection-test login signed with the published development key, and takes its own', async () => {
    const port = caster?.port ?? 0;
    expect(await login(port, username, issueProbeToken(DEV_FEED_SECRET_KEY, username, mountpoint), mountpoint)).toBe(
      401,
    );
    expect(await login(port, username, issueProbeToken(OWN_KEY, username, mountpoint), mountpoint)).toBe(200);
  });
});
