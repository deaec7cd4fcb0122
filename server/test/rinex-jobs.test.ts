import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveStore } from '@portal/caster/archive';
import type { RinexAvailability, RinexJob } from '@portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerRows } from './ntrip-accounts/support.ts';
import { createNetwork, grantTokens } from './support/factories.ts';
import {
  capturePosition,
  HIROSHIMA,
  HIROSHIMA_ARRIVAL,
  HIROSHIMA_EPOCHS,
  HIROSHIMA_HOUR,
  pushCaptureThroughCaster,
  readObservationFile,
  tempDir,
  testArchiveStore,
  unzip,
} from './support/rinex.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

const H = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** Three hours around the capture's: only the middle one holds data. */
const WINDOW = { station: 'HIRO1', from: iso(HIROSHIMA_HOUR - H), to: iso(HIROSHIMA_HOUR + 2 * H) };

let t: TestContext;
let dir: string;
let store: ArchiveStore;
let admin: TestUser;
let networkId: string;
/** Added to the service's clock: moves "now" past a link's expiry. */
let shift = 0;

beforeAll(async () => {
  dir = await tempDir('rinex-jobs-');
  store = testArchiveStore(join(dir, 'archive'));
  t = await buildTestApp({
    rinex: {
      store,
      resultsDir: join(dir, 'results'),
      workDir: join(dir, 'work'),
      pollMs: 100,
      clock: () => new Date(Date.now() + shift),
    },
  });
  admin = await t.buildAdmin();
  // 48 tokens a day: the default RINEX price is 2 tokens per station-hour.
  networkId = (await createNetwork(t.db, { price: 48 })).id;
  await t.db
    .updateTable('networks')
    .set({
      reference_frame: JSON.stringify({ frame: 'ITRF', realisation: 'ITRF2014', epoch: null, nationalGrid: 'JGD2011' }),
    })
    .where('id', '=', networkId)
    .execute();
  await t.db
    .insertInto('stations')
    .values({
      network_id: networkId,
      mountpoint: 'HIRO1',
      identifier: 'Hiroshima',
      country: 'JPN',
      latitude: 34.4,
      longitude: 132.5,
      updated_at: new Date(),
    })
    .execute();
  await pushCaptureThroughCaster(t.db, store, {
    mountpoint: 'HIRO1',
    capture: HIROSHIMA,
    arrival: HIROSHIMA_ARRIVAL,
    hour: HIROSHIMA_HOUR,
  });
});

afterAll(async () => {
  await t?.close();
  await store?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const availability = (user: TestUser, query: Record<string, string> = WINDOW) =>
  t.app.inject({
    method: 'GET',
    url: `/api/rinex/availability?${new URLSearchParams(query)}`,
    headers: user.headers,
  });

const createJob = (user: TestUser, body: Record<string, unknown> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/rinex/jobs',
    headers: user.headers,
    payload: { ...WINDOW, interval: 1, systems: ['G', 'R', 'E', 'C', 'J', 'I'], ...body },
  });

async function finished(user: TestUser, id: string): Promise<RinexJob> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await t.app.inject({ method: 'GET', url: `/api/rinex/jobs/${id}`, headers: user.headers });
    const job = res.json() as RinexJob;
    if (job.status !== 'queued' && job.status !== 'running') return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function jobCount(): Promise<number> {
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM rinex_jobs`.execute(t.db);
  return r.rows[0]?.n ?? 0;
}

describe('availability', () => {
  it('shows per hour what the archive holds after a capture was pushed through the caster, and the price', async () => {
    const user = await t.buildUser();
    const res = await availability(user);
    expect(res.statusCode).toBe(200);
    const body = res.json() as RinexAvailability;
    expect(body.station).toMatchObject({ mountpoint: 'HIRO1', networkId });
    // 01:09:04 to 01:10:03 UTC: epochs in 2 of the hour's 60 minutes.
    expect(body.hours.map((h) => [h.start, h.status, h.percent])).toEqual([
      [iso(HIROSHIMA_HOUR - H), 'none', 0],
      [iso(HIROSHIMA_HOUR), 'partial', 3],
      [iso(HIROSHIMA_HOUR + H), 'none', 0],
    ]);
    expect(body.hours[1]?.bytes).toBeGreaterThan(100_000);
    expect(body).toMatchObject({ hoursWithData: 1, charge: 'tokens', pricePerHour: 2, price: 2 });
  });

  it('needs a login, and a station that exists', async () => {
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/rinex/availability?${new URLSearchParams(WINDOW)}`,
    });
    expect(anonymous.statusCode).toBe(401);
    const user = await t.buildUser();
    const unknown = await availability(user, { ...WINDOW, station: 'NOPE1' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('the stations nearest a position', () => {
  it('answers the nearest first with its distance', async () => {
    const user = await t.buildUser();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/rinex/stations/nearest?lat=34.5&lon=132.5',
      headers: user.headers,
    });
    expect(res.statusCode).toBe(200);
    const [first] = res.json().items;
    expect(first).toMatchObject({ mountpoint: 'HIRO1' });
    expect(first.distanceKm).toBeCloseTo(11.1, 0);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/rinex/stations/nearest?lat=95&lon=0',
      headers: user.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', field: 'lat' });
  });
});

