import { randomUUID } from 'node:crypto';
import { createFeedBodySchema, nearMountpoint } from '@portal/contract';
import type { Database } from '../db/client.ts';
import { createCatalogueRepo } from '../modules/catalogue/catalogue.repo.ts';
import { createFeedCipher } from '../modules/catalogue/feed-secrets.ts';
import { createFeedsService } from '../modules/catalogue/feeds.service.ts';
import { createNtripAccountsRepo } from '../modules/ntrip-accounts/ntrip-accounts.repo.ts';
import { createUsersRepo } from '../modules/users/users.repo.ts';
import { hashPassword } from '../shared/password-hash.ts';

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
  const catalogue = createCatalogueRepo(db);
  const network = await catalogue.findNetwork(input.network);
  if (!network || network.slug !== input.network || network.status === 'retired') {
    const slugs = (await catalogue.listNetworks({ publicOnly: false }))
      .filter((n) => n.status !== 'retired')
      .map((n) => n.slug)
      .sort();
    throw new OperatorError(`No active network '${input.network}'. Networks: ${slugs.join(', ') || '(none yet)'}`);
  }
  const accounts = createNtripAccountsRepo(db);
  const taken = () => new OperatorError(`The NTRIP username '${input.username}' is taken.`);
  if (await accounts.usernameExists(input.username)) throw taken();

  const passwordHash = await hashPassword(input.password);
  const validUntil = new Date(now.getTime() + input.days * 86_400_000);
  const accountId = await accounts.transaction(async (trx) => {
    const account = await accounts.insert(
      {
        ownerUserId: user.id,
        organizationId: null,
        username: input.username,
        passwordHash,
        label: 'Created by npm run caster',
        maxConnections: 1,
      },
      trx,
    );
    if (!account) throw taken();
    await accounts.insertGrant(
      {
        id: randomUUID(),
        accountId: account.id,
        ownerUserId: user.id,
        organizationId: null,
        networkId: network.id,
        validFrom: now,
        validUntil,
        source: 'manual',
        referenceId: 'cli',
      },
      trx,
    );
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
  const existing = await repo.findFeedOfStation(station.id);
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
