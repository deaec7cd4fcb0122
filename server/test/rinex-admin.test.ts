import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdminRinexNetwork, AdminRinexStation } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArchiveRepo } from '../src/modules/archive/archive.repo.ts';
import { ledgerRows } from './ntrip-accounts/support.ts';
import { createNetwork, createStation, grantTokens } from './support/factories.ts';
import { tempDir } from './support/rinex.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

const H = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const thisHour = Math.floor(Date.now() / H) * H;
/** Two hours ago, fully archived at 1 Hz; the hour before it, its first 15 minutes. */
const full = thisHour - 2 * H;
const partial = thisHour - 3 * H;

let t: TestContext;
let dir: string;
let admin: TestUser;
let networkId: string;
let stationId: string;

beforeAll(async () => {
  dir = await tempDir('rinex-admin-');
  // No job is ever run here (concurrency 0): they stay queued, as behind a busy runner.
  t = await buildTestApp({ rinex: { resultsDir: join(dir, 'results'), concurrency: 0 } });
  admin = await t.buildAdmin();
  networkId = (await createNetwork(t.db, { price: 100 })).id;
  stationId = (
    await t.db
      .insertInto('stations')
      .values({
        network_id: networkId,
        mountpoint: 'BASE1',
        country: 'NLD',
        latitude: 52,
        longitude: 5,
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const report = (hour: number, minutes: number) => ({
    mountpoint: 'BASE1',
    hour: new Date(hour),
    bytes: minutes * 60 * 1000,
    frames: minutes * 60 * 4,
    storedBytes: minutes * 60 * 400,
    droppedFrames: 0,
    firstFrameAt: new Date(hour),
    lastFrameAt: new Date(hour + minutes * 60_000 - 1000),
    firstEpoch: new Date(hour),
    lastEpoch: new Date(hour + minutes * 60_000 - 1000),
    epochMinutes: Array.from({ length: minutes }, (_, m) => m),
    messageTypes: [1005, 1077],
  });
  await createArchiveRepo(t.db).recordHours([report(partial, 15), report(full, 60)]);
});

afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const window = { station: 'BASE1', from: iso(partial), to: iso(thisHour) };

describe('the running-job limit', () => {
  it('makes at most 3 jobs of concurrent requests and answers the rest 429 with a clear message', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 1000);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.app.inject({ method: 'POST', url: '/api/rinex/jobs', headers: user.headers, payload: window }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 429, 429]);
    const refused = answers.find((a) => a.statusCode === 429);
    expect(refused?.json()).toMatchObject({ code: 'too_many_rinex_jobs' });
    expect(refused?.json().message).toMatch(/3 RINEX jobs running/);
    // 100 tokens a day: 5 per station-hour, 2 hours with data (the current hour has none).
    expect((await ledgerRows(t.db, user.userId)).filter((r) => r.kind === 'rinex_spend')).toEqual(
      Array.from({ length: 3 }, (_, i) => ({ kind: 'rinex_spend', delta: -10, balance_after: 1000 - 10 * (i + 1) })),
    );
  });
});

