import type {
  CatalogueErrorCode,
  createNetworkBodySchema,
  createStationBodySchema,
  ImportLine,
  ImportReport,
  Network,
  patchNetworkBodySchema,
  patchStationBodySchema,
  replaceNetworkBodySchema,
  Station,
  StationMarkerPage,
  StationPage,
  stationListQuerySchema,
} from '@portal/contract';
import type { Updateable } from 'kysely';
import type { z } from 'zod';
import type { StationsTable } from '../../db/schema.ts';
import { AppError, badRequest, notFound } from '../../shared/errors.ts';
import type { ContentLanguage } from '../../shared/language.ts';
import { isPubliclyListed } from './catalogue.policy.ts';
import { presentNetwork, presentStation, presentStationMarker, summariseNewNetwork } from './catalogue.presenters.ts';
import { type CatalogueQueries, type CatalogueRepo, databaseError, type StationFilter } from './catalogue.repo.ts';
import { parseSourcetable } from './sourcetable.ts';

type CreateNetwork = z.output<typeof createNetworkBodySchema>;
type ReplaceNetwork = z.output<typeof replaceNetworkBodySchema>;
type PatchNetwork = z.output<typeof patchNetworkBodySchema>;
type CreateStation = z.output<typeof createStationBodySchema>;
type PatchStation = z.output<typeof patchStationBodySchema>;
type StationListQuery = z.output<typeof stationListQuerySchema>;

/** Rovers and operators read slugs in URLs; accents and punctuation are folded away. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56)
    .replace(/-+$/g, '');
  return slug.length >= 2 ? slug : 'network';
}

/** Every catalogue-specific refusal goes through here, so its code is one the contract lists for clients. */
export const catalogueError = (status: 400 | 409, code: CatalogueErrorCode, message: string, field?: string) =>
  new AppError(status, code, message, field);

/** Turns a unique-constraint violation into the 409 a client can act on; anything else is rethrown. */
export function rethrowConflict(err: unknown): never {
  const db = databaseError(err);
  if (db?.code === '23505') {
    if (db.constraint === 'networks_slug_key') {
      throw catalogueError(409, 'slug_taken', 'Another network already uses this slug.', 'slug');
    }
    if (db.constraint?.startsWith('stations_mountpoint')) {
      throw catalogueError(409, 'mountpoint_taken', 'Another station already uses this mountpoint name.', 'mountpoint');
    }
    if (db.constraint === 'feeds_station_id_key') {
      throw catalogueError(409, 'feed_exists', 'This station already has a feed.', 'stationId');
    }
  }
  throw err;
}

