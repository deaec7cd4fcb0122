import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { freePort } from '../src/dev/free-port.ts';
import { type CasterProcess, startCasterProcess } from './support/caster-process.ts';
import { TEST_POSTGRES_URL, testDatabaseKind } from './support/database.ts';

/**
 * The caster's failed-login throttle settings (issue 25, ADR 0015) are read by the configuration, reach the caster
 * the server starts, and a bad value stops the start naming its variable.
 */
const THROTTLE = [
  'CASTER_FAILED_LOGINS_PER_PAIR',
  'CASTER_FAILED_LOGIN_BACKOFF_MAX_SECONDS',
  'CASTER_FAILED_LOGINS_PER_NAME',
  'CASTER_FAILED_LOGINS_PER_IP',
] as const;
const base = { FIREBASE_PROJECT_ID: 'demo-gnss-portal' };

describe('caster throttle configuration', () => {
  it('reads the four settings, with the defaults ADR 0015 gives', () => {
    const defaults = loadConfig(base);
    expect(THROTTLE.map((name) => defaults[name])).toEqual([5, 60, 50, 300]);
    const set = loadConfig({
      ...base,
      CASTER_FAILED_LOGINS_PER_PAIR: '3',
      CASTER_FAILED_LOGIN_BACKOFF_MAX_SECONDS: '600',
      CASTER_FAILED_LOGINS_PER_NAME: '20',
      CASTER_FAILED_LOGINS_PER_IP: '1000',
    });
    expect(THROTTLE.map((name) => set[name])).toEqual([3, 600, 20, 1000]);
  });

  it.each(THROTTLE)('refuses %s unless it is a whole number of at least 1, naming it', (name) => {
    for (const bad of ['0', '-5', '2.5', 'lots', '']) {
      expect(() => loadConfig({ ...base, [name]: bad }), `${name}=${bad}`).toThrow(
        new RegExp(`^Invalid configuration:\\n  ${name}:`),
      );
    }
  });
});

/** A database the portal process can open after this one let go of it: a PGlite directory, or a PostgreSQL database. */
async function portalDatabase(): Promise<{
  env: Record<string, string>;
  handle: DatabaseHandle;
  drop(): Promise<void>;
}> {
  if (testDatabaseKind() === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'caster-throttle-'));
    const handle = await openDatabase({ pgliteDataDir: dir });
    return { env: { PGLITE_DATA_DIR: dir }, handle, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), pgliteDataDir: 'memory://' });
  return {
    env: { DATABASE_URL: url.toString(), FEED_SECRET_KEY: randomBytes(32).toString('base64') },
    handle,
    async drop() {
      const dropper = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** `npm run -w server start`'s command, with only the settings given here (none from the developer's shell). */
const startServer = (env: Record<string, string>): CasterProcess =>
  startCasterProcess('npm start', { ...base, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env });

/** A rover's login from `from` (any 127.0.0.0/8 address): the status of the caster's answer. */
function login(port: number, from: string, username: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    let answer = '';
    const auth = Buffer.from(`${username}:wrong-password`).toString('base64');
    socket.on('connect', () =>
      socket.write(`GET /AMS1 HTTP/1.1\r\nNtrip-Version: Ntrip/2.0\r\nAuthorization: Basic ${auth}\r\n\r\n`),
    );
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`no status line: ${JSON.stringify(answer)}`)));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`caster throttle settings in a started server on ${testDatabaseKind()}`, () => {
  let database: Awaited<ReturnType<typeof portalDatabase>>;
  let server: CasterProcess | undefined;
  let port: number;

  beforeAll(async () => {
    database = await portalDatabase();
    await migrate(database.handle.db);
    const network = await database.handle.db
      .insertInto('networks')
      .values({ slug: 'nl-rtk', name: 'NL RTK', updated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await database.handle.db
      .insertInto('stations')
      .values({
        network_id: network.id,
        mountpoint: 'AMS1',
        country: 'NLD',
        latitude: 52.37,
        longitude: 4.9,
        updated_at: new Date(),
      })
      .execute();
    await database.handle.close();
    port = await freePort();
    server = startServer({
      ...database.env,
      CASTER_PORT: String(port),
      // Each far from its default, so a caster that ignored one would answer differently below.
      CASTER_FAILED_LOGINS_PER_PAIR: '2',
      CASTER_FAILED_LOGIN_BACKOFF_MAX_SECONDS: '1',
      CASTER_FAILED_LOGINS_PER_NAME: '4',
      CASTER_FAILED_LOGINS_PER_IP: '4',
    });
    const started = server;
    const deadline = Date.now() + 90_000;
    while (!started.output().includes('NTRIP caster listening on port')) {
      if (started.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`the server did not start:\n${started.output()}`);
      }
      await sleep(100);
    }
  }, 120_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await database?.drop();
  });

  it('CASTER_FAILED_LOGINS_PER_PAIR=2: the third wrong password in a row from one address is refused unchecked', async () => {
    expect([
      await login(port, '127.0.3.2', 'pair-user'),
      await login(port, '127.0.3.2', 'pair-user'),
      await login(port, '127.0.3.2', 'pair-user'),
    ]).toEqual([401, 401, 429]);
  });

  it('CASTER_FAILED_LOGIN_BACKOFF_MAX_SECONDS=1: the lock stops doubling at one second', async () => {
    const from = '127.0.3.3';
    expect(await login(port, from, 'backoff-user')).toBe(401);
    expect(await login(port, from, 'backoff-user')).toBe(401);
    await sleep(1200);
    // Past the second free failure the lock would double to 2 s; capped, it is over again after 1 s.
    expect(await login(port, from, 'backoff-user')).toBe(401);
    await sleep(1200);
    expect(await login(port, from, 'backoff-user')).toBe(401);
  });

  it('CASTER_FAILED_LOGINS_PER_NAME=4: past four failures for a name, addresses that failed for it are refused', async () => {
    for (const from of ['127.0.3.4', '127.0.3.5', '127.0.3.6', '127.0.3.7']) {
      expect(await login(port, from, 'name-user')).toBe(401);
    }
    expect(await login(port, '127.0.3.4', 'name-user')).toBe(429);
    // An address that has not failed for the name is still checked.
    expect(await login(port, '127.0.3.9', 'name-user')).toBe(401);
  });

  it('CASTER_FAILED_LOGINS_PER_IP=4: past four failures from an address, any name from it is refused', async () => {
    const from = '127.0.3.8';
    for (const name of ['ip-a', 'ip-b', 'ip-c', 'ip-d']) expect(await login(port, from, name)).toBe(401);
    expect(await login(port, from, 'ip-e')).toBe(429);
  });

  it('stops the start with a bad value, naming the variable', async () => {
    const refused = startServer({
      ...database.env,
      CASTER_PORT: '0',
      CASTER_FAILED_LOGINS_PER_IP: 'unlimited',
    });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain('CASTER_FAILED_LOGINS_PER_IP:');
    expect(refused.output()).not.toContain('NTRIP caster listening');
  });
});
