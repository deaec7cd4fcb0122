import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validFrames } from '@portal/caster';
import { runCli } from '@portal/gnss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForOperators } from '../src/cli/control-socket.ts';
import { setPushFeed } from '../src/cli/operator-actions.ts';
import { runArchiveCommand } from '../src/cli/rinex-archive.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { openArchiveStore } from '../src/modules/archive/index.ts';
import { startTestCaster, TEST_FEED_KEY } from './support/caster.ts';
import { createTestDatabase, testDatabaseKind } from './support/database.ts';

const capturePath = fileURLToPath(
  new URL('../../gnss/test/fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3', import.meta.url),
);
const silent = { info() {}, warn() {}, error() {} };

let dir: string;
let handle: DatabaseHandle;
let config: Config;
const closers: Array<() => Promise<unknown>> = [];

/**
 * The portal's database as the CLI finds it: PostgreSQL by its address, or a PGlite directory this process owns and
 * answers operator commands for, as the running portal does (the CLI cannot open it and asks over the socket).
 */
async function portalDatabase(): Promise<{ handle: DatabaseHandle; env: Record<string, string> }> {
  if (testDatabaseKind() === 'postgres') {
    const created = await createTestDatabase('postgres');
    return { handle: created, env: { DATABASE_URL: created.url as string } };
  }
  const dataDir = join(dir, 'db');
  const opened = await openDatabase({ pgliteDataDir: dataDir });
  await migrate(opened.db);
  const env = { PGLITE_DATA_DIR: dataDir };
  const stopListening = await listenForOperators(opened.db, loadConfig(env), dataDir);
  return {
    handle: {
      ...opened,
      close: async () => {
        await stopListening();
        await opened.close();
      },
    },
    env,
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rinex-archive-'));
  const portal = await portalDatabase();
  handle = portal.handle;
  config = loadConfig({ ...portal.env, ARCHIVE_STORE: 'local', ARCHIVE_DIR: join(dir, 'archive') });
  const network = await handle.db
    .insertInto('networks')
    .values({ slug: 'chugoku', name: 'Chugoku', updated_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await handle.db
    .insertInto('stations')
    .values({
      network_id: network.id,
      mountpoint: 'HIRO1',
      country: 'JPN',
      latitude: 34.4,
      longitude: 132.5,
      updated_at: new Date(),
    })
    .execute();
  await setPushFeed(handle.db, { mountpoint: 'HIRO1', password: 'hiro-source' }, TEST_FEED_KEY);

  // The capture is pushed through the running caster as its base station sent it live: the archive's clock starts
  // at the capture's own time, so its frames are filed in the hour they were recorded in.
  const store = await openArchiveStore(config, silent);
  if (!store) throw new Error('archive store not configured');
  const recorded = Date.parse('2022-12-13T01:09:05Z');
  const started = Date.now();
  const service = await startTestCaster(handle.db, {
    archive: { store: store.spec, flushMs: 100, indexFlushMs: 100, clock: () => recorded + (Date.now() - started) },
  });
  const capture = await readFile(capturePath);
  const frames = validFrames(capture).length;
  try {
    const source = net.connect({ port: service.port, host: '127.0.0.1' });
    source.on('error', () => {});
    source.write('SOURCE hiro-source /HIRO1\r\n\r\n');
    await new Promise((resolve) => source.once('data', resolve));
    source.write(capture);
    const deadline = Date.now() + 15_000;
    for (;;) {
      const row = await handle.db.selectFrom('archive_hours').select('frames').executeTakeFirst();
      if (Number(row?.frames ?? 0) >= frames) break;
      if (Date.now() > deadline) throw new Error('the capture never reached the archive index');
      await new Promise((r) => setTimeout(r, 50));
    }
    source.destroy();
  } finally {
    await service.close();
    await store.close();
  }
}, 60_000);

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await handle?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function archiveCommand(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runArchiveCommand(args, { config, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

/** A RINEX file without its PGM / RUN BY / DATE line, which carries the time the file was made. */
async function rinexBody(path: string) {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => !line.trimEnd().endsWith('PGM / RUN BY / DATE'))
    .join('\n');
}

describe('rinex archive', () => {
  it('gives the same observation and navigation files as converting the pushed capture directly', async () => {
    const archived = join(dir, 'from-archive');
    const window = ['--from', '2022-12-13T01:09:00Z', '--to', '2022-12-13T01:11:00Z'];
    const result = await archiveCommand(['--station', 'hiro1', ...window, '--out', archived]);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    const files = (await readdir(archived)).sort();
    expect(files).toEqual(['HIRO00JPN_S_20223470109_02M_01S_MO.rnx', 'HIRO00JPN_S_20223470109_02M_MN.rnx']);
    expect(result.out[0]).toMatch(/: 60 epochs, 2022-12-13 01:09:22\.000 GPST to 2022-12-13 01:10:21\.000 GPST$/);

    // The capture converted directly, its week fixed by the archive's hour as the archive's conversion does.
    const direct = join(dir, 'direct');
    await mkdir(direct);
    const problems: string[] = [];
    const code = await runCli(
      [
        'convert',
        capturePath,
        '--time',
        '2022-12-13T01:00:00Z',
        ...window,
        '--marker',
        'HIRO1',
        '--obs',
        join(direct, 'direct.obs'),
        '--nav',
        join(direct, 'direct.nav'),
      ],
      () => {},
      (line) => problems.push(line),
    );
    expect(problems).toEqual([]);
    expect(code).toBe(0);
    expect(await rinexBody(join(archived, files[0] as string))).toEqual(await rinexBody(join(direct, 'direct.obs')));
    expect(await rinexBody(join(archived, files[1] as string))).toEqual(await rinexBody(join(direct, 'direct.nav')));
  });

  it('refuses an unknown station and a window without archived data, writing nothing', async () => {
    const out = join(dir, 'refused');
    const unknown = await archiveCommand([
      '--station',
      'NOPE1',
      '--from',
      '2022-12-13T01:00:00Z',
      '--to',
      '2022-12-13T02:00:00Z',
      '--out',
      out,
    ]);
    expect(unknown).toMatchObject({ code: 1, err: ["rinex: No station with mountpoint 'NOPE1' in the catalogue."] });
    const empty = await archiveCommand([
      '--station',
      'HIRO1',
      '--from',
      '2022-12-14T01:00:00Z',
      '--to',
      '2022-12-14T02:00:00Z',
      '--out',
      out,
    ]);
    expect(empty).toMatchObject({
      code: 1,
      err: ['rinex: the archive has no data of HIRO1 from 2022-12-14T01:00:00.000Z to 2022-12-14T02:00:00.000Z'],
    });
    expect(await readdir(out)).toEqual([]);
    const usage = await archiveCommand(['--station', 'HIRO1', '--from', 'yesterday', '--to', 'now', '--out', out]);
    expect(usage.code).toBe(2);
    expect(usage.err[0]).toMatch(/^rinex: --from: "yesterday" is not an ISO 8601 time with a zone/);
  });
});
