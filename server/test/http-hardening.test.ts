import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Feed, Network, Station } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOptionsOf } from '../src/api-options.ts';
import { loadConfig } from '../src/config.ts';
import { createFeedCipher } from '../src/modules/catalogue/feed-secrets.ts';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext } from './support/test-app.ts';

const frameAncestorsNone = /(^|;\s*)frame-ancestors 'none'(;|$)/;

describe(`security headers on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let spaDir: string;
  const builtPolicy = "default-src 'self'; script-src 'self' https://apis.google.com; object-src 'none'";

  beforeAll(async () => {
    spaDir = mkdtempSync(join(tmpdir(), 'portal-spa-'));
    mkdirSync(join(spaDir, 'assets'));
    writeFileSync(
      join(spaDir, 'index.html'),
      `<!doctype html><html><head><meta charset="UTF-8" />
<meta http-equiv="Content-Security-Policy" content="${builtPolicy}" /></head><body><div id="root"></div></body></html>`,
    );
    writeFileSync(join(spaDir, 'assets', 'index-abc.js'), 'console.log(1)');
    for (const [language, greeting] of Object.entries({
      en: 'Hello </script><script>alert(1)</script>',
      nl: 'Hallo',
    })) {
      mkdirSync(join(spaDir, 'locales', language), { recursive: true });
      writeFileSync(join(spaDir, 'locales', language, 'common.json'), JSON.stringify({ greeting }));
    }
    t = await buildTestApp({ staticDir: spaDir, strictTransportSecurity: true });
  });
  afterAll(async () => {
    await t.close();
    rmSync(spaDir, { recursive: true, force: true });
  });

  it('sends nosniff, a referrer policy, HSTS and a policy that allows nothing on API answers', async () => {
    for (const url of ['/api/meta', '/api/no-such-call']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'/);
      expect(res.headers['content-security-policy']).toMatch(frameAncestorsNone);
    }
  });

  it("serves the SPA, on its deep links too, with the build's policy and frame-ancestors 'none'", async () => {
    for (const url of ['/', '/accounts/some/deep/link']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['content-security-policy']).toBe(`${builtPolicy}; frame-ancestors 'none'`);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    // A reload is answered 304 without a content type; the browser takes the policy of that answer.
    const first = await t.app.inject({ method: 'GET', url: '/' });
    const reload = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(reload.statusCode).toBe(304);
    expect(reload.headers['content-security-policy']).toBe(`${builtPolicy}; frame-ancestors 'none'`);
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
  });

  it("puts the shell's texts of the reader's language into the page, as the SPA's detector would choose it", async () => {
    const shellTexts = async (url: string, headers: Record<string, string> = {}) => {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers.vary).toMatch(/Accept-Language/);
      expect(res.headers.vary).toMatch(/Cookie/);
      const element = /<script type="application\/json" id="i18n-common" data-lng="(\w+)">(.*?)<\/script>/.exec(
        res.body,
      );
      return { language: element?.[1], texts: JSON.parse(element?.[2] ?? 'null'), body: res.body };
    };
    const english = await shellTexts('/dashboard');
    expect(english.language).toBe('en');
    // A text can never end the element early: the page has exactly the one script element of the build's data.
    expect(english.texts).toEqual({ greeting: 'Hello </script><script>alert(1)</script>' });
    expect(english.body).not.toContain('<script>alert(1)');
    expect((await shellTexts('/', { 'accept-language': 'de-DE, nl-BE;q=0.8, en;q=0.5' })).language).toBe('nl');
    expect((await shellTexts('/marketplace', { 'accept-language': 'nl', cookie: 'a=b; i18next=en' })).language).toBe(
      'en',
    );
    expect((await shellTexts('/marketplace?lng=nl', { cookie: 'i18next=en' })).texts).toEqual({ greeting: 'Hallo' });
    expect((await shellTexts('/dashboard?lng=../../etc/passwd', { cookie: 'i18next=..%2F..' })).language).toBe('en');
  });

  it('answers robots.txt and a sitemap of the public pages as files, not the SPA', async () => {
    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body).toContain('Disallow: /api/');
    expect(robots.body).toMatch(/^Sitemap: http:\/\/\S+\/sitemap\.xml$/m);
    const sitemap = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers['content-type']).toMatch(/^application\/xml/);
    const pages = [...sitemap.body.matchAll(/<loc>https?:\/\/[^/]+(\/[^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(pages).toEqual(['/dashboard', '/marketplace', '/white-label', '/status']);
    expect(sitemap.body).not.toContain('<div id="root">');
  });

  it('keeps the sandbox card form out of frames, its own stylesheet allowed by hash and no script', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/sandbox/checkout/cs_sbx_${'0'.repeat(24)}` });
    expect(res.statusCode).toBe(404);
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toMatch(frameAncestorsNone);
    expect(policy).toMatch(/^default-src 'none'/);
    expect(policy).not.toContain('script-src');
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)?.[1] ?? '';
    expect(policy).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  });

  it('sends no HSTS outside production', async () => {
    const dev = await buildTestApp();
    try {
      const res = await dev.app.inject({ method: 'GET', url: '/api/meta' });
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await dev.close();
    }
  });
});

