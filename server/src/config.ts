import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { resolveBrand } from '@portal/contract/brand';
import { z } from 'zod';

/** Relative paths mean the folder npm was started in (INIT_CWD), so `npm run -w server …` finds the same files. */
const path = z.string().transform((p) => (isAbsolute(p) ? p : resolve(process.env.INIT_CWD ?? process.cwd(), p)));

const services = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(['api', 'caster'])).min(1));

/** 32 random bytes, base64: `openssl rand -base64 32`. */
export function isFeedSecretKey(value: string): boolean {
  return Buffer.from(value, 'base64').length === 32 && /^[A-Za-z0-9+/]+={0,2}$/.test(value);
}

const feedSecretKey = z.string().trim().refine(isFeedSecretKey, {
  message: 'must be 32 bytes in base64 (openssl rand -base64 32)',
});

/**
 * The key every start without FEED_SECRET_KEY used until issue 31. Anyone with this repository can read it and
 * sign connection-test logins and RINEX links with it, so no start accepts it (docs/adr/0050-no-published-secret.md).
 */
export const DEV_FEED_SECRET_KEY = 'ZGV2LW9ubHktZmVlZC1zZWNyZXQta2V5LTMyYnl0ZXM=';

/** An empty value in .env (`STRIPE_SECRET_KEY=`) means unset. */
const unsetIfEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

/**
 * firebase-admin reads its credentials only when it first needs them (deleting a user), so a wrong path or a
 * broken file would only show then; read it at start instead.
 */
const credentialsFile = path.refine(
  (file) => {
    try {
      return typeof JSON.parse(readFileSync(file, 'utf8')).type === 'string';
    } catch {
      return false;
    }
  },
  { message: 'must name a readable Google credentials JSON file (a service-account key)' },
);