describe('a bad window', () => {
  it.each([
    [
      'ends before it starts',
      { from: iso(HIROSHIMA_HOUR + H), to: iso(HIROSHIMA_HOUR) },
      'window_end_before_start',
      'to',
    ],
    [
      'is longer than 24 hours',
      { from: iso(HIROSHIMA_HOUR), to: iso(HIROSHIMA_HOUR + 25 * H) },
      'window_too_long',
      'to',
    ],
    [
      'is in the future',
      { from: iso(Math.ceil(Date.now() / H) * H + H), to: iso(Math.ceil(Date.now() / H) * H + 2 * H) },
      'window_in_future',
      'from',
    ],
    [
      'is not whole hours',
      { from: iso(HIROSHIMA_HOUR + 60_000), to: iso(HIROSHIMA_HOUR + H) },
      'window_not_whole_hours',
      'from',
    ],
  ])('that %s is answered 400 with the field, and nothing is made or charged', async (_, window, code, field) => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const before = await jobCount();
    const res = await createJob(user, window);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code, field });
    expect(await jobCount()).toBe(before);
    expect(await ledgerRows(t.db, user.userId)).toEqual([{ kind: 'admin_grant', delta: 50, balance_after: 50 }]);
  });

  it('more than 24 hours is refused by availability as well', async () => {
    const user = await t.buildUser();
    const res = await availability(user, { ...WINDOW, to: iso(HIROSHIMA_HOUR + 30 * H) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'window_too_long', field: 'to' });
  });
});

