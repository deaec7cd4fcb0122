import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validFrames } from '@portal/caster';
import { encodeMember, HOUR_MS, type HourKey, localArchiveStore, readArchive } from '@portal/caster/archive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPushFeed } from '../src/cli/operator-actions.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import { createArchiveRepo, sweepArchive } from '../src/modules/archive/index.ts';
import { startTestCaster, TEST_FEED_KEY } from './support/caster.ts';
import { createTestDatabase } from './support/database.ts';

const silent = { info() {}, warn() {}, error() {} };
const capture = readFileSync(
  new URL('../../gnss/test/fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3', import.meta.url),
);

let handle: DatabaseHandle;
let dir: string;
let networkIds: { short: string; standard: string };

beforeAll(async () => {
  handle = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'archive-server-'));
  const db = handle.db;
  const [short, standard] = await db
    .insertInto('networks')
    .values([
      { slug: 'short', name: 'Short', archive_retention_days: 2, updated_at: new Date() },
      { slug: 'standard', name: 'Standard', updated_at: new Date() },
    ])
    .returning('id')
    .execute();
  networkIds = { short: short?.id ?? '', standard: standard?.id ?? '' };
  const station = (network_id: string, mountpoint: string) => ({
    network_id,
    mountpoint,
    country: 'JPN',
    latitude: 34.4,
    longitude: 132.5,
    updated_at: new Date(),
  });
  await db
    .insertInto('stations')
    .values([
      station(networkIds.standard, 'HIRO1'),
      station(networkIds.short, 'SHRT1'),
      station(networkIds.standard, 'STD1'),
    ])
    .execute();
});

