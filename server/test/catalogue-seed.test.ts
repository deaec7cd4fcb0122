import type { Network, StationMarker } from '@portal/contract';
import { rinexObsFileName } from '@portal/gnss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PRODUCTS, seedDemoProducts } from '../src/modules/billing/billing.seed.ts';
import { seedDemoCatalogue } from '../src/modules/catalogue/catalogue.seed.ts';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext } from './support/test-app.ts';

describe(`demo catalogue seed on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('fills a fresh database with at least 3 networks and 300 stations across Europe, once', async () => {
    const first = await seedDemoCatalogue(t.db);
    const second = await seedDemoCatalogue(t.db);
    expect(second).toEqual(first);
    expect(first.networks).toBeGreaterThanOrEqual(3);
    expect(first.stations).toBeGreaterThanOrEqual(300);

    const networks = (await t.app.inject({ method: 'GET', url: '/api/networks' })).json().items as Network[];
    expect(networks.length).toBeGreaterThanOrEqual(3);
    expect(networks.every((n) => n.stationCount > 0)).toBe(true);

    const res = await t.app.inject({ method: 'GET', url: '/api/stations?view=compact&limit=10000' });
    const markers = res.json().items as StationMarker[];
    expect(markers).toHaveLength(first.stations);
    expect(new Set(markers.map((m) => m.mountpoint)).size).toBe(markers.length);
    // Spread over Europe: from Iberia to Finnmark, from the Atlantic to the Baltics.
    const lats = markers.map((m) => m.latitude);
    const lons = markers.map((m) => m.longitude);
    expect(Math.min(...lats)).toBeLessThan(40);
    expect(Math.max(...lats)).toBeGreaterThan(68);
    expect(Math.min(...lons)).toBeLessThan(-5);
    expect(Math.max(...lons)).toBeGreaterThan(25);
    expect(markers.some((m) => m.status === 'offline')).toBe(true);

    const feeds = await t.db.selectFrom('feeds').select(['kind']).execute();
    expect(feeds).toHaveLength(first.stations);
    expect(new Set(feeds.map((f) => f.kind))).toEqual(new Set(['push', 'pull']));
  });

  it("names every demo station's RINEX files after its own 9-character ID, no two stations alike", async () => {
    await seedDemoCatalogue(t.db);
    const stations = await t.db.selectFrom('stations').select(['mountpoint', 'country']).execute();
    expect(stations.length).toBeGreaterThanOrEqual(300);
    const start = new Date(Date.UTC(2026, 10, 28, 9));
    const names = stations.map((s) =>
      rinexObsFileName({ station: s.mountpoint, country: s.country, start, period: 3600, interval: 30, kind: 'O' }),
    );
    expect(new Set(names).size).toBe(stations.length);
    for (const [i, s] of stations.entries()) expect(names[i]?.slice(0, 9)).toBe(s.mountpoint.slice(0, 9));
  });

  it('seeds the demo products once, their subscriptions covering every network that is not retired', async () => {
    await seedDemoCatalogue(t.db);
    const retired = await t.db
      .insertInto('networks')
      .values({ slug: 'retired-demo', name: 'Retired demo', status: 'retired', updated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const open = await t.db.selectFrom('networks').select('id').where('status', '<>', 'retired').execute();

    expect(await seedDemoProducts(t.db)).toBe(DEMO_PRODUCTS.length);
    expect(await seedDemoProducts(t.db)).toBe(0);

    const products = await t.db.selectFrom('products').select(['kind', 'network_ids']).execute();
    expect(products).toHaveLength(DEMO_PRODUCTS.length);
    const subscriptions = products.filter((p) => p.kind === 'subscription');
    expect(subscriptions.length).toBeGreaterThan(0);
    for (const p of subscriptions) {
      expect([...p.network_ids].sort()).toEqual(open.map((n) => n.id).sort());
      expect(p.network_ids).not.toContain(retired.id);
    }
    expect(products.filter((p) => p.kind !== 'subscription').every((p) => p.network_ids.length === 0)).toBe(true);
  });
});
