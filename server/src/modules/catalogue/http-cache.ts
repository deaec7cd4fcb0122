import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * Public catalogue answers carry a strong ETag of their body and `no-cache`: browsers and proxies may keep
 * them but must revalidate, which costs a 304 without a body, and an admin's edit shows on the next load.
 */
export function addEtags(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const etag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    reply.header('cache-control', 'public, no-cache');
    const candidates = request.headers['if-none-match']?.split(',').map((t) => t.trim().replace(/^W\//, ''));
    if (candidates?.some((t) => t === etag || t === '*')) {
      reply.code(304);
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      return '';
    }
    return payload;
  });
}
