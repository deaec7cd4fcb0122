import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptedLanguages, type ContentLanguage, isContentLanguage, LANGUAGES } from './language.ts';

/** The SPA's detector's cookie (i18next-browser-languagedetector's default name). */
const LANGUAGE_COOKIE = 'i18next';
/** The element the SPA reads the shell's texts from (src/lib/i18n.ts, INLINE_LOCALE_ID). */
const INLINE_LOCALE_ID = 'i18n-common';

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
 * index.html with the shell's texts (`common`) of one language in it, as data the SPA reads before its first paint
 * instead of fetching /locales/<lng>/common.json one round trip after its scripts (ADR 0030). Without that file
 * (a build without locales) the page is the build's.
 */
function documentFor(template: string, spaRoot: string, language: ContentLanguage): string {
  const file = join(spaRoot, 'locales', language, 'common.json');
  if (!existsSync(file)) return template;
  const texts = scriptSafe(JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))));
  const data = `<script type="application/json" id="${INLINE_LOCALE_ID}" data-lng="${language}">${texts}</script>`;
  return template.replace(/<html lang="[^"]*"/, `<html lang="${language}"`).replace('</head>', `${data}\n  </head>`);
}

/**
 * Answers a client-side route with index.html in the reader's language (documentLanguage), made once per language
 * at start. It varies with the cookie and Accept-Language and is revalidated by its ETag like a file.
 */
export function spaDocuments(spaRoot: string) {
  const template = readFileSync(join(spaRoot, 'index.html'), 'utf8');
  const documents = new Map(
    LANGUAGES.map((language) => {
      const html = documentFor(template, spaRoot, language);
      return [language, { html, etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"` }];
    }),
  );
  return (request: FastifyRequest, reply: FastifyReply) => {
    const document = documents.get(documentLanguage(request)) ?? documents.get('en');
    if (!document) throw new Error('no SPA document for English');
    reply.header('cache-control', 'no-cache').header('vary', 'Accept-Language, Cookie').header('etag', document.etag);
    if (request.headers['if-none-match'] === document.etag) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(document.html);
  };
}