describe(`client address behind proxies on ${testDatabaseKind()}`, () => {
  const spoofing = (t: TestContext, n: number) =>
    t.app.inject({
      method: 'GET',
      url: '/api/meta',
      remoteAddress: '203.0.113.50',
      headers: { 'x-forwarded-for': `198.51.100.${n}` },
    });

  it('limits a client by its own address when no proxy is trusted, whatever X-Forwarded-For it sends', async () => {
    const t = await buildTestApp({ anonymousRequestsPerMinute: 2 });
    try {
      expect((await spoofing(t, 1)).statusCode).toBe(200);
      expect((await spoofing(t, 2)).statusCode).toBe(200);
      expect((await spoofing(t, 3)).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('believes X-Forwarded-For from a trusted proxy (TRUST_PROXY), each client with its own budget', async () => {
    const config = loadConfig({ FIREBASE_PROJECT_ID: 'demo-gnss-portal', TRUST_PROXY: '203.0.113.0/24' });
    const t = await buildTestApp({ trustProxy: config.TRUST_PROXY, anonymousRequestsPerMinute: 2 });
    try {
      for (let n = 1; n <= 4; n++) expect((await spoofing(t, n)).statusCode).toBe(200);
      expect((await spoofing(t, 1)).statusCode).toBe(200);
      expect((await spoofing(t, 1)).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });
});

describe(`feed key of the API on ${testDatabaseKind()}`, () => {
  it("seals pull-feed passwords with the configured FEED_SECRET_KEY outside production too (the caster's key)", async () => {
    const key = 'q6Xq3bGkq8m4mJ0wS0bXr0a9hQ5f8cQeWkqg2l7Y1jA=';
    const config = loadConfig({
      NODE_ENV: 'development',
      FIREBASE_PROJECT_ID: 'demo-gnss-portal',
      FEED_SECRET_KEY: key,
      LOG_LEVEL: 'silent',
    });
    const t = await buildTestApp(apiOptionsOf(config));
    try {
      const admin = await t.buildAdmin();
      const post = async <T>(url: string, payload: Record<string, unknown>): Promise<T> => {
        const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload });
        expect(res.statusCode, res.body).toBe(201);
        return res.json() as T;
      };
      const network = await post<Network>('/api/admin/networks', { name: 'Feed Key Network' });
      const station = await post<Station>('/api/admin/stations', {
        networkId: network.id,
        mountpoint: 'KEYS00NLD0',
        latitude: 52,
        longitude: 5,
        country: 'NLD',
      });
      const feed = await post<Feed>('/api/admin/feeds', {
        kind: 'pull',
        stationId: station.id,
        upstreamHost: 'caster.partner.example',
        upstreamMountpoint: 'PARTNER_01',
        upstreamUsername: 'portal',
        upstreamPassword: 'upstream-pass-123',
      });
      const row = await t.db.selectFrom('feeds').selectAll().where('id', '=', feed.id).executeTakeFirstOrThrow();
      expect(createFeedCipher(key).decrypt(row.upstream_password_enc ?? '', feed.id)).toBe('upstream-pass-123');
    } finally {
      await t.close();
    }
  });
});
