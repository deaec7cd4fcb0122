import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptedLanguages, type ContentLanguage, isContentLanguage, LANGUAGES } from './language.ts';

/** The SPA's detector's cookie (i18next-browser-languagedetector's default name). */
const LANGUAGE_COOKIE = 'i18next';
/** The elements the SPA reads texts from: `i18n-<namespace>` (src/lib/i18n.ts, INLINE_LOCALE_PREFIX). */
const INLINE_LOCALE_PREFIX = 'i18n-';

/**
 * What the SPA draws first on a few routes besides the shell, so that their document brings it along instead of the
 * SPA asking for it after its scripts ran (ADR 0039): the modules (keys of Vite's manifest) as modulepreload links,
 * the texts (namespaces) as data. Each names what the route of src/app/routes.tsx draws on a first visit: /login,
 * /signup and /register open the log-in modal (LoginRoute), which loads with React Query (lazyWithQueries).
 */
const ROUTE_PARTS: ReadonlyArray<{
  paths: readonly string[];
  modules: readonly string[];
  namespaces: readonly string[];
}> = [
  {
    paths: ['/login', '/signup', '/register'],
    modules: ['src/features/auth/LoginModal.tsx', 'src/lib/queries.tsx'],
    namespaces: ['auth'],
  },
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

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** Vite's manifest of the build (build.manifest), or nothing for a build without one. */
function readManifest(spaRoot: string): Record<string, ManifestChunk> {
  const file = join(spaRoot, '.vite', 'manifest.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>) : {};
}

/** The files of these modules and of their static imports, transitively; a module the build lacks adds nothing. */
function moduleFiles(manifest: Record<string, ManifestChunk>, modules: readonly string[]): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const todo = [...modules];
  for (let key = todo.shift(); key !== undefined; key = todo.shift()) {
    const chunk = manifest[key];
    if (seen.has(key) || !chunk) continue;
    seen.add(key);
    files.push(chunk.file);
    todo.push(...(chunk.imports ?? []));
  }
  return files;
}

/**
 * index.html with texts of one language in it, as data the SPA reads before its first paint instead of fetching
 * /locales/<lng>/<ns>.json one round trip after its scripts (ADR 0030): the shell's (`common`) always, a route's own
 * as ROUTE_PARTS says, with that route's modules as modulepreload links. A namespace without its file (a build
 * without locales) is left out, and so is a module the page already preloads.
 */
function documentFor(
  template: string,
  spaRoot: string,
  language: ContentLanguage,
  parts: { modules: string[]; namespaces: readonly string[] },
): string {
  const data = ['common', ...parts.namespaces].flatMap((namespace) => {
    const file = join(spaRoot, 'locales', language, `${namespace}.json`);
    if (!existsSync(file)) return [];
    const texts = scriptSafe(JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))));
    const id = `${INLINE_LOCALE_PREFIX}${namespace}`;
    return [`<script type="application/json" id="${id}" data-lng="${language}">${texts}</script>`];
  });
  const preloads = parts.modules
    .filter((file) => !template.includes(`/${file}"`))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
  const head = [...preloads, ...data];
  if (head.length === 0) return template;
  return template
    .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
    .replace('</head>', `${head.join('\n  ')}\n  </head>`);
}

/**
 * Answers a client-side route with index.html in the reader's language (documentLanguage), with what the route draws
 * first (ROUTE_PARTS), made once per language and route at start. It varies with the cookie and Accept-Language and
 * is revalidated by its ETag like a file.
 */
export function spaDocuments(spaRoot: string) {
  const template = readFileSync(join(spaRoot, 'index.html'), 'utf8');
  const manifest = readManifest(spaRoot);
  const kinds = [
    { paths: [] as readonly string[], modules: [] as string[], namespaces: [] as readonly string[] },
    ...ROUTE_PARTS.map((part) => ({ ...part, modules: moduleFiles(manifest, part.modules) })),
  ];
  const documents = new Map(
    kinds.flatMap((kind, index) =>
      LANGUAGES.map((language) => {
        const html = documentFor(template, spaRoot, language, kind);
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
