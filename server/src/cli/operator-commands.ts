import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { feedSecretKeyOf } from '../feed-secret-key.ts';
import { formatArchiveSelection, selectArchiveHours } from '../modules/archive/archive.selection.ts';
import { createUsersRepo } from '../modules/users/users.repo.ts';
import { createAccountWithGrant, OperatorError, setPushFeed } from './operator-actions.ts';

/**
 * The operator commands, run the same way by the CLI on its own database connection and by the running portal for
 * a CLI that found the PGlite directory in use (its control socket, ADR 0016). Nothing else is accepted there.
 */
export const operatorRequest = z.discriminatedUnion('command', [
  z.strictObject({
    command: z.literal('account'),
    email: z.string().min(1),
    username: z.string().min(1),
    password: z.string().min(1),
    network: z.string().min(1),
    days: z.number(),
  }),
  z.strictObject({ command: z.literal('source'), mountpoint: z.string().min(1), password: z.string().min(1) }),
  z.strictObject({ command: z.literal('admin-grant'), email: z.string().min(1), revoke: z.boolean() }),
  z.strictObject({ command: z.literal('migrate') }),
  z.strictObject({
    command: z.literal('archive-hours'),
    station: z.string().min(1),
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
  }),
]);
export type OperatorRequest = z.infer<typeof operatorRequest>;

/** What the command prints: `out` on stdout, `err` on stderr with exit code 1. */
export interface OperatorAnswer {
  out: string[];
  err: string[];
}

type OperatorConfig = Pick<
  Config,
  'CASTER_PUBLIC_HOST' | 'PUBLIC_URL' | 'CASTER_PORT' | 'FEED_SECRET_KEY' | 'DATABASE_URL' | 'PGLITE_DATA_DIR'
>;

export async function runOperatorCommand(
  db: Database,
  config: OperatorConfig,
  request: OperatorRequest,
): Promise<OperatorAnswer> {
  const casterHost = config.CASTER_PUBLIC_HOST ?? new URL(config.PUBLIC_URL).hostname;
  const applied = await migrate(db);
  try {
    switch (request.command) {
      case 'migrate':
        return { out: [applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.'], err: [] };
      case 'admin-grant': {
        const users = createUsersRepo(db);
        const user = await users.findByEmail(request.email);
        if (!user)
          return { out: [], err: [`No user with e-mail ${request.email}. They must log in to the portal once first.`] };
        await users.setAdmin(user.id, !request.revoke);
        return { out: [`${request.email} is ${request.revoke ? 'no longer an admin' : 'now an admin'}.`], err: [] };
      }
      case 'account': {
        const { command: _, ...input } = request;
        const created = await createAccountWithGrant(db, input);
        return {
          out: [
            `NTRIP account '${created.username}' (id ${created.accountId}) for ${created.email}`,
            `  access to network '${created.network}' until ${created.validUntil.toISOString()} (manual grant)`,
            `  nearest-station mountpoint: ${created.nearMountpoint} (send GGA)`,
            `  try: str2str -in ntrip://${created.username}:PASSWORD@${casterHost}:${config.CASTER_PORT}/${created.nearMountpoint} -out file://out.rtcm3`,
          ],
          err: [],
        };
      }
      case 'archive-hours': {
        // `rinex archive` asks for this when the portal owns the PGlite directory; it reads the lines back.
        const selection = await selectArchiveHours(db, request.station, new Date(request.from), new Date(request.to));
        if (!selection) return { out: [], err: [`No station with mountpoint '${request.station}' in the catalogue.`] };
        return { out: formatArchiveSelection(selection), err: [] };
      }
      case 'source': {
        const feed = await setPushFeed(
          db,
          { mountpoint: request.mountpoint, password: request.password },
          feedSecretKeyOf(config),
        );
        return {
          out: [
            `${feed.created ? 'Created' : 'Updated'} the push feed of ${feed.mountpoint} (feed id ${feed.feedId})`,
            `  base station: str2str -in file://capture.rtcm3 -out ntrips://:PASSWORD@${casterHost}:${config.CASTER_PORT}/${feed.mountpoint}`,
          ],
          err: [],
        };
      }
    }
  } catch (err) {
    if (err instanceof OperatorError || (err instanceof Error && 'statusCode' in err))
      return { out: [], err: [err.message] };
    throw err;
  }
}
