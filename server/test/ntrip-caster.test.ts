import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { encodeFrame } from '@portal/caster';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../caster/test/support/wait.ts';
import { createAccountWithGrant, OperatorError, setPushFeed } from '../src/cli/operator-actions.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import { createCatalogueRepo } from '../src/modules/catalogue/catalogue.repo.ts';
import { createFeedCipher } from '../src/modules/catalogue/feed-secrets.ts';
import { createFeedsService } from '../src/modules/catalogue/feeds.service.ts';
import type { CasterService } from '../src/modules/ntrip/index.ts';
import { createCasterPorts } from '../src/modules/ntrip/ntrip.ports.ts';
import { createNtripRepo } from '../src/modules/ntrip/ntrip.repo.ts';
import { createUsersRepo } from '../src/modules/users/users.repo.ts';
import { startTestCaster, TEST_FEED_KEY, TEST_PUBLIC_URL } from './support/caster.ts';
import { createTestDatabase } from './support/database.ts';

let handle: DatabaseHandle;
let service: CasterService;
let networkId: string;
let ownerId: string;

/** Sends a request head and collects the answer until the caster closes or `until` holds. */
function exchange(request: string, until?: (text: string) => boolean) {
  const socket = net.connect({ port: service.port, host: '127.0.0.1' });
  const state = { text: '', socket };
  return new Promise<typeof state>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer; got ${JSON.stringify(state.text)}`)), 8000);
    const done = () => {
      clearTimeout(timer);
      resolve(state);
    };
    socket.on('connect', () => socket.write(request));
    socket.on('data', (d) => {
      state.text += d.toString('latin1');
      if (until?.(state.text)) done();
    });
    socket.on('close', done);
    socket.on('error', () => {});
  });
}

const rover = (mountpoint: string, user: string, password: string) =>
  `GET /${mountpoint} HTTP/1.1\r\nNtrip-Version: Ntrip/2.0\r\nAuthorization: Basic ${Buffer.from(`${user}:${password}`).toString('base64')}\r\n\r\n`;

beforeAll(async () => {
  handle = await createTestDatabase();
  const db = handle.db;
  const user = await createUsersRepo(db).upsertFromIdentity({ uid: randomUUID(), email: 'rover@example.test' });
  ownerId = user.id;
  const network = await db
    .insertInto('networks')
    .values({ slug: 'nl-rtk', name: 'NL RTK', updated_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  networkId = network.id;
  const other = await db
    .insertInto('networks')
    .values({ slug: 'de-rtk', name: 'DE RTK', updated_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('stations')
    .values([
      {
        network_id: networkId,
        mountpoint: 'AMS1',
        country: 'NLD',
        latitude: 52.37,
        longitude: 4.9,
        updated_at: new Date(),
      },
      {
        network_id: other.id,
        mountpoint: 'BER1',
        country: 'DEU',
        latitude: 52.52,
        longitude: 13.4,
        updated_at: new Date(),
      },
    ])
    .execute();
  service = await startTestCaster(db, {
    authEpochPollMs: 50,
    limits: { sessionFlushMs: 60_000, accessRecheckMs: 300 },
  });
});

afterAll(async () => {
  await service?.close();
  await handle?.close();
});

describe('caster on the portal database', () => {
  it('lets an account made by the operator command receive a push feed made by the operator command', async () => {
    const account = await createAccountWithGrant(handle.db, {
      email: 'rover@example.test',
      username: 'rover-one',
      password: 'rover-password',
      network: 'nl-rtk',
      days: 30,
    });
    expect(account.nearMountpoint).toBe('NL-RTK_NEAR');
    const feed = await setPushFeed(handle.db, { mountpoint: 'ams1', password: 'source-password' }, TEST_FEED_KEY);
    expect(feed).toMatchObject({ mountpoint: 'AMS1', created: true });

    const badSource = await exchange('SOURCE wrong-password /AMS1\r\n\r\n');
    expect(badSource.text).toBe('ERROR - Bad Password\r\n');
    const source = await exchange('SOURCE source-password /AMS1\r\n\r\n', (t) => t.includes('\r\n\r\n'));
    expect(source.text).toBe('ICY 200 OK\r\n\r\n');

    const frame = encodeFrame(Buffer.from([0x3e, 0xd0, 1, 2, 3, 4]));
    const chunk = `${frame.length.toString(16)}\r\n${frame.toString('latin1')}\r\n`;
    const got = await exchange(rover('AMS1', 'rover-one', 'rover-password'), (t) => t.includes('\r\n\r\n'));
    expect(got.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    source.socket.write(frame);
    await until(() => got.text.endsWith(chunk), 'the frame as one chunk', 8000);
    got.socket.destroy();
    source.socket.destroy();

    await expect(
      createAccountWithGrant(handle.db, {
        email: 'rover@example.test',
        username: 'ROVER-ONE',
        password: 'another-password',
        network: 'nl-rtk',
        days: 1,
      }),
    ).rejects.toThrow(OperatorError);
  });

  it('answers 403 for a network without a grant and for a disabled account, seeing changes made by others', async () => {
    await createAccountWithGrant(handle.db, {
      email: 'rover@example.test',
      username: 'rover-two',
      password: 'rover-password',
      network: 'nl-rtk',
      days: 1,
    });
    expect((await exchange(rover('BER1', 'rover-two', 'rover-password'))).text).toMatch(/^HTTP\/1\.1 403 /);
    expect((await exchange(rover('AMS1', 'rover-two', 'wrong'))).text).toMatch(/^HTTP\/1\.1 401 /);
    const ok = await exchange(rover('AMS1', 'rover-two', 'rover-password'), (t) => t.includes('\r\n\r\n'));
    expect(ok.text).toMatch(/^HTTP\/1\.1 200 OK/);
    ok.socket.destroy();

    // Another module (the accounts API) disables the account in its own statement: the cached decision must go.
    await sql`UPDATE ntrip_accounts SET enabled = false WHERE username = 'rover-two'`.execute(handle.db);
    await new Promise((r) => setTimeout(r, 300));
    expect((await exchange(rover('AMS1', 'rover-two', 'rover-password'))).text).toMatch(
      /^HTTP\/1\.1 403 [\s\S]*disabled/,
    );
  });

  it('serves a subscription grant (account_id NULL) to every account of the owner and stops at ended_at', async () => {
    await createAccountWithGrant(handle.db, {
      email: 'rover@example.test',
      username: 'rover-three',
      password: 'rover-password',
      network: 'nl-rtk',
      days: 1,
    });
    await sql`UPDATE access_grants SET ended_at = now() WHERE reference_id = 'cli'`.execute(handle.db);
    await new Promise((r) => setTimeout(r, 300));
    expect((await exchange(rover('AMS1', 'rover-three', 'rover-password'))).text).toMatch(/^HTTP\/1\.1 403 /);
    const now = Date.now();
    await handle.db
      .insertInto('access_grants')
      .values({
        account_id: null,
        owner_user_id: ownerId,
        network_id: networkId,
        valid_from: new Date(now - 1000),
        valid_until: new Date(now + 86_400_000),
        source: 'subscription',
        reference_id: randomUUID(),
      })
      .execute();
    await new Promise((r) => setTimeout(r, 300));
    const ok = await exchange(rover('AMS1', 'rover-three', 'rover-password'), (t) => t.includes('\r\n\r\n'));
    expect(ok.text).toMatch(/^HTTP\/1\.1 200 OK/);
    ok.socket.destroy();
  });

  it('closes a connected rover once billing ends its grant, and tells a login when its access ends', async () => {
    // An owner of its own: the owner above holds an all-accounts subscription grant from the test before.
    await createUsersRepo(handle.db).upsertFromIdentity({ uid: randomUUID(), email: 'rover-five@example.test' });
    const account = await createAccountWithGrant(handle.db, {
      email: 'rover-five@example.test',
      username: 'rover-five',
      password: 'rover-password',
      network: 'nl-rtk',
      days: 2,
    });
    const decision = await service.authorizer.authorize('rover-five', 'rover-password', 'NL-RTK_NEAR', new Date());
    expect(decision).toMatchObject({ allowed: true, until: account.validUntil });

    const connected = exchange(rover('AMS1', 'rover-five', 'rover-password'));
    await until(() => service.caster.connectionsByAccount([account.accountId]).size === 1, 'the rover', 8000);
    await sql`UPDATE access_grants SET ended_at = now() WHERE account_id = ${account.accountId}`.execute(handle.db);
    const closed = await connected;
    expect(closed.text).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(service.caster.connectionsByAccount([account.accountId]).size).toBe(0);
  });

  it('checks a password once for a burst of identical logins', async () => {
    const before = service.authorizer.verifications;
    const attempts = await Promise.all(
      Array.from({ length: 20 }, () =>
        service.authorizer.authorize('rover-three', 'rover-password', 'AMS1', new Date()),
      ),
    );
    expect(attempts.every((a) => a.allowed)).toBe(true);
    expect(service.authorizer.verifications - before).toBeLessThanOrEqual(1);
  });

  it('hands the caster pull feeds with their upstream password decrypted and takes their status back', async () => {
    const station = await handle.db
      .insertInto('stations')
      .values({
        network_id: networkId,
        mountpoint: 'PULL1',
        country: 'NLD',
        latitude: 52,
        longitude: 5,
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const feeds = createFeedsService({ repo: createCatalogueRepo(handle.db), cipher: createFeedCipher(TEST_FEED_KEY) });
    await feeds.createFeed({
      kind: 'pull',
      stationId: station.id,
      enabled: true,
      upstreamHost: '127.0.0.1',
      upstreamPort: 2102,
      upstreamMountpoint: 'UPSTREAM',
      upstreamUsername: 'relay',
      upstreamPassword: 'relay-secret',
      upstreamNtripVersion: 1,
    });
    const ports = createCasterPorts({
      repo: createNtripRepo(handle.db),
      authorizer: service.authorizer,
      feedSecretKey: TEST_FEED_KEY,
      publicUrl: TEST_PUBLIC_URL,
    });
    expect(await ports.catalogue.pullFeeds()).toEqual([
      {
        mountpoint: 'PULL1',
        host: '127.0.0.1',
        port: 2102,
        upstreamMountpoint: 'UPSTREAM',
        username: 'relay',
        password: 'relay-secret',
        ntripVersion: 1,
      },
    ]);
    await ports.usage.feedStatus({ mountpoint: 'pull1', status: 'error', lastError: 'connect ECONNREFUSED' });
    const feed = await handle.db
      .selectFrom('feeds')
      .select(['status', 'last_error'])
      .where('station_id', '=', station.id)
      .executeTakeFirstOrThrow();
    expect(feed).toEqual({ status: 'error', last_error: 'connect ECONNREFUSED' });
  });

  it('writes the connection log in a batch and the station status', async () => {
    await service.close();
    const sessions = await handle.db.selectFrom('ntrip_sessions').selectAll().orderBy('id').execute();
    expect(sessions.length).toBeGreaterThanOrEqual(3);
    const first = sessions[0];
    expect(first).toMatchObject({ mountpoint: 'AMS1', remote_address: '127.0.0.1', end_reason: 'client_closed' });
    expect(Number(first?.bytes_sent)).toBeGreaterThan(0);
    const station = await handle.db
      .selectFrom('stations')
      .select(['status', 'last_data_at'])
      .where('mountpoint', '=', 'AMS1')
      .executeTakeFirstOrThrow();
    expect(station.status).toBe('offline');
    expect(station.last_data_at).not.toBeNull();
  });
});
