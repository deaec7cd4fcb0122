import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ContentLanguage, isContentLanguage, LANGUAGES } from '../shared/language.ts';
import { acceptedLanguages } from './language.ts';

/** The SPA's detector's cookie (i18next-browser-languagedetector's default name). */
const LANGUAGE_COOKIE = 'i18next';
/** The elements the SPA reads texts from: `i18n-<namespace>` (src/lib/i18n.ts, INLINE_LOCALE_PREFIX). */
const INLINE_LOCALE_PREFIX = 'i18n-';

/**
 * The texts a route draws first besides the shell's, so that its document brings them along instead of the SPA
 * asking for them after its scripts ran (ADR 0039): /login, /signup and /register open the log-in modal
 * (src/app/LoginRoute.tsx). Its modules are not preloaded: they would share the slow line with the app's chunk,
 * which the page under the modal (the dashboard, Lighthouse's LCP element) waits for. /marketplace draws the
 * catalogue's texts; with them in the page, its first visit loads no i18next-http-backend (issue 39).
 */
const ROUTE_TEXTS: ReadonlyArray<{ paths: readonly string[]; namespaces: readonly string[] }> = [
  { paths: ['/login', '/signup', '/register'], namespaces: ['auth'] },
  { paths: ['/marketplace'], namespaces: ['catalogue'] },
];

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * The language the SPA's detector will choose (spec §9: query string, cookie, local storage, the browser's
 * languages), from what a request shows: `?lng=`, the `i18next` cookie, Accept-Language; English otherwise. Local
 * storage the server cannot see; the detector keeps it equal to the cookie, and when they differ the SPA loads its
 * language's texts itself. Only a code of the fixed list comes out, never anything of the request.
 */
export function documentLanguage(request: FastifyRequest): ContentLanguage {
  const query = new URL(request.url, 'http://portal.invalid').searchParams.get('lng') ?? '';
  const candidates = [query, cookie(request.headers.cookie, LANGUAGE_COOKIE) ?? '']
    .map((code) => code.trim().toLowerCase().split('-')[0] ?? '')
    .concat(acceptedLanguages(request.headers['accept-language'] ?? ''));
  return candidates.find(isContentLanguage) ?? 'en';
}

/** JSON inside a script element: no '<', so no '</script>' can end it early. */
const scriptSafe = (json: string) => json.replaceAll('<', '\\u003c');

/**
 * index.html with texts of one language in it, as data the SPA reads before its first paint instead of fetching
 * /locales/<lng>/<ns>.json one round trip after its scripts (ADR 0030): the shell's (`common`) always, a route's own
 * as ROUTE_TEXTS says. A namespace without its file (a build without locales) is left out.
 */
function documentFor(template: string, spaRoot: string, language: ContentLanguage, namespaces: readonly string[]) {
  const data = ['common', ...namespaces].flatMap((namespace) => {
    const file = join(spaRoot, 'locales', language, `${namespace}.json`);
    if (!existsSync(file)) return [];
    const texts = scriptSafe(JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))));
    const id = `${INLINE_LOCALE_PREFIX}${namespace}`;
    return [`<script type="application/json" id="${id}" data-lng="${language}">${texts}</script>`];
  });
  if (data.length === 0) return template;
  return template
    .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
    .replace('</head>', `${data.join('\n  ')}\n  </head>`);
}

/**
 * Answers a client-side route with index.html in the reader's language (documentLanguage), with the texts the route
 * draws first (ROUTE_TEXTS), made once per language and route at start. It varies with the cookie and Accept-Language and
 * is revalidated by its ETag like a file.
 */
export function spaDocuments(spaRoot: string) {
  const template = readFileSync(join(spaRoot, 'index.html'), 'utf8');
  const kinds = [{ paths: [] as readonly string[], namespaces: [] as readonly string[] }, ...ROUTE_TEXTS];
  const documents = new Map(
    kinds.flatMap((kind, index) =>
      LANGUAGES.map((language) => {
        const html = documentFor(template, spaRoot, language, kind.namespaces);
        const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
        return [`${language} ${index}`, { html, etag }] as const;
      }),
    ),
  );
  return (request: FastifyRequest, reply: FastifyReply) => {
    const path = new URL(request.url, 'http://portal.invalid').pathname.replace(/(.)\/+$/, '$1');
    const kind = Math.max(
      0,
      kinds.findIndex((k) => k.paths.includes(path)),
    );
    const document = documents.get(`${documentLanguage(request)} ${kind}`) ?? documents.get('en 0');
    if (!document) throw new Error('no SPA document for English');
    reply.header('cache-control', 'no-cache').header('vary', 'Accept-Language, Cookie').header('etag', document.etag);
    if (request.headers['if-none-match'] === document.etag) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(document.html);
  };
}