describe('admin', () => {
  it('lists each network with its RINEX price, retention and archive size, and changes them', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/rinex/networks', headers: admin.headers });
    expect(list.statusCode).toBe(200);
    const network = (list.json().items as AdminRinexNetwork[]).find((n) => n.id === networkId);
    expect(network).toMatchObject({
      tokenPricePerDay: 100,
      rinexPricePerHour: null,
      effectivePricePerHour: 5,
      retentionDays: 30,
      stations: 1,
      archivedHours: 2,
      archivedBytes: 75 * 60 * 400,
    });
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/rinex/networks/${networkId}`,
      headers: admin.headers,
      payload: { rinexPricePerHour: 3, retentionDays: 90 },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ rinexPricePerHour: 3, effectivePricePerHour: 3, retentionDays: 90 });
    const user = await t.buildUser();
    const offer = await t.app.inject({
      method: 'GET',
      url: `/api/rinex/availability?${new URLSearchParams(window)}`,
      headers: user.headers,
    });
    expect(offer.json()).toMatchObject({ pricePerHour: 3, price: 6, hoursWithData: 2 });
    expect(offer.json().hours.map((h: { status: string; percent: number }) => [h.status, h.percent])).toEqual([
      ['partial', 25],
      ['full', 100],
      ['none', 0],
    ]);

    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/rinex/networks/${networkId}`,
      headers: admin.headers,
      payload: { retentionDays: 0 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'retentionDays' });
    const back = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/rinex/networks/${networkId}`,
      headers: admin.headers,
      payload: { rinexPricePerHour: null },
    });
    expect(back.json()).toMatchObject({ rinexPricePerHour: null, effectivePricePerHour: 5, retentionDays: 90 });
  });

  it("shows each station's coverage over the last 30 days hour by hour, and its size", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/rinex/stations?network=${networkId}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const [station] = res.json().items as AdminRinexStation[];
    expect(station).toMatchObject({ id: stationId, mountpoint: 'BASE1', archivedHours: 2, bytes: 75 * 60 * 1000 });
    expect(station?.coverage).toHaveLength(30 * 24);
    const at = (hour: number) => (hour - Date.parse(station?.coverageFrom ?? '')) / H;
    expect(station?.coverage[at(partial)]).toBe(25);
    expect(station?.coverage[at(full)]).toBe(100);
    expect(station?.coverage.filter((p) => p > 0)).toHaveLength(2);
  });

  it('answers the archive totals and the jobs by state', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/rinex/totals', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      stations: 1,
      hours: 2,
      bytes: 75 * 60 * 1000,
      storedBytes: 75 * 60 * 400,
      oldestHour: iso(partial),
      newestHour: iso(full),
      jobs: { queued: 3, running: 0, done: 0 },
    });
  });

  it('is for admins only', async () => {
    const user = await t.buildUser();
    for (const url of [
      '/api/admin/rinex/networks',
      '/api/admin/rinex/totals',
      `/api/admin/rinex/stations?network=${networkId}`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url, headers: user.headers })).statusCode).toBe(403);
    }
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/rinex/networks/${networkId}`,
      headers: user.headers,
      payload: { rinexPricePerHour: 0 },
    });
    expect(patch.statusCode).toBe(403);
  });
});

describe('availability of a replayed hour', () => {
  it('is not a full hour when 6 minutes of data have epochs before and after the hour, and is not sold', async () => {
    const other = (await createNetwork(t.db, { price: 100 })).id;
    await createStation(t.db, other, 'REPL1');
    const hour = thisHour - 5 * H;
    // A replay filed under the hour it arrived in: 6 minutes of frames whose epochs lie an hour before and after it.
    // The archive writer finds no epoch in the hour (caster/test/archive.test.ts), so no minute is indexed.
    await createArchiveRepo(t.db).recordHours([
      {
        mountpoint: 'REPL1',
        hour: new Date(hour),
        bytes: 6 * 60 * 1000,
        frames: 6 * 60 * 4,
        storedBytes: 6 * 60 * 400,
        droppedFrames: 0,
        firstFrameAt: new Date(hour + 10 * 60_000),
        lastFrameAt: new Date(hour + 16 * 60_000),
        firstEpoch: new Date(hour - 50 * 60_000),
        lastEpoch: new Date(hour + 70 * 60_000),
        epochMinutes: [],
        messageTypes: [1005, 1077],
      },
    ]);
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 100);
    const replayed = { station: 'REPL1', from: iso(hour), to: iso(hour + H) };
    const offer = await t.app.inject({
      method: 'GET',
      url: `/api/rinex/availability?${new URLSearchParams(replayed)}`,
      headers: user.headers,
    });
    expect(offer.statusCode).toBe(200);
    expect(offer.json().hours).toEqual([expect.objectContaining({ status: 'none', percent: 0 })]);
    expect(offer.json()).toMatchObject({ hoursWithData: 0, price: 0 });
    const job = await t.app.inject({
      method: 'POST',
      url: '/api/rinex/jobs',
      headers: user.headers,
      payload: replayed,
    });
    expect(job.statusCode).toBe(409);
    expect(job.json()).toMatchObject({ code: 'no_data_in_window' });
    expect(await ledgerRows(t.db, user.userId)).toHaveLength(1);
  });
});

describe('OpenAPI', () => {
  it('documents the RINEX calls', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = Object.keys(res.json().paths);
    for (const path of [
      '/api/rinex/availability',
      '/api/rinex/stations/nearest',
      '/api/rinex/jobs',
      '/api/rinex/jobs/{id}',
      '/api/rinex/jobs/{id}/download',
      '/api/admin/rinex/networks/{id}',
    ]) {
      expect(paths).toContain(path);
    }
  });
});
