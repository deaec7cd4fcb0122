import net from 'node:net';
import type { Network, Station } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalogue } from '../src/modules/catalogue/catalogue.seed.ts';
import { startTestCaster } from './support/caster.ts';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

const RD = { frame: 'ETRS89', realisation: 'ETRF2000', epoch: 2010.5, nationalGrid: 'RD/NAP' };
const RD_LINE = 'ETRS89 (ETRF2000, epoch 2010.5), related to RD/NAP';

/** The caster's NTRIP 2 sourcetable, whole. */
function sourcetable(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no sourcetable: ${text}`)), 8000);
    socket.on('connect', () =>
      socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNtrip-Version: Ntrip/2.0\r\nConnection: close\r\n\r\n'),
    );
    socket.on('data', (d) => {
      text += d.toString('latin1');
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.on('error', reject);
  });
}

describe(`the reference frame of a network on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
  });
  afterAll(() => t.close());

  it('is set by an admin, answered with the network and its stations, and in the sourcetable misc field', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/networks',
      headers: admin.headers,
      payload: { name: 'Frame RTK', slug: 'frame-rtk', referenceFrame: RD },
    });
    expect(created.statusCode, created.body).toBe(201);
    const network = created.json() as Network;
    expect(network.referenceFrame).toEqual(RD);
    const station = await t.db
      .insertInto('stations')
      .values({
        network_id: network.id,
        mountpoint: 'FRAM00NLD0',
        country: 'NLD',
        latitude: 52.1,
        longitude: 5.1,
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const detail = await t.app.inject({ method: 'GET', url: `/api/stations/${station.id}` });
    expect(detail.statusCode).toBe(200);
    expect((detail.json() as Station).referenceFrame).toEqual(RD);
    const listed = await t.app.inject({ method: 'GET', url: '/api/stations?network=frame-rtk' });
    expect((listed.json().items as Station[]).map((s) => s.referenceFrame)).toEqual([RD]);

    const caster = await startTestCaster(t.db);
    try {
      const lines = (await sourcetable(caster.port)).split('\r\n');
      const str = lines.find((l) => l.startsWith('STR;FRAM00NLD0;'))?.split(';');
      expect(str?.[18]).toBe(RD_LINE);
      const near = lines.find((l) => l.startsWith('STR;FRAME-RTK_NEAR;'))?.split(';');
      expect(near?.[18]).toBe(RD_LINE);
    } finally {
      await caster.close();
    }
  });

  it('refuses a frame with characters a sourcetable cannot carry, and changes nothing', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/networks',
      headers: admin.headers,
      payload: { name: 'Other RTK', slug: 'other-rtk', referenceFrame: RD },
    });
    const id = (created.json() as Network).id;
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/networks/${id}`,
      headers: admin.headers,
      payload: { referenceFrame: { ...RD, nationalGrid: 'RD;NAP' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
    const cleared = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/networks/${id}`,
      headers: admin.headers,
      payload: { referenceFrame: null },
    });
    expect(cleared.statusCode).toBe(200);
    expect((cleared.json() as Network).referenceFrame).toBeNull();
    const asUser = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/networks/${id}`,
      headers: (await t.buildUser()).headers,
      payload: { referenceFrame: RD },
    });
    expect(asUser.statusCode).toBe(403);
  });

  it('is seeded for every demo network, the Dutch one in ETRS89 related to RD/NAP', async () => {
    await seedDemoCatalogue(t.db);
    const networks = (await t.app.inject({ method: 'GET', url: '/api/networks' })).json().items as Network[];
    const demo = networks.filter((n) =>
      ['dutch-rtk', 'central-europe-partner', 'nordic-rtk', 'southern-europe-rtk'].includes(n.slug),
    );
    expect(demo).toHaveLength(4);
    expect(demo.every((n) => n.referenceFrame !== null)).toBe(true);
    expect(demo.find((n) => n.slug === 'dutch-rtk')?.referenceFrame).toEqual({
      frame: 'ETRS89',
      realisation: 'ETRF2000',
      epoch: 2010.5,
      nationalGrid: 'RD/NAP (RDNAPTRANS 2018)',
    });
  });
});