/** An address, a CIDR range, or one of proxy-addr's names for the private ranges. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * The proxies whose X-Forwarded-For the API believes: addresses, CIDR ranges and proxy-addr's names, comma
 * separated, or a hop count. Trusting every hop would let any client name its own address (and so its own rate
 * limit), so `true` is refused.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (/^\d+$/.test(value) && Number(value) > 0) return Number(value);
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const bad = entries.find((entry) => !isProxyAddress(entry));
    if (entries.length && bad === undefined) return entries;
    ctx.addIssue({
      code: 'custom',
      message: `${bad ?? value} is not a proxy address, CIDR range, loopback/linklocal/uniquelocal or hop count`,
    });
    return z.NEVER;
  });

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  SERVICES: services.default(['api', 'caster']),
  DATABASE_URL: unsetIfEmpty(z.string().url().optional()),
  // prefault, not default: zod's default is the parsed value and would skip the path transform (server/data/db).
  PGLITE_DATA_DIR: z.union([z.literal('memory://'), path]).prefault('./data/db'),
  STATIC_DIR: path.optional(),
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
  FIREBASE_PROJECT_ID: z.string().min(1).default('demo-gnss-portal'),
  FIREBASE_AUTH_EMULATOR_HOST: z.string().optional(),
  GOOGLE_APPLICATION_CREDENTIALS: unsetIfEmpty(credentialsFile.optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** API requests a minute per address without a verified token, and per signed-in account (ADR 0015). */
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: z.coerce.number().int().positive().default(300),
  RATE_LIMIT_SIGNED_IN_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  /** API requests a minute per API key (docs/adr/0078). */
  RATE_LIMIT_API_KEY_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /**
   * Webhooks may be delivered to loopback and private addresses (docs/adr/0079): for tests and local development
   * only; production refuses to start with it (a customer's webhook URL must never reach the portal's own network).
   */
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Unset: no proxy is trusted, each request's address is its socket's. */
  TRUST_PROXY: unsetIfEmpty(trustProxy.optional()),
  // Payments: the offline sandbox unless Stripe is configured (docs/adr/0005-billing.md).
  PAYMENT_PROVIDER: unsetIfEmpty(z.enum(['sandbox', 'stripe']).optional()),
  STRIPE_SECRET_KEY: unsetIfEmpty(
    z
      .string()
      .regex(/^(sk|rk)_(test|live)_\w+$/, 'a Stripe secret or restricted key (sk_… / rk_…)')
      .optional(),
  ),
  STRIPE_WEBHOOK_SECRET: unsetIfEmpty(
    z
      .string()
      .regex(/^whsec_\w+$/, 'a Stripe webhook signing secret (whsec_…)')
      .optional(),
  ),
  FEED_SECRET_KEY: unsetIfEmpty(feedSecretKey.optional()),
  // NTRIP caster (docs/adr/0003-caster.md).
  CASTER_PORT: z.coerce.number().int().min(0).max(65535).default(2101),
  /** The host name rovers use; shown in the sourcetable's CAS record. Defaults to PUBLIC_URL's host. */
  CASTER_PUBLIC_HOST: unsetIfEmpty(z.string().min(1).optional()),
  /**
   * Where an API process without its own caster reaches one for the accounts' connection test (on CASTER_PORT);
   * an API that runs the caster itself uses it directly.
   */
  CASTER_INTERNAL_HOST: z.string().min(1).default('127.0.0.1'),
  CASTER_BUS_URL: unsetIfEmpty(
    z
      .string()
      .regex(
        /^(nats|tls):\/\/[^\s]+$/,
        "a NATS server address such as nats://127.0.0.1:4222, or a cluster's, comma separated",
      )
      .optional(),
  ),
  /**
   * The balancers (addresses or CIDR ranges, comma separated) whose PROXY protocol header (v1 or v2) names the
   * rover's address; a header from anyone else is refused. Unset: every PROXY header is refused.
   */
  CASTER_TRUSTED_PROXIES: unsetIfEmpty(
    z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(
            z.string().refine((entry) => isIP(entry.split('/')[0] ?? '') > 0 && isProxyAddress(entry), {
              message: 'an address or CIDR range',
            }),
          )
          .min(1),
      )
      .optional(),
  ),
  /**
   * NTRIP over TLS (issue 38, ADR 0076): the certificate (PEM, leaf first, then its chain) and private key (PEM)
   * files, both or neither; neither serves no TLS port (a balancer may terminate TLS instead). Reloaded when the
   * files change and on SIGHUP, without dropping a connection.
   */
  CASTER_TLS_CERT: unsetIfEmpty(z.string().min(1).optional()),
  CASTER_TLS_KEY: unsetIfEmpty(z.string().min(1).optional()),
  /** The TLS ports, comma separated: 2102 by default, 443 too for networks that pass nothing else (`2102,443`). */
  CASTER_TLS_PORTS: z
    .string()
    .default('2102')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
        .map(Number),
    )
    .pipe(z.array(z.number().int().min(0).max(65535)).min(1)),
  /** How long a drained caster node (SIGUSR2) takes to close its rovers, so they reconnect elsewhere a few at a time. */
  CASTER_DRAIN_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /**
   * JetStream copies of what the nodes keep on CASTER_BUS_URL's NATS (the connection ledger, the archive and its
   * leases): 3 on a NATS cluster of three, so one NATS server stopped loses nothing (ADR 0073); at most the
   * cluster's size.
   */
  CASTER_BUS_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /** Names this caster process on the bus; a random id per start when unset. */
  CASTER_NODE_ID: unsetIfEmpty(z.string().min(1).max(64).optional()),
  /** `false` writes frames rover by rover through Node instead of one io_uring call per frame (ADR 0013). */
  CASTER_IO_URING: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * Threads that share the io_uring sends of each frame, the caster's event loop included (ADR 0094); unset: 2, or 1
   * on a single core.
   */
  CASTER_FANOUT_THREADS: unsetIfEmpty(z.coerce.number().int().min(1).max(16).optional()),
  /**
   * The plain NTRIP port served from the caster's native I/O thread, rovers without a Node Socket each
   * (docs/adr/0095-native-rover-transport.md); `false` serves it through Node, as it is where the addon is missing.
   */
  CASTER_NATIVE_IO: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Failed NTRIP logins (docs/adr/0015-login-throttling.md): free wrong passwords per address and name … */
  CASTER_FAILED_LOGINS_PER_PAIR: z.coerce.number().int().min(1).default(5),
  /** … the longest lock of such a pair, doubling from one second … */
  CASTER_FAILED_LOGIN_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).default(60),
  /** … wrong passwords a minute for one name, past which only addresses that failed for it are refused … */
  CASTER_FAILED_LOGINS_PER_NAME: z.coerce.number().int().min(1).default(50),
  /** … and for one address across all names, the ceiling against credential stuffing. */
  CASTER_FAILED_LOGINS_PER_IP: z.coerce.number().int().min(1).default(300),
  /** A station is online while a valid RTCM frame arrived within this many seconds (issue 17). */
  STATION_ONLINE_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  // RTCM archive (docs/adr/0020-rtcm-archive.md).
  /** `local` (ARCHIVE_DIR), `nats` (the NATS of CASTER_BUS_URL) or `off`; unset: nats with a bus, local without. */
  ARCHIVE_STORE: unsetIfEmpty(z.enum(['local', 'nats', 'off']).optional()),
  ARCHIVE_DIR: path.prefault('./data/archive'),
  /** The portal's e-mail (docs/adr/0025-mail.md): smtp://user:pass@host:587 or smtps://…; unset keeps it in the outbox. */
  SMTP_URL: unsetIfEmpty(
    z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'an SMTP server address such as smtp://user:password@mail.example.com:587')
      .optional(),
  ),
  /** Outage alerts (docs/adr/0070): a station out of order for less than this many seconds is not announced. */
  STATION_ALERT_GRACE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** How often the API looks for station incidents to announce or close. */
  STATION_ALERT_CHECK_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  /** The sender; by default the brand's name at no-reply@ PUBLIC_URL's host. */
  MAIL_FROM: unsetIfEmpty(z.string().min(3).optional()),
  /** The brand the build was made for (contract/src/brand/brands.ts); the mails carry its name, logo and colours. */
  VITE_BRAND: unsetIfEmpty(z.string().optional()),
  /** Finished RINEX jobs' zips, kept 7 days for download (docs/adr, RINEX in the portal). */
  RINEX_RESULTS_DIR: path.prefault('./data/rinex'),
  /** The JetStream object store (and the names of its tail stream and lease bucket) on CASTER_BUS_URL's NATS. */
  ARCHIVE_NATS_BUCKET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ (at most 64)')
    .default('rtcm-archive'),
});

