import { randomUUID } from 'node:crypto';
import type { createFeedBodySchema, Feed, FeedPage, feedListQuerySchema, patchFeedBodySchema } from '@portal/contract';
import type { Updateable } from 'kysely';
import type { z } from 'zod';
import type { FeedsTable } from '../../db/schema.ts';
import { badRequest, notFound } from '../../shared/errors.ts';
import { hashPassword } from '../../shared/password-hash.ts';
import { presentFeed } from './catalogue.presenters.ts';
import type { CatalogueRepo, FeedFilter } from './catalogue.repo.ts';
import { catalogueError, rethrowConflict } from './catalogue.service.ts';
import type { FeedCipher } from './feed-secrets.ts';

type CreateFeed = z.output<typeof createFeedBodySchema>;
type PatchFeed = z.output<typeof patchFeedBodySchema>;
type FeedListQuery = z.output<typeof feedListQuerySchema>;

const PULL_FIELDS = [
  'upstreamHost',
  'upstreamPort',
  'upstreamMountpoint',
  'upstreamUsername',
  'upstreamPassword',
  'upstreamNtripVersion',
] as const;

export type FeedsService = ReturnType<typeof createFeedsService>;

export function createFeedsService(deps: { repo: CatalogueRepo; cipher: FeedCipher }) {
  const { repo, cipher } = deps;

  async function getFeed(id: string): Promise<Feed> {
    const row = await repo.findFeed(id);
    if (!row) throw notFound('Feed');
    return presentFeed(row);
  }

  /** The owner's user id; null for none (an empty or null e-mail); refused when no account has the address. */
  async function ownerOf(email: string | null): Promise<string | null> {
    if (!email) return null;
    const id = await repo.findOwnerByEmail(email);
    if (!id) {
      throw catalogueError(
        400,
        'owner_not_found',
        'No active portal account has this e-mail address; the owner signs up first.',
        'ownerEmail',
      );
    }
    return id;
  }

  /** An empty upstream password means the upstream caster asks for none. */
  const sealPassword = (password: string, feedId: string) =>
    password === '' ? null : cipher.encrypt(password, feedId);

  return {
    async listFeeds(query: FeedListQuery): Promise<FeedPage> {
      const filter: FeedFilter = { kind: query.kind };
      if (query.enabled !== undefined) filter.enabled = query.enabled === 'true';
      if (query.network) {
        const network = await repo.findNetwork(query.network);
        if (!network) throw notFound(`Network '${query.network}'`);
        filter.networkId = network.id;
      }
      const page = { limit: query.limit, offset: query.offset };
      const [total, rows] = [await repo.countFeeds(filter), await repo.listFeeds(filter, page)];
      return { total, ...page, items: rows.map(presentFeed) };
    },

    getFeed,

    async createFeed(body: CreateFeed): Promise<Feed> {
      const station = await repo.findStation(body.stationId, { publicOnly: false });
      if (!station) throw badRequest('validation_failed', 'No station has this id.', 'stationId');
      const id = randomUUID();
      const common = {
        id,
        network_id: station.network_id,
        station_id: station.id,
        enabled: body.enabled,
        owner_user_id: await ownerOf(body.ownerEmail ?? null),
      };
      const values =
        body.kind === 'push'
          ? { ...common, kind: 'push' as const, source_password_hash: await hashPassword(body.sourcePassword) }
          : {
              ...common,
              kind: 'pull' as const,
              upstream_host: body.upstreamHost,
              upstream_port: body.upstreamPort,
              upstream_mountpoint: body.upstreamMountpoint,
              upstream_username: body.upstreamUsername,
              upstream_password_enc: sealPassword(body.upstreamPassword, id),
              upstream_ntrip_version: body.upstreamNtripVersion,
            };
      await repo.insertFeed(values).catch(rethrowConflict);
      return getFeed(id);
    },

    async updateFeed(id: string, body: PatchFeed): Promise<Feed> {
      const current = await repo.findFeed(id);
      if (!current) throw notFound('Feed');
      const foreign =
        current.kind === 'push'
          ? PULL_FIELDS.find((f) => body[f] !== undefined)
          : body.sourcePassword !== undefined
            ? 'sourcePassword'
            : undefined;
      if (foreign) {
        throw catalogueError(
          400,
          'feed_kind_mismatch',
          `A ${current.kind} feed has no ${foreign}; delete it and create a feed of the other kind instead.`,
          foreign,
        );
      }
      const values: Updateable<FeedsTable> = {
        enabled: body.enabled,
        upstream_host: body.upstreamHost,
        upstream_port: body.upstreamPort,
        upstream_mountpoint: body.upstreamMountpoint,
        upstream_username: body.upstreamUsername,
        upstream_ntrip_version: body.upstreamNtripVersion,
      };
      if (body.ownerEmail !== undefined) values.owner_user_id = await ownerOf(body.ownerEmail);
      if (body.sourcePassword !== undefined) values.source_password_hash = await hashPassword(body.sourcePassword);
      if (body.upstreamPassword !== undefined) values.upstream_password_enc = sealPassword(body.upstreamPassword, id);
      await repo.updateFeed(id, values);
      return getFeed(id);
    },

    async deleteFeed(id: string): Promise<void> {
      if (!(await repo.deleteFeed(id))) throw notFound('Feed');
    },
  };
}
