import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { createAccountWithGrant, OperatorError, setPushFeed } from '../modules/ntrip/ntrip.admin.ts';
import { openOperatorDatabase } from './database.ts';

const USAGE = `Usage:
  npm run caster -- account --email E --username U --password P --network SLUG [--days N]
      an NTRIP account for the portal user with e-mail E, with a manual grant on network SLUG for N days (30)
  npm run caster -- source --mountpoint M --password P
      the push feed of catalogue station M, with source password P (or a new password for its push feed)`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
if (command !== 'account' && command !== 'source') fail(command ? `Unknown command '${command}'.` : 'No command.');

let values: Record<string, string | undefined>;
try {
  values = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      network: { type: 'string' },
      days: { type: 'string' },
      mountpoint: { type: 'string' },
    },
    strict: true,
  }).values;
} catch (err) {
  fail((err as Error).message);
}
const required = command === 'account' ? ['email', 'username', 'password', 'network'] : ['mountpoint', 'password'];
const missing = required.filter((name) => !values[name]);
if (missing.length) fail(`Missing ${missing.map((m) => `--${m}`).join(', ')}.`);

const config = loadConfig();
const handle = await openOperatorDatabase(config);
const casterHost = config.CASTER_PUBLIC_HOST ?? new URL(config.PUBLIC_URL).hostname;
try {
  await migrate(handle.db);
  if (command === 'account') {
    const days = values.days === undefined ? 30 : Number(values.days);
    const created = await createAccountWithGrant(handle.db, {
      email: values.email as string,
      username: values.username as string,
      password: values.password as string,
      network: values.network as string,
      days,
    });
    console.log(`NTRIP account '${created.username}' (id ${created.accountId}) for ${created.email}`);
    console.log(`  access to network '${created.network}' until ${created.validUntil.toISOString()} (manual grant)`);
    console.log(`  nearest-station mountpoint: ${created.nearMountpoint} (send GGA)`);
    console.log(
      `  try: str2str -in ntrip://${created.username}:PASSWORD@${casterHost}:${config.CASTER_PORT}/${created.nearMountpoint} -out file://out.rtcm3`,
    );
  } else {
    const feed = await setPushFeed(
      handle.db,
      { mountpoint: values.mountpoint as string, password: values.password as string },
      config.FEED_SECRET_KEY,
    );
    console.log(`${feed.created ? 'Created' : 'Updated'} the push feed of ${feed.mountpoint} (feed id ${feed.feedId})`);
    console.log(
      `  base station: str2str -in file://capture.rtcm3 -out ntrips://:PASSWORD@${casterHost}:${config.CASTER_PORT}/${feed.mountpoint}`,
    );
  }
} catch (err) {
  if (err instanceof OperatorError) {
    console.error(err.message);
    process.exitCode = 1;
  } else if (err instanceof Error && 'statusCode' in err) {
    console.error(err.message);
    process.exitCode = 1;
  } else {
    throw err;
  }
} finally {
  await handle.close();
}