/** FEED_SECRET_KEY is only what is configured; feedSecretKeyOf (feed-secret-key.ts) says which key a start uses. */
export type Config = z.infer<typeof configSchema>;

/** The archive store a configuration names, defaults applied. */
export function archiveStoreOf(config: Pick<Config, 'ARCHIVE_STORE' | 'CASTER_BUS_URL'>): 'local' | 'nats' | 'off' {
  return config.ARCHIVE_STORE ?? (config.CASTER_BUS_URL ? 'nats' : 'local');
}

/** Stripe when PAYMENT_PROVIDER says so or, unset, when a secret key is configured; the sandbox otherwise. */
export function paymentProviderOf(config: {
  PAYMENT_PROVIDER?: 'sandbox' | 'stripe' | undefined;
  STRIPE_SECRET_KEY?: string | undefined;
}): 'sandbox' | 'stripe' {
  return config.PAYMENT_PROVIDER ?? (config.STRIPE_SECRET_KEY ? 'stripe' : 'sandbox');
}

/**
 * Settings that are right for a demo and wrong for customers: each lets someone in or gives something away, so
 * production refuses to start with them, naming every one at once, instead of warning.
 */
function unsafeProductionSettings(config: z.infer<typeof configSchema>): string[] {
  const unsafe: string[] = [];
  if (config.FIREBASE_AUTH_EMULATOR_HOST) {
    unsafe.push(
      'FIREBASE_AUTH_EMULATOR_HOST: the Auth Emulator accepts unsigned tokens and its published demo accounts; unset it in production',
    );
  }
  if (config.SEED_DEMO)
    unsafe.push('SEED_DEMO: creates demo accounts with published passwords; unset it in production');
  if (config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES) {
    unsafe.push(
      "WEBHOOK_ALLOW_PRIVATE_ADDRESSES: lets customers' webhooks reach the portal's own network; unset it in production",
    );
  }
  if (!config.FEED_SECRET_KEY) unsafe.push('FEED_SECRET_KEY: required in production (openssl rand -base64 32)');
  // The API mails invitation links, receipts and access notices; without SMTP they would sit in the outbox while
  // the portal tells people the mail went out. The caster alone sends no mail.
  if (!config.SMTP_URL && config.SERVICES.includes('api')) {
    unsafe.push(
      'SMTP_URL: required in production (smtp://user:password@mail.example.com:587): without it invitations, receipts and notices are never delivered',
    );
  }
  if (paymentProviderOf(config) === 'sandbox') {
    unsafe.push(
      'PAYMENT_PROVIDER: the sandbox (PAYMENT_PROVIDER=sandbox, or no STRIPE_SECRET_KEY) hands out tokens and subscriptions for a test card; configure Stripe in production',
    );
  }
  return unsafe;
}

/**
 * The settings that connect this start to real users, money or mail. With any of them the key that signs
 * connection-test logins and RINEX links must be configured, the same for the API and every caster.
 */
