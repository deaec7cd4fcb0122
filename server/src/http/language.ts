import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ContentLanguage, isContentLanguage } from '../shared/language.ts';

/** The primary languages of an Accept-Language header, most wanted first (by weight, then by order). */
export function acceptedLanguages(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { language: tag.trim().toLowerCase().split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((t) => t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((t) => t.language);
}

/**
 * The reader's language by the request's Accept-Language (the SPA sends its own choice): the first tag, by
 * weight, whose primary language the portal has; English otherwise. The answer then varies with that header, which
 * the response says, so no cache hands a Dutch answer to an English reader.
 */
export function contentLanguage(request: FastifyRequest, reply: FastifyReply): ContentLanguage {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, Accept-Language` : 'Accept-Language');
  return acceptedLanguages(request.headers['accept-language'] ?? '').find(isContentLanguage) ?? 'en';
}
