import type { Feed, Network, Station } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processFeedSecretKey } from '../src/feed-secret-key.ts';
import { createFeedCipher } from '../src/modules/catalogue/feed-secrets.ts';
import { verifyPassword } from '../src/shared/password-hash.ts';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

describe(`catalogue feeds on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let network: Network;
  let counter = 0;

  const post = async <T>(url: string, payload: Record<string, unknown>): Promise<T> => {
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as T;
  };
  const newStation = () =>
    post<Station>('/api/admin/stations', {
      networkId: network.id,
      mountpoint: `FEED${String(++counter).padStart(2, '0')}NLD0`,
      latitude: 52,
      longitude: 5,
      country: 'NLD',
    });
  const storedFeed = (id: string) =>
    t.db.selectFrom('feeds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    network = await post<Network>('/api/admin/networks', { name: 'Feed Test Network' });
  });
  afterAll(() => t.close());

  it('stores a push feed source password only as a scrypt hash and never returns it', async () => {
    const station = await newStation();
    const feed = await post<Feed>('/api/admin/feeds', {
      kind: 'push',
      stationId: station.id,
      sourcePassword: 'base-station-secret',
    });
    expect(feed).toMatchObject({
      kind: 'push',
      enabled: true,
      status: 'idle',
      mountpoint: station.mountpoint,
      networkId: network.id,
      hasSourcePassword: true,
      upstream: null,
    });
    expect(JSON.stringify(feed)).not.toContain('base-station-secret');

    const row = await storedFeed(feed.id);
    expect(row.source_password_hash).toMatch(/^scrypt\$/);
    expect(row.source_password_hash).not.toContain('base-station-secret');
    expect(await verifyPassword('base-station-secret', row.source_password_hash ?? '')).toBe(true);
    expect(await verifyPassword('wrong-password', row.source_password_hash ?? '')).toBe(false);

    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/feeds/${feed.id}`,
      headers: admin.headers,
      payload: { sourcePassword: 'rotated-secret-2' },
    });
    const rotated = await storedFeed(feed.id);
    expect(await verifyPassword('rotated-secret-2', rotated.source_password_hash ?? '')).toBe(true);
    expect(await verifyPassword('base-station-secret', rotated.source_password_hash ?? '')).toBe(false);
  });

  it('encrypts pull feed upstream credentials at rest and never returns them', async () => {
    const station = await newStation();
    const feed = await post<Feed>('/api/admin/feeds', {
      kind: 'pull',
      stationId: station.id,
      upstreamHost: 'caster.partner.example',
      upstreamPort: 2102,
      upstreamMountpoint: 'PARTNER_01',
      upstreamUsername: 'portal',
      upstreamPassword: 'upstream-pass-123',
      upstreamNtripVersion: 1,
    });
    expect(feed.upstream).toEqual({
      host: 'caster.partner.example',
      port: 2102,
      mountpoint: 'PARTNER_01',
      username: 'portal',
      ntripVersion: 1,
      hasPassword: true,
    });
    const listed = await t.app.inject({ method: 'GET', url: '/api/admin/feeds', headers: admin.headers });
    expect(listed.body).not.toContain('upstream-pass-123');

    const row = await storedFeed(feed.id);
    expect(row.upstream_password_enc).not.toContain('upstream-pass-123');
    const cipher = createFeedCipher(processFeedSecretKey());
    expect(cipher.decrypt(row.upstream_password_enc ?? '', feed.id)).toBe('upstream-pass-123');
    // Bound to its feed: the same ciphertext copied onto another feed does not open.
    expect(() => cipher.decrypt(row.upstream_password_enc ?? '', station.id)).toThrow();

    const cleared = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/feeds/${feed.id}`,
      headers: admin.headers,
      payload: { upstreamPassword: '' },
    });
    expect(cleared.json().upstream.hasPassword).toBe(false);
  });

  it('enables and disables a feed and filters the list by network, kind and state', async () => {
    const station = await newStation();
    const feed = await post<Feed>('/api/admin/feeds', {
      kind: 'push',
      stationId: station.id,
      sourcePassword: 'toggle-secret',
    });
    const disabled = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/feeds/${feed.id}`,
      headers: admin.headers,
      payload: { enabled: false },
    });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().enabled).toBe(false);

    const off = await t.app.inject({
      method: 'GET',
      url: `/api/admin/feeds?network=${network.slug}&enabled=false`,
      headers: admin.headers,
    });
    expect(off.json().items.map((f: Feed) => f.id)).toEqual([feed.id]);
    const pulls = await t.app.inject({ method: 'GET', url: '/api/admin/feeds?kind=pull', headers: admin.headers });
    expect(pulls.json().items.every((f: Feed) => f.kind === 'pull')).toBe(true);

    const enabled = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/feeds/${feed.id}`,
      headers: admin.headers,
      payload: { enabled: true },
    });
    expect(enabled.json().enabled).toBe(true);
  });

  it('allows one feed per station and refuses fields of the other kind', async () => {
    const station = await newStation();
    const feed = await post<Feed>('/api/admin/feeds', {
      kind: 'push',
      stationId: station.id,
      sourcePassword: 'one-secret',
    });
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/admin/feeds',
      headers: admin.headers,
      payload: { kind: 'push', stationId: station.id, sourcePassword: 'two-secret' },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'feed_exists', field: 'stationId' });

    const mismatch = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/feeds/${feed.id}`,
      headers: admin.headers,
      payload: { upstreamHost: 'caster.example' },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toMatchObject({ code: 'feed_kind_mismatch', field: 'upstreamHost' });
  });

  it('validates feed bodies with the field named', async () => {
    const station = await newStation();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'push', stationId: station.id, sourcePassword: 'short' }, 'sourcePassword'],
      [{ kind: 'push', stationId: station.id, sourcePassword: 'has a space' }, 'sourcePassword'],
      [{ kind: 'pull', stationId: station.id, upstreamHost: 'bad host!', upstreamMountpoint: 'M' }, 'upstreamHost'],
      [
        { kind: 'pull', stationId: station.id, upstreamHost: 'h.example', upstreamMountpoint: 'M', upstreamPort: 0 },
        'upstreamPort',
      ],
      [{ kind: 'push', stationId: '00000000-0000-4000-8000-000000000000', sourcePassword: 'long-enough' }, 'stationId'],
    ];
    for (const [payload, field] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/feeds', headers: admin.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', field });
    }
    const unknownKind = await t.app.inject({
      method: 'POST',
      url: '/api/admin/feeds',
      headers: admin.headers,
      payload: { kind: 'carrier-pigeon', stationId: station.id },
    });
    expect(unknownKind.statusCode).toBe(400);
  });

  it('moves a feed with its station and deletes it with its station', async () => {
    const other = await post<Network>('/api/admin/networks', { name: 'Feed Other Network' });
    const station = await newStation();
    const feed = await post<Feed>('/api/admin/feeds', {
      kind: 'push',
      stationId: station.id,
      sourcePassword: 'mover-secret',
    });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/stations/${station.id}`,
      headers: admin.headers,
      payload: { networkId: other.id },
    });
    const moved = await t.app.inject({ method: 'GET', url: `/api/admin/feeds/${feed.id}`, headers: admin.headers });
    expect(moved.json().networkId).toBe(other.id);

    await t.app.inject({ method: 'DELETE', url: `/api/admin/stations/${station.id}`, headers: admin.headers });
    const gone = await t.app.inject({ method: 'GET', url: `/api/admin/feeds/${feed.id}`, headers: admin.headers });
    expect(gone.statusCode).toBe(404);
  });

  it('keeps feeds admin-only: 401 anonymous, 403 for users, for reads and writes', async () => {
    const user = await t.buildUser();
    for (const request of [
      { method: 'GET' as const, url: '/api/admin/feeds' },
      { method: 'POST' as const, url: '/api/admin/feeds', payload: { kind: 'push' } },
    ]) {
      expect((await t.app.inject(request)).statusCode).toBe(401);
      expect((await t.app.inject({ ...request, headers: user.headers })).statusCode).toBe(403);
    }
  });
});