describe('buying and downloading a job', () => {
  let owner: TestUser;
  let job: RinexJob;

  beforeAll(async () => {
    owner = await t.buildUser();
    await grantTokens(t, admin, owner, 10);
    const res = await createJob(owner);
    expect(res.statusCode).toBe(201);
    job = res.json();
  });

  it('charges one ledger entry for the hours with data only, in the same step that makes the job', async () => {
    expect(job).toMatchObject({ hoursTotal: 3, hoursWithData: 1, charge: 'tokens', tokensCharged: 2 });
    expect(await ledgerRows(t.db, owner.userId)).toEqual([
      { kind: 'admin_grant', delta: 10, balance_after: 10 },
      { kind: 'rinex_spend', delta: -2, balance_after: 8 },
    ]);
  });

  it('converts in the background and reports progress to the end', async () => {
    const done = await finished(owner, job.id);
    expect(done).toMatchObject({ status: 'done', progress: 1, error: null });
    expect(done.result).toMatchObject({ epochs: HIROSHIMA_EPOCHS });
    expect(done.result?.fileName).toMatch(/^HIRO00JPN_R_20223470000_03H_01S_MO\.zip$/);
    expect(done.downloadUrl).toMatch(new RegExp(`/api/rinex/jobs/${job.id}/download\\?expires=\\d+&signature=`));
    const list = await t.app.inject({ method: 'GET', url: '/api/rinex/jobs', headers: owner.headers });
    expect(list.json().items.map((j: RinexJob) => j.id)).toEqual([job.id]);
  });

  it('queues one "download ready" mail to the owner with the job that is done (issue 21)', async () => {
    await finished(owner, job.id);
    const mails = await t.db
      .selectFrom('mail_outbox')
      .select(['recipient', 'subject', 'text_body'])
      .where('kind', '=', 'rinex_ready')
      .where('user_id', '=', owner.userId)
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ recipient: owner.email, subject: 'RINEX of HIRO1 is ready' });
    expect(mails[0]?.text_body).toContain('/rinex');
  });

  it("streams a zip of the observation and navigation files under RINEX 3 long names and the station's README", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/rinex/jobs/${job.id}/download`,
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = await unzip(res.rawPayload);
    expect([...files.keys()].sort()).toEqual([
      'HIRO00JPN_R_20223470000_03H_01S_MO.rnx',
      'HIRO00JPN_R_20223470000_03H_MN.rnx',
      'README.txt',
    ]);
    const obs = readObservationFile(files.get('HIRO00JPN_R_20223470000_03H_01S_MO.rnx')?.toString() ?? '');
    expect(obs.header.get('MARKER NAME')?.trim()).toBe('HIRO1');
    expect(obs.epochs).toBe(HIROSHIMA_EPOCHS);
    const xyz = (obs.header.get('APPROX POSITION XYZ') ?? '').trim().split(/\s+/).map(Number);
    const arp = capturePosition(HIROSHIMA);
    expect(Math.hypot(...xyz.map((v, i) => v - (arp[i] as number)))).toBeLessThan(1);
    const nav = files.get('HIRO00JPN_R_20223470000_03H_MN.rnx')?.toString() ?? '';
    expect(nav.split('\n')[0]).toMatch(/N: GNSS NAV DATA.*RINEX VERSION \/ TYPE/);
    const readme = files.get('README.txt')?.toString() ?? '';
    expect(readme).toContain('HIRO1');
    expect(readme).toMatch(/Network:\s+Network net-/);
    expect(readme).toMatch(/ITRF/);
    expect(readme).toMatch(
      /Reference frame:\s+ITRF \(ITRF2014\), related to JGD2011: the frame of the network's corrections/,
    );
  });

  it('downloads with the signed link and no token', async () => {
    const done = await finished(owner, job.id);
    const url = new URL(done.downloadUrl ?? '');
    const res = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(res.statusCode).toBe(200);
    expect((await unzip(res.rawPayload)).size).toBe(3);
  });

  it("is the owner's only: 401 without a token, 403 for another user, 404 for a made-up id", async () => {
    const other = await t.buildUser();
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/rinex/jobs/${job.id}/download` });
    expect(anonymous.statusCode).toBe(401);
    const stranger = await t.app.inject({
      method: 'GET',
      url: `/api/rinex/jobs/${job.id}/download`,
      headers: other.headers,
    });
    expect(stranger.statusCode).toBe(403);
    const peek = await t.app.inject({ method: 'GET', url: `/api/rinex/jobs/${job.id}`, headers: other.headers });
    expect(peek.statusCode).toBe(403);
    const madeUp = await t.app.inject({
      method: 'GET',
      url: '/api/rinex/jobs/8c0a3f5e-3f0e-4d8e-9d55-1b1f3e0c9a10/download',
      headers: owner.headers,
    });
    expect(madeUp.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/rinex/jobs', headers: other.headers })).json().items,
    ).toEqual([]);
  });

  it('refuses a link whose signature was changed, or that has expired', async () => {
    const done = await finished(owner, job.id);
    const url = new URL(done.downloadUrl ?? '');
    const forged = new URL(url);
    forged.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 86_400));
    const tampered = await t.app.inject({ method: 'GET', url: `${forged.pathname}${forged.search}` });
    expect(tampered.statusCode).toBe(403);
    expect(tampered.json()).toMatchObject({ code: 'link_invalid' });
    shift = 8 * 86_400_000;
    try {
      const expired = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      expect(expired.statusCode).toBe(403);
      expect(expired.json()).toMatchObject({ code: 'link_expired' });
      const owners = await t.app.inject({
        method: 'GET',
        url: `/api/rinex/jobs/${job.id}/download`,
        headers: owner.headers,
      });
      expect(owners.statusCode).toBe(410);
      const listed = await t.app.inject({ method: 'GET', url: `/api/rinex/jobs/${job.id}`, headers: owner.headers });
      expect(listed.json()).toMatchObject({ status: 'expired', downloadUrl: null });
    } finally {
      shift = 0;
    }
  });
});