afterAll(async () => {
  await handle?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const indexRow = (mountpoint: string, hour: number) =>
  handle.db
    .selectFrom('archive_hours')
    .selectAll()
    .where('mountpoint', '=', mountpoint)
    .where('hour', '=', new Date(hour))
    .executeTakeFirst();

describe('the archive index', () => {
  it('adds each report to its station and hour: counts summed, times widened, message types joined', async () => {
    const repo = createArchiveRepo(handle.db);
    const hour = Date.UTC(2026, 10, 24, 9);
    const at = (minute: number) => new Date(hour + minute * 60_000);
    const report = (minutes: [number, number], types: number[], frames: number) => ({
      mountpoint: 'STD1',
      hour: new Date(hour),
      bytes: frames * 100,
      frames,
      storedBytes: frames * 40,
      droppedFrames: 1,
      firstFrameAt: at(minutes[0]),
      lastFrameAt: at(minutes[1]),
      firstEpoch: at(minutes[0]),
      lastEpoch: at(minutes[1]),
      epochMinutes: [minutes[1], minutes[0]].filter((m, i, all) => all.indexOf(m) === i).sort((a, b) => a - b),
      messageTypes: types,
    });
    await repo.recordHours([report([10, 20], [1077, 1005], 5)]);
    await repo.recordHours([
      report([2, 8], [1087], 3),
      { ...report([0, 0], [], 0), mountpoint: 'GONE1', droppedFrames: 4, firstFrameAt: null, lastFrameAt: null },
    ]);

    const stationId = (await repo.station('std1'))?.id;
    expect(await indexRow('STD1', hour)).toMatchObject({
      station_id: stationId,
      bytes: 800,
      frames: 8,
      stored_bytes: 320,
      dropped_frames: 2,
      first_frame_at: at(2),
      last_frame_at: at(20),
      first_epoch: at(2),
      last_epoch: at(20),
      epoch_minutes: [2, 8, 10, 20],
      message_types: [1005, 1077, 1087],
    });
    // A mountpoint the catalogue does not know (a station deleted meanwhile) is indexed without a station.
    expect(await indexRow('GONE1', hour)).toMatchObject({ station_id: null, frames: 0, dropped_frames: 4 });
    expect((await repo.hoursOf(stationId as string, at(30), at(90))).map((r) => r.hour)).toEqual([new Date(hour)]);
    expect(await repo.hoursOf(stationId as string, at(60), at(120))).toEqual([]);
  });
});

describe('archiving through the running caster', () => {
  it('archives a capture a base station pushes, frame for frame, and indexes its hour', async () => {
    const store = localArchiveStore(join(dir, 'caster'), silent);
    // The capture arrives as if live: the archive's clock starts at the capture's own time.
    const recorded = Date.parse('2022-12-13T01:09:05Z');
    const started = Date.now();
    const service = await startTestCaster(handle.db, {
      archive: { store: store.spec, flushMs: 100, indexFlushMs: 100, clock: () => recorded + (Date.now() - started) },
    });
    await setPushFeed(handle.db, { mountpoint: 'HIRO1', password: 'hiro-source' }, TEST_FEED_KEY);
    const frames = validFrames(capture);
    const hour = Date.parse('2022-12-13T01:00:00Z');
    try {
      const source = net.connect({ port: service.port, host: '127.0.0.1' });
      source.on('error', () => {});
      source.write('SOURCE hiro-source /HIRO1\r\n\r\n');
      await new Promise((resolve) => source.once('data', resolve));
      source.write(capture);
      const deadline = Date.now() + 10_000;
      while (Number((await indexRow('HIRO1', hour))?.frames ?? 0) < frames.length) {
        if (Date.now() > deadline) throw new Error('the capture never reached the index');
        await new Promise((r) => setTimeout(r, 50));
      }
      source.destroy();
    } finally {
      await service.close();
    }
    const parts: Buffer[] = [];
    for await (const part of readArchive(store, 'HIRO1', hour, hour + HOUR_MS)) parts.push(part);
    expect(Buffer.concat(parts)).toEqual(Buffer.concat(frames));
    expect(await indexRow('HIRO1', hour)).toMatchObject({
      frames: frames.length,
      bytes: Buffer.concat(frames).length,
      dropped_frames: 0,
      first_epoch: new Date('2022-12-13T01:09:04Z'),
      last_epoch: new Date('2022-12-13T01:10:03Z'),
    });
    await store.close();
  });
});

describe('the retention sweeper', () => {
  it("deletes the hours past their network's retention, data and index row, and keeps the rest", async () => {
    const store = localArchiveStore(join(dir, 'sweep'), silent);
    const repo = createArchiveRepo(handle.db);
    // The other tests' rows are not this test's business.
    await handle.db.deleteFrom('archive_hours').execute();
    const now = new Date(Date.UTC(2026, 10, 24, 12, 30));
    const hoursAgo = (h: number) => Date.UTC(2026, 10, 24, 12) - h * HOUR_MS;
    const keys: Record<string, HourKey> = {
      // Network "short" keeps 2 days, "standard" the default 30, and so does a mountpoint the catalogue lost.
      shortOld: { mountpoint: 'SHRT1', hour: hoursAgo(49) },
      shortKept: { mountpoint: 'SHRT1', hour: hoursAgo(47) },
      standardOld: { mountpoint: 'STD1', hour: hoursAgo(30 * 24 + 1) },
      standardKept: { mountpoint: 'STD1', hour: hoursAgo(3 * 24) },
      // No index row: its report was lost in a crash.
      orphanOld: { mountpoint: 'LOST1', hour: hoursAgo(31 * 24) },
      orphanKept: { mountpoint: 'LOST1', hour: hoursAgo(29 * 24) },
    };
    for (const [name, key] of Object.entries(keys)) {
      await store.append(key, await encodeMember(Buffer.from(name)));
      if (!name.startsWith('orphan')) {
        await repo.recordHours([
          {
            mountpoint: key.mountpoint,
            hour: new Date(key.hour),
            bytes: 1,
            frames: 1,
            storedBytes: 1,
            droppedFrames: 0,
            firstFrameAt: null,
            lastFrameAt: null,
            firstEpoch: null,
            lastEpoch: null,
            epochMinutes: [],
            messageTypes: [],
          },
        ]);
      }
    }
    // An index row whose data this store never had (written while another store was configured).
    await repo.recordHours([
      {
        mountpoint: 'SHRT1',
        hour: new Date(hoursAgo(72)),
        bytes: 1,
        frames: 1,
        storedBytes: 1,
        droppedFrames: 0,
        firstFrameAt: null,
        lastFrameAt: null,
        firstEpoch: null,
        lastEpoch: null,
        epochMinutes: [],
        messageTypes: [],
      },
    ]);

    expect(await sweepArchive(store, repo, now)).toEqual({ sealed: 0, removed: 3, rows: 3 });

    const left: HourKey[] = [];
    for await (const key of store.list()) left.push(key);
    const sortKeys = (list: HourKey[]) =>
      list.map((k) => `${k.mountpoint} ${k.hour}`).sort((a, b) => a.localeCompare(b));
    expect(sortKeys(left)).toEqual(sortKeys([keys.shortKept, keys.standardKept, keys.orphanKept] as HourKey[]));
    const rows = await handle.db.selectFrom('archive_hours').select(['mountpoint', 'hour']).orderBy('hour').execute();
    expect(rows).toEqual([
      { mountpoint: 'STD1', hour: new Date(keys.standardKept?.hour as number) },
      { mountpoint: 'SHRT1', hour: new Date(keys.shortKept?.hour as number) },
    ]);
    await store.close();
  });
});