function realCredentials(config: z.infer<typeof configSchema>): string[] {
  return [
    !config.FIREBASE_PROJECT_ID.startsWith('demo-') && 'FIREBASE_PROJECT_ID',
    config.GOOGLE_APPLICATION_CREDENTIALS && 'GOOGLE_APPLICATION_CREDENTIALS',
    config.STRIPE_SECRET_KEY && 'STRIPE_SECRET_KEY',
    config.STRIPE_WEBHOOK_SECRET && 'STRIPE_WEBHOOK_SECRET',
    config.SMTP_URL && 'SMTP_URL',
  ].filter((name): name is string => typeof name === 'string');
}

/** A published key in FEED_SECRET_KEY, or none where real credentials are configured: what is wrong, or null. */
function feedSecretKeyProblem(config: z.infer<typeof configSchema>): string | null {
  if (config.FEED_SECRET_KEY === DEV_FEED_SECRET_KEY) {
    return 'FEED_SECRET_KEY: is the built-in development key, published with the code; unset it (a development start makes its own) or generate one (openssl rand -base64 32)';
  }
  const real = realCredentials(config);
  if (config.FEED_SECRET_KEY || !real.length || config.NODE_ENV === 'production') return null;
  return `FEED_SECRET_KEY: required with real credentials (${real.join(', ')}); generate one (openssl rand -base64 32) and give the API and every caster the same`;
}

/**
 * Adds `.env` of the folder npm was started from (the repository root) to the process environment, under what
 * the environment already sets: copying .env.example to .env configures `npm start`, the server and the CLIs alike.
 */
export function loadDotEnv(dir = process.env.INIT_CWD ?? process.cwd()): void {
  const file = resolve(dir, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
}

/**
 * Parses the environment once at boot; a bad value stops the process with the variable named. Without an explicit
 * environment it reads the process's, with `.env` under it.
 */
export function loadConfig(env?: NodeJS.ProcessEnv): Config {
  if (env === undefined) loadDotEnv();
  const parsed = configSchema.safeParse(env ?? process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (
    config.NODE_ENV === 'production' &&
    config.FIREBASE_PROJECT_ID.startsWith('demo-') &&
    !config.FIREBASE_AUTH_EMULATOR_HOST
  ) {
    throw new Error('Invalid configuration:\n  FIREBASE_PROJECT_ID: a real Firebase project is required in production');
  }
  if (config.FIREBASE_AUTH_EMULATOR_HOST && !config.FIREBASE_PROJECT_ID.startsWith('demo-')) {
    // firebase-admin then accepts unsigned tokens: anyone could sign in as anyone of a real project.
    throw new Error(
      'Invalid configuration:\n  FIREBASE_AUTH_EMULATOR_HOST: the Auth Emulator accepts unsigned tokens; use it only with a demo- project id',
    );
  }
  const keyProblem = feedSecretKeyProblem(config);
  const unsafe = [
    ...(config.NODE_ENV === 'production' ? unsafeProductionSettings(config) : []),
    ...(keyProblem ? [keyProblem] : []),
  ];
  if (unsafe.length) throw new Error(`Invalid configuration:\n${unsafe.map((line) => `  ${line}`).join('\n')}`);
  if (paymentProviderOf(config) === 'stripe' && !config.STRIPE_SECRET_KEY) {
    throw new Error('Invalid configuration:\n  STRIPE_SECRET_KEY: required when PAYMENT_PROVIDER=stripe');
  }
  if (config.NODE_ENV === 'production' && paymentProviderOf(config) === 'stripe' && !config.STRIPE_WEBHOOK_SECRET) {
    throw new Error('Invalid configuration:\n  STRIPE_WEBHOOK_SECRET: required with Stripe in production');
  }
  if (!config.CASTER_TLS_CERT !== !config.CASTER_TLS_KEY) {
    throw new Error(
      `Invalid configuration:\n  ${config.CASTER_TLS_CERT ? 'CASTER_TLS_KEY' : 'CASTER_TLS_CERT'}: the TLS port needs both the certificate and the key file`,
    );
  }
  if (config.ARCHIVE_STORE === 'nats' && !config.CASTER_BUS_URL) {
    throw new Error(
      'Invalid configuration:\n  ARCHIVE_STORE: nats keeps the archive on the NATS of CASTER_BUS_URL; set it',
    );
  }
  try {
    resolveBrand(config.VITE_BRAND);
  } catch (err) {
    throw new Error(`Invalid configuration:\n  VITE_BRAND: ${(err as Error).message}`);
  }
  if (config.SEED_DEMO && !config.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new Error('Invalid configuration:\n  SEED_DEMO: demo accounts are only created in the Auth Emulator');
  }
  return config;
}
