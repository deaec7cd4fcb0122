import net from 'node:net';
import { encodeFrame } from '@portal/caster';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../caster/test/support/wait.ts';
import { setPushFeed } from '../src/cli/operator-actions.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import type { CasterService } from '../src/modules/ntrip/index.ts';
import { startTestCaster, TEST_FEED_KEY } from './support/caster.ts';
import { createTestDatabase } from './support/database.ts';

const STATUS_INTERVAL_MS = 200;

let handle: DatabaseHandle;
let service: CasterService;

const feedStatusOf = async (mountpoint: string) =>
  (
    await handle.db
      .selectFrom('feeds')
      .innerJoin('stations', 'stations.id', 'feeds.station_id')
      .select('feeds.status')
      .where('stations.mountpoint', '=', mountpoint)
      .executeTakeFirstOrThrow()
  ).status;

const statusOf = async (mountpoint: string) =>
  (
    await handle.db
      .selectFrom('stations')
      .select('status')
      .where('mountpoint', '=', mountpoint)
      .executeTakeFirstOrThrow()
  ).status;

beforeAll(async () => {
  handle = await createTestDatabase();
  const db = handle.db;
  const network = await db
    .insertInto('networks')
    .values({ slug: 'nl-rtk', name: 'NL RTK', updated_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const station = (mountpoint: string, reportedAt: Date | null, status: 'online' | 'offline' = 'online') => ({
    network_id: network.id,
    mountpoint,
    country: 'NLD',
    latitude: 52.37,
    longitude: 4.9,
    status,
    status_reported_at: reportedAt,
    updated_at: new Date(),
  });
  const stations = await db
    .insertInto('stations')
    .values([
      // What a caster that crashed a second ago left behind.
      station('LEFT', new Date(Date.now() - 1000)),
      // The demo seed's online stations: no caster reported them, so none expires them.
      station('SEED', null),
      station('FED', null, 'offline'),
      station('GONE', null),
    ])
    .returning(['id', 'mountpoint'])
    .execute();
  const stationId = (mountpoint: string) => stations.find((s) => s.mountpoint === mountpoint)?.id ?? '';
  // Pull feeds (only they have a status; disabled, so this caster does not dial out) as a caster left them.
  const pullFeed = (mountpoint: string, status: 'idle' | 'connected') => ({
    network_id: network.id,
    station_id: stationId(mountpoint),
    kind: 'pull' as const,
    enabled: false,
    upstream_host: 'upstream.example',
    upstream_port: 2101,
    upstream_mountpoint: mountpoint,
    upstream_ntrip_version: 2,
    status,
    updated_at: new Date(),
  });
  await db
    .insertInto('feeds')
    .values([pullFeed('LEFT', 'connected'), pullFeed('GONE', 'idle')])
    .execute();
  service = await startTestCaster(db, { limits: { statusIntervalMs: STATUS_INTERVAL_MS } });
});

afterAll(async () => {
  await service?.close();
  await handle?.close();
});

describe('station status after a caster crash', () => {
  it('a caster without a bus starts with the stations a previous caster left online offline and their feeds idle', async () => {
    expect(await statusOf('LEFT')).toBe('offline');
    expect(await feedStatusOf('LEFT')).toBe('idle');
    expect(await statusOf('SEED')).toBe('online');
  });

  it('turns offline a station whose caster stopped reporting, its feed idle, and keeps the ones fed here online', async () => {
    await setPushFeed(handle.db, { mountpoint: 'FED', password: 'source-password' }, TEST_FEED_KEY);
    const source = net.connect({ port: service.port, host: '127.0.0.1' });
    let frames: NodeJS.Timeout | undefined;
    try {
      source.on('error', () => {});
      source.write('SOURCE source-password /FED\r\n\r\n');
      // Online from data (issue 17): the base station sends a frame every 200 ms while the test runs.
      frames = setInterval(() => source.write(encodeFrame(Buffer.from([0x3e, 0xd0, 0]))), 200);
      await until(async () => (await statusOf('FED')) === 'online', 'FED to go online', 8000, 50);
      // What another node that crashed an hour ago left behind.
      await sql`
        WITH gone AS (
          UPDATE stations SET status_reported_at = now() - interval '1 hour' WHERE mountpoint = 'GONE' RETURNING id
        )
        UPDATE feeds SET status = 'connected' WHERE station_id IN (SELECT id FROM gone)`.execute(handle.db);

      await until(async () => (await statusOf('GONE')) === 'offline', 'GONE to go offline', 8000, 50);
      expect(await feedStatusOf('GONE')).toBe('idle');
      // Several more sweeps: the station fed here is confirmed each interval and never expires.
      await new Promise((r) => setTimeout(r, 4 * STATUS_INTERVAL_MS));
      expect(await statusOf('FED')).toBe('online');
      expect(await statusOf('SEED')).toBe('online');
    } finally {
      clearInterval(frames);
      source.destroy();
    }
  });
});
