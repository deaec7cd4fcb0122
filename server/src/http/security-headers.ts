import type { FastifyInstance } from 'fastify';

/** JSON, files and errors run no script and load nothing; no page may frame any answer. */
export const API_CONTENT_SECURITY_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A meta tag cannot forbid framing (browsers ignore frame-ancestors there), so only the header can. */
const FRAMING = "frame-ancestors 'none'";

/**
 * The SPA's header policy: the one its build wrote into index.html (src/lib/content-security-policy.ts), which
 * knows what the build loads, plus frame-ancestors. A build without one still gets the rules that need no list.
 */
export function spaContentSecurityPolicy(indexHtml: string): string {
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(indexHtml)?.[1];
  const built = meta?.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');
  return `${built ?? "object-src 'none'; base-uri 'self'"}; ${FRAMING}`;
}

export interface SecurityHeadersOptions {
  /** Answers under this path are the API's. */
  apiPrefix: string;
  /** The SPA's policy, for everything outside the API (index.html on every client-side route, its files). */
  spaPolicy?: string | undefined;
  /** Production: browsers then only ever come back over HTTPS. */
  strictTransportSecurity?: boolean;
}

/**
 * Headers on every answer. A route that renders its own page (the sandbox checkout) sets its own policy; the API
 * gets the policy that allows nothing, everything else is the SPA. Chosen by path, not by content type: a reload
 * answered 304 has no content type, and the browser takes the policy of the 304.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeadersOptions): void {
  const api = new RegExp(`^${options.apiPrefix}([/?]|$)`);
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    // For browsers that predate frame-ancestors.
    reply.header('x-frame-options', 'DENY');
    if (options.strictTransportSecurity)
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (!reply.hasHeader('content-security-policy')) {
      const spa = options.spaPolicy && !api.test(request.url);
      reply.header('content-security-policy', spa ? options.spaPolicy : API_CONTENT_SECURITY_POLICY);
    }
    return payload;
  });
}