describe('paying', () => {
  it('refuses with 402 when the balance is short, and makes nothing', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 1);
    const before = await jobCount();
    const res = await createJob(user);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'insufficient_tokens', needed: 2, balance: 1 });
    expect(await jobCount()).toBe(before);
    expect(await ledgerRows(t.db, user.userId)).toEqual([{ kind: 'admin_grant', delta: 1, balance_after: 1 }]);
  });

  it('charges nothing for a window without data (409) ', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 10);
    const res = await createJob(user, { from: iso(HIROSHIMA_HOUR + H), to: iso(HIROSHIMA_HOUR + 3 * H) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'no_data_in_window' });
    expect(await ledgerRows(t.db, user.userId)).toHaveLength(1);
  });

  it('gives the tokens back with a second entry when the job fails', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 10);
    // The capture has no SBAS: the conversion finds no epoch to write.
    const res = await createJob(user, { systems: ['S'] });
    expect(res.statusCode).toBe(201);
    const job = await finished(user, res.json().id);
    expect(job).toMatchObject({ status: 'failed', tokensCharged: 2, tokensRefunded: 2, downloadUrl: null });
    expect(job.error?.code).toBe('conversion_no_data_in_window');
    expect(await ledgerRows(t.db, user.userId)).toEqual([
      { kind: 'admin_grant', delta: 10, balance_after: 10 },
      { kind: 'rinex_spend', delta: -2, balance_after: 8 },
      { kind: 'refund', delta: 2, balance_after: 10 },
    ]);
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/rinex/jobs/${job.id}/download`,
      headers: user.headers,
    });
    expect(download.statusCode).toBe(409);
  });

  it("is free under a plan with the RINEX attribute on the station's network, whatever the plan's texts say", async () => {
    const product = async (name: string, attributes: string[], includesRinex: boolean) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/products',
        headers: admin.headers,
        payload: {
          kind: 'subscription',
          name,
          pricingTable: 'Manual',
          amount: 0,
          currency: 'EUR',
          interval: 'MONTHLY',
          billable: false,
          attributes,
          includesRinex,
          networkIds: [networkId],
        },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().includesRinex).toBe(includesRinex);
      return res.json().priceId as string;
    };
    const assign = async (user: TestUser, priceId: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/subscriptions',
        headers: admin.headers,
        payload: { userId: user.userId, priceId, days: 30 },
      });
      expect(res.statusCode).toBe(201);
    };
    const withRinex = await product('Survey plan', ['Real-time RTK corrections'], true);
    // The texts name RINEX twice, yet the admin did not give the plan RINEX.
    const without = await product('RTK, no RINEX', ['Real-time RTK corrections', 'No RINEX data'], false);

    const planned = await t.buildUser();
    await assign(planned, withRinex);
    expect((await availability(planned)).json()).toMatchObject({ charge: 'plan', price: 0 });
    const free = await createJob(planned);
    expect(free.statusCode).toBe(201);
    expect(free.json()).toMatchObject({ charge: 'plan', tokensCharged: 0 });
    expect(await ledgerRows(t.db, planned.userId)).toEqual([]);
    expect((await finished(planned, free.json().id)).status).toBe('done');

    const rtkOnly = await t.buildUser();
    await assign(rtkOnly, without);
    expect((await availability(rtkOnly)).json()).toMatchObject({ charge: 'tokens', price: 2 });
    expect((await createJob(rtkOnly)).statusCode).toBe(402);

    // The admin gives the plan RINEX: its subscriber's next window is free.
    const plan = (
      await t.db.selectFrom('products').select('id').where('price_id', '=', without).executeTakeFirstOrThrow()
    ).id;
    const patched = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/products/${plan}`,
      headers: admin.headers,
      payload: { includesRinex: true },
    });
    expect(patched.statusCode).toBe(200);
    expect((await availability(rtkOnly)).json()).toMatchObject({ charge: 'plan', price: 0 });
  });
});

