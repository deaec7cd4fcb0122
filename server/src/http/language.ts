import type { FastifyReply, FastifyRequest } from 'fastify';

/** The languages the SPA speaks (public/locales); English is the base every text has. */
export type ContentLanguage = 'en' | 'nl';
const LANGUAGES: readonly ContentLanguage[] = ['en', 'nl'];

/**
 * The reader's language by the request's Accept-Language (the SPA sends its own choice): the first tag, by
 * weight, whose primary language the portal has; English otherwise. The answer then varies with that header, which
 * the response says, so no cache hands a Dutch answer to an English reader.
 */
export function contentLanguage(request: FastifyRequest, reply: FastifyReply): ContentLanguage {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, Accept-Language` : 'Accept-Language');
  const header = request.headers['accept-language'] ?? '';
  const tags = header
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
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (
    tags.map((t) => t.language).find((l): l is ContentLanguage => LANGUAGES.includes(l as ContentLanguage)) ?? 'en'
  );
}
