import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface RateLimits {
  /** Requests a minute from one address (an IPv6 /64) by callers without a verified token. */
  anonymousPerMinute: number;
  /** Requests a minute by one signed-in account, wherever it calls from. */
  signedInPerMinute: number;
  /** Requests a minute made with one API key (issue 37): machines get a budget of their own, apart from the person's. */
  apiKeyPerMinute: number;
}

/**
 * The API's request budgets (docs/adr/0015-login-throttling.md). A caller whose token verified is counted by its
 * account, everyone else by address: customers behind one carrier-grade NAT or office router each have a budget
 * of their own that neither anonymous visitors nor failed tokens from that address can spend. A missing or failed
 * token on a route that needs one is anonymous traffic, counted against its address before the 401.
 */
export async function registerRateLimit(api: FastifyInstance, limits: RateLimits): Promise<void> {
  const accountOf = (request: FastifyRequest) => request.identity?.uid;
  await api.register(rateLimit, {
    timeWindow: '1 minute',
    keyGenerator: (request) => {
      if (request.apiKey) return `api key ${request.apiKey.id}`;
      const uid = accountOf(request);
      return uid === undefined ? `address ${normalizeIP(request.ip)}` : `account ${uid}`;
    },
    max: (request) => {
      if (request.apiKey) return limits.apiKeyPerMinute;
      return accountOf(request) === undefined ? limits.anonymousPerMinute : limits.signedInPerMinute;
    },
  });
}