function stationColumns(body: Partial<CreateStation>): Updateable<StationsTable> {
  return {
    network_id: body.networkId,
    mountpoint: body.mountpoint,
    identifier: body.identifier,
    country: body.country,
    latitude: body.latitude,
    longitude: body.longitude,
    height_m: body.heightM,
    receiver: body.receiver,
    antenna: body.antenna,
    format: body.format,
    format_details: body.formatDetails,
    nav_system: body.navSystem,
    carrier: body.carrier,
    bitrate: body.bitrate,
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;

export function createCatalogueService(deps: { repo: CatalogueRepo }) {
  const { repo } = deps;

  async function networkSummary(idOrSlug: string, options: { publicOnly: boolean }) {
    const row = await repo.findNetworkSummary(idOrSlug);
    if (!row || (options.publicOnly && !isPubliclyListed(row))) throw notFound(`Network '${idOrSlug}'`);
    return row;
  }

  async function availableSlug(name: string): Promise<string> {
    const base = slugify(name);
    const taken = new Set(await repo.slugsStartingWith(base));
    if (!taken.has(base)) return base;
    let n = 2;
    while (taken.has(`${base}-${n}`)) n++;
    return `${base}-${n}`;
  }

  /** A network named in a body must exist; it is a field error, not a missing resource. */
  async function requireNetworkField(networkId: string): Promise<void> {
    if (!(await repo.findNetwork(networkId))) {
      throw badRequest('validation_failed', 'No network has this id.', 'networkId');
    }
  }

  async function requireFreeMountpoint(mountpoint: string, exceptStationId?: string): Promise<void> {
    const [holder] = await repo.findStationsByMountpoints([mountpoint]);
    if (holder && holder.id !== exceptStationId) {
      throw catalogueError(
        409,
        'mountpoint_taken',
        `Mountpoint '${holder.mountpoint}' is already used in network '${holder.network_slug}'.`,
        'mountpoint',
      );
    }
  }

  async function stationFilter(query: Omit<StationListQuery, 'view' | 'limit' | 'offset'>, publicOnly: boolean) {
    const filter: StationFilter = { publicOnly, bbox: query.bbox, status: query.status, search: query.search };
    if (query.network) filter.networkId = (await networkSummary(query.network, { publicOnly })).id;
    return filter;
  }

  async function writeNetwork(id: string, values: Parameters<CatalogueRepo['updateNetwork']>[1]): Promise<Network> {
    const updated = await repo.updateNetwork(id, values).catch(rethrowConflict);
    if (!updated) throw notFound('Network');
    return presentNetwork(await networkSummary(id, { publicOnly: false }));
  }

  async function writeStation(id: string, body: Partial<CreateStation>): Promise<Station> {
    if (body.networkId) await requireNetworkField(body.networkId);
    if (body.mountpoint) await requireFreeMountpoint(body.mountpoint, id);
    const updated = await repo.updateStation(id, stationColumns(body)).catch(rethrowConflict);
    if (!updated) throw notFound('Station');
    return getStation(id, { publicOnly: false });
  }

  async function getStation(id: string, options: { publicOnly: boolean }): Promise<Station> {
    const row = await repo.findStation(id, options);
    if (!row) throw notFound('Station');
    return presentStation(row);
  }

  return {
    /** `language`: the reader's (public calls); without it the base texts, as the admin edits them. */
    async listNetworks(options: { publicOnly: boolean; language?: ContentLanguage }): Promise<Network[]> {
      return (await repo.listNetworks(options)).map((row) => presentNetwork(row, options.language));
    },

    async getNetwork(idOrSlug: string, options: { publicOnly: boolean; language?: ContentLanguage }): Promise<Network> {
      return presentNetwork(await networkSummary(idOrSlug, options), options.language);
    },

    async createNetwork(body: CreateNetwork): Promise<Network> {
      const slug = body.slug ?? (await availableSlug(body.name));
      const row = await repo
        .insertNetwork({
          slug,
          name: body.name,
          description: body.description,
          operator: body.operator,
          region: body.region,
          status: body.status,
          is_public: body.isPublic,
          token_price_per_day: body.tokenPricePerDay,
          translations: JSON.stringify(body.translations),
          reference_frame: body.referenceFrame && JSON.stringify(body.referenceFrame),
        })
        .catch(rethrowConflict);
      return presentNetwork(summariseNewNetwork(row));
    },

    async updateNetwork(id: string, body: ReplaceNetwork | PatchNetwork): Promise<Network> {
      return writeNetwork(id, {
        slug: body.slug,
        name: body.name,
        description: body.description,
        operator: body.operator,
        region: body.region,
        status: body.status,
        is_public: body.isPublic,
        token_price_per_day: body.tokenPricePerDay,
        translations: body.translations && JSON.stringify(body.translations),
        reference_frame:
          body.referenceFrame === undefined ? undefined : body.referenceFrame && JSON.stringify(body.referenceFrame),
      });
    },

    /** Takes the network's stations and feeds with it; refused while other modules still refer to it. */
    async deleteNetwork(id: string): Promise<void> {
      const deleted = await repo.deleteNetwork(id).catch((err: unknown) => {
        if (databaseError(err)?.code === '23503') {
          throw catalogueError(
            409,
            'network_in_use',
            'Accounts, grants or subscriptions still refer to this network; retire it instead.',
          );
        }
        throw err;
      });
      if (!deleted) throw notFound('Network');
    },

    async listStations(
      query: StationListQuery,
      options: { publicOnly: boolean },
    ): Promise<StationPage | StationMarkerPage> {
      const filter = await stationFilter(query, options.publicOnly);
      const page = { limit: query.limit, offset: query.offset };
      const total = await repo.countStations(filter);
      if (query.view === 'compact') {
        const rows = await repo.listStationMarkers(filter, page);
        return { view: 'compact', total, ...page, items: rows.map(presentStationMarker) };
      }
      const rows = await repo.listStations(filter, page);
      return { view: 'full', total, ...page, items: rows.map(presentStation) };
    },

    getStation,

    async createStation(body: CreateStation): Promise<Station> {
      await requireNetworkField(body.networkId);
      await requireFreeMountpoint(body.mountpoint);
      const row = await repo
        .insertStation({
          ...stationColumns(body),
          network_id: body.networkId,
          mountpoint: body.mountpoint,
          country: body.country,
          latitude: body.latitude,
          longitude: body.longitude,
        })
        .catch(rethrowConflict);
      return getStation(row.id, { publicOnly: false });
    },

    async updateStation(id: string, body: CreateStation | PatchStation): Promise<Station> {
      return writeStation(id, body);
    },

    async deleteStation(id: string): Promise<void> {
      if (!(await repo.deleteStation(id))) throw notFound('Station');
    },

    /**
     * STR records become stations of the network, matched by mountpoint (case-insensitive). A mountpoint of
     * another network is never moved by an import: that is an explicit edit. Everything is written in one
     * transaction, so a failed import leaves the catalogue as it was.
     */
    async importSourcetable(networkId: string, text: string, dryRun: boolean): Promise<ImportReport> {
      const network = await repo.findNetwork(networkId);
      if (!network) throw notFound('Network');
      const entries = parseSourcetable(text);
      const existing = await repo.findStationsByMountpoints(
        entries.flatMap((e) => ('station' in e ? [e.station.mountpoint] : [])),
      );
      const byName = new Map(existing.map((s) => [s.mountpoint.toLowerCase(), s]));
      const firstLine = new Map<string, number>();
      const lines: ImportLine[] = [];

      const apply = async (r: CatalogueQueries) => {
        for (const entry of entries) {
          if (!('station' in entry)) {
            lines.push({ line: entry.line, mountpoint: entry.mountpoint, outcome: 'skipped', reason: entry.problem });
            continue;
          }
          const { station } = entry;
          const key = station.mountpoint.toLowerCase();
          const earlier = firstLine.get(key);
          if (earlier !== undefined) {
            lines.push({
              line: entry.line,
              mountpoint: station.mountpoint,
              outcome: 'skipped',
              reason: `mountpoint already listed on line ${earlier}`,
            });
            continue;
          }
          firstLine.set(key, entry.line);
          const current = byName.get(key);
          if (current && current.network_id !== network.id) {
            lines.push({
              line: entry.line,
              mountpoint: station.mountpoint,
              outcome: 'skipped',
              reason: `mountpoint belongs to network '${current.network_slug}'`,
            });
            continue;
          }
          const columns = {
            identifier: station.identifier,
            format: station.format,
            format_details: station.formatDetails,
            carrier: station.carrier,
            nav_system: station.navSystem,
            country: station.country,
            latitude: station.latitude,
            longitude: station.longitude,
            bitrate: station.bitrate,
          };
          if (current) {
            // The generator field names the receiver only sometimes; a receiver entered by hand wins.
            const receiver = current.receiver === '' ? station.receiver : current.receiver;
            if (!dryRun) await r.updateStation(current.id, { ...columns, receiver });
          } else if (!dryRun) {
            await r.insertStation({
              ...columns,
              network_id: network.id,
              mountpoint: station.mountpoint,
              receiver: station.receiver,
            });
          }
          lines.push({ line: entry.line, mountpoint: station.mountpoint, outcome: current ? 'updated' : 'created' });
        }
      };
      if (dryRun) await apply(repo);
      else await repo.transaction(apply).catch(rethrowConflict);

      const count = (outcome: ImportLine['outcome']) => lines.filter((l) => l.outcome === outcome).length;
      return { dryRun, created: count('created'), updated: count('updated'), skipped: count('skipped'), lines };
    },
  };
}
