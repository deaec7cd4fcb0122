import { createFeedBodySchema, nearMountpoint } from '@portal/contract';
import type { Database } from '../../db/client.ts';
import { hashPassword } from '../../shared/password-hash.ts';
import { createCatalogueRepo } from '../catalogue/catalogue.repo.ts';
import { createFeedCipher } from '../catalogue/feed-secrets.ts';
import { createFeedsService } from '../catalogue/feeds.service.ts';
import { createUsersRepo } from '../users/users.repo.ts';

/** Operator actions behind `npm run caster -- …`: an account with a manual grant, and a push feed. */

export class OperatorError extends Error {}

const USERNAME = /^[A-Za-z0-9._@+-]{3,64}$/;
const PASSWORD = /^[\x21-\x7e]{8,128}$/;

export interface CreatedAccount {
  accountId: string;
  username: string;
  email: string;
  network: string;
  nearMountpoint: string;
  validUntil: Date;
}

export async function createAccountWithGrant(
  db: Database,
  input: { email: string; username: string; password: string; network: string; days: number },
  now = new Date(),
): Promise<CreatedAccount> {
  if (!USERNAME.test(input.username)) {
    throw new OperatorError('--username: 3 to 64 letters, digits or . _ @ + - (no spaces or colons)');
  }
  if (!PASSWORD.test(input.password)) throw new OperatorError('--password: 8 to 128 printable characters, no spaces');
  if (!Number.isInteger(input.days) || input.days < 1 || input.days > 3650) {
    throw new OperatorError('--days: a whole number of days from 1 to 3650');
  }
  const user = await createUsersRepo(db).findByEmail(input.email);
  if (!user) throw new OperatorError(`No user with e-mail ${input.email}. They must log in to the portal once first.`);
  const network = await db
    .selectFrom('networks')
    .select(['id', 'slug', 'status'])
    .where('slug', '=', input.network)
    .executeTakeFirst();
  if (!network || network.status === 'retired') {
    const slugs = await db
      .selectFrom('networks')
      .select('slug')
      .where('status', '<>', 'retired')
      .orderBy('slug')
      .execute();
    throw new OperatorError(
      `No active network '${input.network}'. Networks: ${slugs.map((s) => s.slug).join(', ') || '(none yet)'}`,
    );
  }
  const taken = await db
    .selectFrom('ntrip_accounts')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['username']), '=', input.username.toLowerCase()))
    .executeTakeFirst();
  if (taken) throw new OperatorError(`The NTRIP username '${input.username}' is taken.`);

  const passwordHash = await hashPassword(input.password);
  const validUntil = new Date(now.getTime() + input.days * 86_400_000);
  const accountId = await db.transaction().execute(async (trx) => {
    const account = await trx
      .insertInto('ntrip_accounts')
      .values({
        owner_user_id: user.id,
        username: input.username,
        password_hash: passwordHash,
        label: 'Created by npm run caster',
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('access_grants')
      .values({
        account_id: account.id,
        owner_user_id: user.id,
        network_id: network.id,
        valid_from: now,
        valid_until: validUntil,
        source: 'manual',
        reference_id: 'cli',
      })
      .execute();
    return account.id;
  });
  return {
    accountId,
    username: input.username,
    email: input.email,
    network: network.slug,
    nearMountpoint: nearMountpoint(network.slug),
    validUntil,
  };
}

export interface CreatedSourceFeed {
  feedId: string;
  mountpoint: string;
  created: boolean;
}

/** Creates the push feed of a catalogue station, or sets a new password on the one it has. */
export async function setPushFeed(
  db: Database,
  input: { mountpoint: string; password: string },
  feedSecretKey: string,
): Promise<CreatedSourceFeed> {
  const repo = createCatalogueRepo(db);
  const [station] = await repo.findStationsByMountpoints([input.mountpoint]);
  if (!station) throw new OperatorError(`No station with mountpoint '${input.mountpoint}' in the catalogue.`);
  const feeds = createFeedsService({ repo, cipher: createFeedCipher(feedSecretKey) });
  const existing = await db
    .selectFrom('feeds')
    .select(['id', 'kind'])
    .where('station_id', '=', station.id)
    .executeTakeFirst();
  if (existing?.kind === 'pull') {
    throw new OperatorError(`${station.mountpoint} is fed by a pull feed; delete it in the admin pages first.`);
  }
  const parsed = createFeedBodySchema.safeParse({
    kind: 'push',
    stationId: station.id,
    sourcePassword: input.password,
  });
  if (!parsed.success) {
    throw new OperatorError(`--password: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  if (existing) {
    await feeds.updateFeed(existing.id, { sourcePassword: input.password, enabled: true });
    return { feedId: existing.id, mountpoint: station.mountpoint, created: false };
  }
  const feed = await feeds.createFeed(parsed.data);
  return { feedId: feed.id, mountpoint: station.mountpoint, created: true };
}
