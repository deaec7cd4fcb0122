import {
  type Incident,
  incidentFeedSchema,
  type NetworkStationDays,
  networkStationDaysSchema,
  statusNetworkParamsSchema,
  statusSchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { contentLanguage } from '../../http/language.ts';
import { notFound } from '../../shared/errors.ts';
import type { ContentLanguage } from '../../shared/language.ts';
import type { StatusService } from './status.service.ts';

export interface StatusRouteOptions {
  /** The portal's clock; tests move it. */
  clock: () => Date;
  /** How long one computed answer is reused: the page is public, so its cost must not grow with its readers. */
  cacheMs: number;
  /** PUBLIC_URL, for the feed's links and ids. */
  publicUrl: string;
  /** The brand's name, in the feed's title. */
  brandName: string;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const CAUSE_TEXT: Record<Incident['cause'], string> = {
  offline: 'offline (no data)',
  integrity: 'integrity failing',
};

function incidentTitle(incident: Incident): string {
  const codes = incident.codes.length > 0 ? ` (${incident.codes.join(', ')})` : '';
  const state = incident.end ? 'resolved' : 'ongoing';
  return `${incident.mountpoint} (${incident.networkSlug}): ${CAUSE_TEXT[incident.cause]}${codes}, ${state}`;
}

/** An Atom 1.0 feed (RFC 4287) of the incidents, in English: feed readers send no language of their own. */
export function atomFeed(incidents: Incident[], options: { publicUrl: string; title: string; updated: string }) {
  const base = options.publicUrl.replace(/\/+$/, '');
  const entries = incidents.map((incident) => {
    const text = `Started ${incident.start}${incident.end ? `, ended ${incident.end}` : ', still ongoing'}.`;
    return [
      '  <entry>',
      `    <id>${escapeXml(`${base}/status#incident-${incident.id}`)}</id>`,
      `    <title>${escapeXml(incidentTitle(incident))}</title>`,
      `    <updated>${incident.end ?? incident.start}</updated>`,
      `    <published>${incident.start}</published>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(`${base}/status`)}"/>`,
      `    <category term="${incident.cause}"/>`,
      `    <content type="text">${escapeXml(text)}</content>`,
      '  </entry>',
    ].join('\n');
  });
  // ISO instants of one format sort as text.
  const updated =
    incidents
      .map((i) => i.end ?? i.start)
      .sort()
      .at(-1) ?? options.updated;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(`${base}/status`)}</id>`,
    `  <title>${escapeXml(options.title)}</title>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(`${base}/api/status/incidents.atom`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(`${base}/status`)}"/>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}

/** One computation at a time per key, its answer reused for `ttlMs`. */
function cached<T>(ttlMs: number) {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  return (key: string, now: number, compute: () => Promise<T>): Promise<T> => {
    const hit = entries.get(key);
    if (hit && now - hit.at < ttlMs && now >= hit.at) return hit.value;
    // Keys come from requests (a network's slug): the expired ones go, so the map holds at most a ttl's worth.
    for (const [k, e] of entries) if (now - e.at >= ttlMs || now < e.at) entries.delete(k);
    const value = compute();
    entries.set(key, { at: now, value });
    value.catch(() => entries.delete(key));
    return value;
  };
}

/**
 * GET /api/status, /api/status/networks/{slug}/days, /api/status/incidents.json and .atom: public, no account,
 * cacheable for a few seconds.
 */
export function statusRoutes(service: StatusService, options: StatusRouteOptions): FastifyPluginAsyncZod {
  const statusCache = cached<z.infer<typeof statusSchema>>(options.cacheMs);
  const feedCache = cached<Incident[]>(options.cacheMs);
  const daysCache = cached<NetworkStationDays | undefined>(options.cacheMs);
  const maxAge = `public, max-age=${Math.floor(options.cacheMs / 1000)}`;
  const incidentsOf = (now: Date) => feedCache('feed', now.getTime(), () => service.feed(now));

  return async (app) => {
    app.get('/status', { schema: { tags: ['status'], response: { 200: statusSchema } } }, async (request, reply) => {
      const language: ContentLanguage = contentLanguage(request, reply);
      const now = options.clock();
      reply.header('cache-control', maxAge);
      return statusCache(language, now.getTime(), () => service.status(now, language));
    });

    app.get(
      '/status/networks/:slug/days',
      {
        schema: {
          tags: ['status'],
          params: statusNetworkParamsSchema,
          response: { 200: networkStationDaysSchema },
        },
      },
      async (request, reply) => {
        const now = options.clock();
        const { slug } = request.params;
        const days = await daysCache(slug, now.getTime(), () => service.stationDays(slug, now));
        if (!days) throw notFound(`Network '${slug}'`);
        reply.header('cache-control', maxAge);
        return days;
      },
    );

    app.get(
      '/status/incidents.json',
      { schema: { tags: ['status'], response: { 200: incidentFeedSchema } } },
      async (_request, reply) => {
        const now = options.clock();
        reply.header('cache-control', maxAge);
        return { generatedAt: now.toISOString(), items: await incidentsOf(now) };
      },
    );

    app.get(
      '/status/incidents.atom',
      { schema: { tags: ['status'], produces: ['application/atom+xml'] } },
      async (_request, reply) => {
        const now = options.clock();
        const incidents = await incidentsOf(now);
        return reply
          .type('application/atom+xml; charset=utf-8')
          .header('cache-control', maxAge)
          .send(
            atomFeed(incidents, {
              publicUrl: options.publicUrl,
              title: `${options.brandName} status: incidents`,
              updated: now.toISOString(),
            }),
          );
      },
    );
  };
}