describe('organisations', () => {
  it('owners and admins buy for their organisation and every member sees the job; members may not buy', async () => {
    const [owner, member, outsider] = [await t.buildUser(), await t.buildUser(), await t.buildUser()];
    const org = await t.db
      .insertInto('organizations')
      .values({ name: `Survey ${Date.now()}`, created_by: owner.userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('organization_members')
      .values([
        { organization_id: org.id, user_id: owner.userId, role: 'owner' },
        { organization_id: org.id, user_id: member.userId, role: 'member' },
      ])
      .execute();
    for (const u of [owner, member, outsider]) await grantTokens(t, admin, u, 10);

    expect((await createJob(member, { orgId: org.id })).statusCode).toBe(403);
    expect((await createJob(outsider, { orgId: org.id })).statusCode).toBe(404);
    const bought = await createJob(owner, { orgId: org.id });
    expect(bought.statusCode).toBe(201);
    expect(bought.json()).toMatchObject({ organizationId: org.id, tokensCharged: 2 });
    // The ledger is per user: the member who bought paid.
    expect(await ledgerRows(t.db, owner.userId)).toHaveLength(2);
    const done = await finished(member, bought.json().id);
    expect(done.status).toBe('done');
    const seen = await t.app.inject({ method: 'GET', url: '/api/rinex/jobs', headers: member.headers });
    expect(seen.json().items.map((j: RinexJob) => j.id)).toEqual([bought.json().id]);
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/rinex/jobs/${done.id}/download`,
      headers: member.headers,
    });
    expect(download.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/rinex/jobs/${done.id}`, headers: outsider.headers })).statusCode,
    ).toBe(403);
  });
});

describe('support', () => {
  it("lets an admin make a job for any user, free, shown in that user's history", async () => {
    const user = await t.buildUser();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/rinex/jobs',
      headers: admin.headers,
      payload: { ...WINDOW, userId: user.userId, interval: 30 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ charge: 'admin', tokensCharged: 0, createdByAdmin: true });
    expect(await ledgerRows(t.db, user.userId)).toEqual([]);
    const done = await finished(user, res.json().id);
    expect(done).toMatchObject({ status: 'done', result: { epochs: 2 } });
    const history = await t.app.inject({ method: 'GET', url: '/api/rinex/jobs', headers: user.headers });
    expect(history.json().items.map((j: RinexJob) => j.id)).toEqual([done.id]);
    const notAdmin = await t.app.inject({
      method: 'POST',
      url: '/api/admin/rinex/jobs',
      headers: user.headers,
      payload: { ...WINDOW, userId: user.userId },
    });
    expect(notAdmin.statusCode).toBe(403);
  });
});
