import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { runOperator } from './database.ts';

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
const days = values.days === undefined ? 30 : Number(values.days);
if (!Number.isFinite(days)) fail('--days: a whole number of days from 1 to 3650');
await runOperator(
  config,
  command === 'account'
    ? {
        command,
        email: values.email as string,
        username: values.username as string,
        password: values.password as string,
        network: values.network as string,
        days,
      }
    : { command, mountpoint: values.mountpoint as string, password: values.password as string },
);
