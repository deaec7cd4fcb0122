import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spaDocuments } from '../src/http/spa-document.ts';

/** A build as Vite makes it: index.html preloading the app chunk, the locale files. */
function writeBuild(dir: string) {
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
<script type="module" crossorigin src="/assets/index-e1.js"></script>
<link rel="modulepreload" crossorigin href="/assets/app-a1.js"></head><body><div id="root"></div></body></html>`,
  );
  for (const [language, texts] of Object.entries({
    en: { common: { menu: 'Menu' }, auth: { title: 'Sign up' }, catalogue: { title: 'Marketplace' } },
    nl: { common: { menu: 'Menu' }, auth: { title: 'Registreren' }, catalogue: { title: 'Marktplaats' } },
  })) {
    mkdirSync(join(dir, 'locales', language), { recursive: true });
    for (const [namespace, value] of Object.entries(texts)) {
      writeFileSync(join(dir, 'locales', language, `${namespace}.json`), JSON.stringify(value));
    }
  }
}

const preloads = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
const texts = (html: string, namespace: string) => {
  const element = new RegExp(
    `<script type="application/json" id="i18n-${namespace}" data-lng="(\\w+)">(.*?)</script>`,
  ).exec(html);
  return element && { language: element[1], texts: JSON.parse(element[2] ?? 'null') };
};

describe('the SPA document of a route', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-spa-document-'));
    writeBuild(dir);
    app = Fastify();
    app.setNotFoundHandler(spaDocuments(dir));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("brings the log-in modal's texts on the routes that open it, in the reader's language", async () => {
    for (const url of ['/signup', '/login', '/register/', '/signup?lng=nl']) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-language': 'nl' } });
      expect(res.statusCode).toBe(200);
      expect(texts(res.body, 'auth')).toEqual({ language: 'nl', texts: { title: 'Registreren' } });
      expect(texts(res.body, 'common')?.language).toBe('nl');
      // Not its modules: they would share the line with the app chunk the page under the modal waits for.
      expect(preloads(res.body)).toEqual(['/assets/app-a1.js']);
    }
  });

  it("brings the catalogue's texts on /marketplace, which draws them", async () => {
    const res = await app.inject({ method: 'GET', url: '/marketplace', headers: { 'accept-language': 'nl' } });
    expect(texts(res.body, 'catalogue')).toEqual({ language: 'nl', texts: { title: 'Marktplaats' } });
    expect(texts(res.body, 'auth')).toBeNull();
    expect(preloads(res.body)).toEqual(['/assets/app-a1.js']);
  });

  it("brings only the shell's texts elsewhere", async () => {
    for (const url of ['/dashboard', '/', '/map', '/signup/more']) {
      const res = await app.inject({ method: 'GET', url });
      expect(preloads(res.body)).toEqual(['/assets/app-a1.js']);
      expect(texts(res.body, 'auth')).toBeNull();
      expect(texts(res.body, 'catalogue')).toBeNull();
      expect(texts(res.body, 'common')).toEqual({ language: 'en', texts: { menu: 'Menu' } });
    }
  });

  it('answers each route and language with its own ETag, and 304 to a reload of the same', async () => {
    const signup = await app.inject({ method: 'GET', url: '/signup' });
    const dashboard = await app.inject({ method: 'GET', url: '/dashboard' });
    const dutch = await app.inject({ method: 'GET', url: '/signup', headers: { cookie: 'i18next=nl' } });
    expect(new Set([signup.headers.etag, dashboard.headers.etag, dutch.headers.etag]).size).toBe(3);
    const reload = await app.inject({
      method: 'GET',
      url: '/login',
      headers: { 'if-none-match': String(signup.headers.etag) },
    });
    expect(reload.statusCode).toBe(304);
  });
});
