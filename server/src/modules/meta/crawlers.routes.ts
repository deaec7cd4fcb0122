import type { FastifyInstance } from 'fastify';

/**
 * The SPA's public pages (src/app/routes.tsx: reachable logged out, with content of their own). Log-in, sign-up,
 * invites and everything behind an account stay out of the sitemap.
 */
export const PUBLIC_PAGES = ['/dashboard', '/marketplace', '/white-label', '/status'];

/**
 * robots.txt and sitemap.xml for the served SPA, which would otherwise answer them with index.html. The sitemap
 * names the portal's own address (PUBLIC_URL), never one taken from the request.
 */
export function registerCrawlerFiles(app: FastifyInstance, publicUrl: string): void {
  const base = publicUrl.replace(/\/+$/, '');
  const robots = ['User-agent: *', 'Disallow: /api/', 'Disallow: /admin/', '', `Sitemap: ${base}/sitemap.xml`, ''];
  const sitemap = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...PUBLIC_PAGES.map((path) => `  <url><loc>${base}${path}</loc></url>`),
    '</urlset>',
    '',
  ];
  app.get('/robots.txt', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(robots.join('\n')),
  );
  app.get('/sitemap.xml', { schema: { hide: true } }, (_request, reply) =>
    reply.type('application/xml; charset=utf-8').header('cache-control', 'no-cache').send(sitemap.join('\n')),
  );
}
