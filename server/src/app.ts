import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import type { LiveTelemetry } from '@portal/caster';
import { resolveBrand } from '@portal/contract/brand';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Database } from './db/client.ts';
import { processFeedSecretKey } from './feed-secret-key.ts';
import { registerAuth } from './http/auth.ts';
import { frameworkErrors, registerErrorHandling, sendRouteNotFound } from './http/errors.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { registerNulByteGuard } from './http/nul-bytes.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { registerSecurityHeaders, spaContentSecurityPolicy } from './http/security-headers.ts';
import { spaDocuments } from './http/spa-document.ts';
import { createAccountDeletionModule } from './modules/account-deletion/index.ts';
import { createApiKeysModule, registerApiKeyAudit, registerIdempotency } from './modules/api-keys/index.ts';
import { auditRoutes, createAuditor, createAuditRepo } from './modules/audit/index.ts';
import { type BillingOptions, createBillingModule, createLedger } from './modules/billing/index.ts';
import { createCatalogueModule } from './modules/catalogue/index.ts';
import { createDemoModule } from './modules/demo/index.ts';
import { createDocumentsModule } from './modules/documents/index.ts';
import { createMailModule, type MailOptions } from './modules/mail/index.ts';
import { createMetaModule, registerCrawlerFiles } from './modules/meta/index.ts';
import {
  type CasterAddress,
  createNtripAccountsModule,
  type NtripAccountsOptions,
} from './modules/ntrip-accounts/index.ts';
import { createNtripDiagnosticsModule } from './modules/ntrip-diagnostics/index.ts';
import { createOperatorModule } from './modules/operator/index.ts';
import { createOrganizationsModule } from './modules/organizations/index.ts';
import { createRinexModule, type RinexOptions } from './modules/rinex/index.ts';
import { createSettingsModule, createSignUpGate } from './modules/settings/index.ts';
import { createStatusModule } from './modules/status/index.ts';
import { createUsersModule } from './modules/users/index.ts';
import { createWebhooksModule, type WebhookOptions } from './modules/webhooks/index.ts';
import type { IdentityVerifier } from './shared/identity.ts';

export interface AppDeps {
  db: Database;
  verifier: IdentityVerifier;
  /** The built SPA; when set, every non-API GET that is not a file answers index.html (client-side routes). */
  staticDir?: string;
  anonymousRequestsPerMinute?: number;
  signedInRequestsPerMinute?: number;
  /** Requests a minute made with one API key (issue 37); 600 unless a test changes it. */
  apiKeyRequestsPerMinute?: number;
  logger?: FastifyServerOptions['logger'];
  /** The portal's secret (base64): feedSecretKeyOf(config); tests without one share a random key per process. */
  feedSecretKey?: string;
  /** Payment provider and its settings; the offline sandbox when omitted. */
  billing?: BillingOptions;
  /** NTRIP accounts: the caster side's access-change listener and live connection counts (both optional). */
  ntripAccounts?: Pick<NtripAccountsOptions, 'access' | 'live' | 'clock'> & {
    /** Where the connection test reaches the caster (issue 17); without it the test says it cannot. */
    caster?: CasterAddress;
    /** How long a connection test listens; 10 s unless a test shortens it. */
    connectionTestMs?: number;
  };
  /** The caster nodes' live sessions and base stations, for the diagnostics pages (issue 17); none when absent. */
  live?: LiveTelemetry;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For is believed (addresses/ranges or a hop count); none when unset. */
  trustProxy?: string[] | number | undefined;
  /** Production: send Strict-Transport-Security. */
  strictTransportSecurity?: boolean;
  /** PUBLIC_URL: the portal's address in links and URLs the API makes, never taken from request headers. */
  publicUrl?: string;
  /** RINEX jobs: the archive store they read, where results go, the runner's settings. */
  rinex?: RinexOptions;
  /** The portal's e-mail (SMTP_URL, brand, sender); without SMTP it is kept in the outbox (docs/adr/0025-mail.md). */
  mail?: MailOptions;
  /** The status page: its clock (tests move it) and how long one computed answer is reused (30 s by default). */
  status?: { clock?: () => Date; cacheMs?: number };
  /**
   * Webhook deliveries (issue 37). `allowPrivateAddresses` (WEBHOOK_ALLOW_PRIVATE_ADDRESSES) lets them reach loopback
   * and private networks: tests only, never in production (SSRF).
   */
  webhooks?: WebhookOptions;
}

export const API_PREFIX = '/api';

/** Only a process that is not in production may do without the configured key (tests). */
function devFeedSecretKey(): string {
  if (process.env.NODE_ENV === 'production') throw new Error('buildApp: feedSecretKey is required in production');
  return processFeedSecretKey();
}

/** Fastify takes a hop count at run time but its types do not: the same rule as a function. */
function trustedProxies(
  setting: AppDeps['trustProxy'],
): string[] | boolean | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting ?? false;
}

/** Builds the portal API without listening, so tests drive it with inject() and main.ts decides the port. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: trustedProxies(deps.trustProxy),
    bodyLimit: 1024 * 1024,
    requestTimeout: 30_000,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerJsonBodyParser(app);
  registerNulByteGuard(app);
  const spaRoot = deps.staticDir && resolve(deps.staticDir);
  const spaIndex = spaRoot && resolve(spaRoot, 'index.html');
  const spaServed = spaIndex && existsSync(spaIndex);
  registerSecurityHeaders(app, {
    apiPrefix: API_PREFIX,
    spaPolicy: spaServed ? spaContentSecurityPolicy(readFileSync(spaIndex, 'utf8')) : undefined,
    strictTransportSecurity: deps.strictTransportSecurity ?? false,
  });
  // The coverage map loads every station in one answer (1.8 MB of JSON for 10,000): gzip makes it a fifth of that,
  // brotli a sixth. Small answers are not worth the CPU.
  await app.register(compress, { threshold: 1024 });

  await app.register(swagger, {
    openapi: {
      info: { title: 'GNSS correction portal API', version: '1.0.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'Firebase ID token' },
          apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'API key (gnk_…), docs/machine-access.md' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  // The OpenAPI document says which operations take an API key, with which scope, and which an Idempotency-Key.
  app.addHook('onRoute', (route) => {
    const scope = route.config?.apiKey;
    const idempotent = route.config?.idempotent;
    if (!scope && !idempotent) return;
    route.schema = {
      ...route.schema,
      ...(scope && { 'x-api-key-scope': scope, security: [{ bearer: [] }, { apiKey: [] }] }),
      ...(idempotent && { 'x-idempotency-key': true }),
    };
  });
  app.decorate('audit', createAuditor(deps.db));
  const publicUrl = deps.publicUrl ?? 'http://localhost:8080';
  const feedSecretKey = deps.feedSecretKey ?? devFeedSecretKey();
  // Modules are built from the bottom of the layer graph up (docs/architecture.md): each is handed the narrowed
  // interfaces of the ones below it.
  const users = createUsersModule({ db: deps.db, publicUrl });
  // The one binding that waits: an organisation's webhooks are managed by its owners and admins, and the
  // organisations module is built below, after the mail that the webhooks hear of.
  const webhooks = createWebhooksModule(deps.db, deps.webhooks ?? {}, app.log.child({ module: 'webhooks' }), {
    roleOf: (orgId, userId) => organizations.service.roleOf(orgId, userId),
  });
  const mail = createMailModule(
    deps.db,
    {
      secretKey: feedSecretKey,
      publicUrl,
      log: app.log.child({ module: 'mail' }),
      // Each notice becomes an event for the person's webhooks.
      observe: webhooks.fromNotice,
      events: webhooks.recorder.record,
    },
    deps.mail,
  );
  app.addHook('onClose', () => webhooks.worker.close());
  app.addHook('onClose', () => mail.close());
  const ledger = createLedger(deps.db, mail.notices.balance);
  const { caster, connectionTestMs, ...ntripAccountOptions } = deps.ntripAccounts ?? {};
  const organizations = createOrganizationsModule({
    db: deps.db,
    publicUrl,
    mailer: mail.mailer,
    tokens: ledger,
    access: ntripAccountOptions.access,
  });
  const apiKeys = createApiKeysModule({ db: deps.db, app, ports: { roleOf: organizations.service.roleOf } });
  registerAuth(app, {
    verifier: deps.verifier,
    users: users.repo,
    apiKeys: apiKeys.service,
    signUp: createSignUpGate(organizations.service.invitedToSignUp),
  });
  const billing = createBillingModule({
    db: deps.db,
    organizations: organizations.service,
    ...deps.billing,
    ledger,
    notices: mail.notices.billing,
    log: app.log.child({ module: 'billing' }),
  });
  const ntripAccounts = createNtripAccountsModule({
    db: deps.db,
    ledger,
    organizationLedger: organizations.ledger,
    ...ntripAccountOptions,
    // The one-time login is signed with the key the caster's authorizer derives the same way (ntrip.probe.ts).
    connectionTest: caster && { caster, feedSecretKey, durationMs: connectionTestMs },
  });
  const demo = createDemoModule({ db: deps.db });
  const accountDeletion = createAccountDeletionModule({
    db: deps.db,
    identity: deps.verifier,
    users: users.deletion,
    organizations: organizations.deletion,
    ntripAccounts: ntripAccounts.deletion,
    demo: demo.deletion,
    billing: billing.service,
  });

  const rinex = createRinexModule(
    deps.db,
    {
      ledger,
      organizations: organizations.service,
      secretKey: feedSecretKey,
      publicUrl,
      log: app.log.child({ module: 'rinex' }),
      finished: mail.notices.rinexReady,
    },
    deps.rinex,
  );
  rinex.runner.start();
  app.addHook('onClose', () => rinex.runner.close());
  const catalogue = createCatalogueModule({ db: deps.db, feedSecretKey });

  await app.register(
    async (api) => {
      await registerRateLimit(api, {
        anonymousPerMinute: deps.anonymousRequestsPerMinute ?? 300,
        signedInPerMinute: deps.signedInRequestsPerMinute ?? 1200,
        apiKeyPerMinute: deps.apiKeyRequestsPerMinute ?? 600,
      });
      registerIdempotency(api, deps.db);
      registerApiKeyAudit(api);
      // Before every route below: a disabled organisation's members are refused its /org/:orgId calls.
      api.addHook('preHandler', organizations.disabledGuard);
      api.get('/docs/json', { schema: { hide: true } }, async () => app.swagger());
      await api.register(createMetaModule({ db: deps.db }).routes);
      await api.register(users.routes({ teamsOf: organizations.service.teams }));
      await api.register(organizations.routes);
      await api.register(accountDeletion.routes);
      await api.register(apiKeys.routes);
      await api.register(webhooks.routes);
      await api.register(
        users.adminRoutes({
          billing: billing.service.customerBilling,
          organizations: organizations.service.teamsOfUser,
          ntripAccounts: ntripAccounts.service.accountsOfCustomer,
          invoices: (userId) => billing.invoicing.listInvoices({ userId }),
          billingDetails: (userId) => billing.invoicing.detailsOf(userId),
        }),
      );
      await api.register(auditRoutes(createAuditRepo(deps.db)));
      await api.register(
        organizations.adminRoutes({
          subscriptionsOf: billing.service.adminOrganizationSubscriptions,
          accountsOf: ntripAccounts.service.accountsOfOrganization,
        }),
      );
      await api.register(billing.routes);
      await api.register(catalogue.routes);
      await api.register(demo.routes);
      await api.register(ntripAccounts.routes);
      await api.register(rinex.routes);
      await api.register(mail.routes);
      await api.register(createNtripDiagnosticsModule({ db: deps.db, live: deps.live }).routes);
      await api.register(createSettingsModule({ db: deps.db }).routes);
      await api.register(createDocumentsModule({ db: deps.db }).routes);
      await api.register(createOperatorModule({ db: deps.db, live: deps.live }).routes);
      await api.register(catalogue.integrityRoutes);
      await api.register(
        createStatusModule({
          db: deps.db,
          clock: deps.status?.clock ?? (() => new Date()),
          cacheMs: deps.status?.cacheMs ?? 30_000,
          publicUrl,
          brandName: resolveBrand(deps.mail?.brand).name,
        }).routes,
      );
      api.setNotFoundHandler(sendRouteNotFound);
    },
    { prefix: API_PREFIX },
  );

  if (spaRoot && spaServed) {
    registerCrawlerFiles(app, publicUrl);
    const sendSpaDocument = spaDocuments(spaRoot);
    await app.register(fastifyStatic, {
      root: spaRoot,
      wildcard: false,
      // '/' too is the document with the reader's texts in it (spaDocuments), not the file as built.
      index: false,
      setHeaders: (reply, path) => {
        // Vite fingerprints everything under assets/; the rest (index.html, locales) must revalidate.
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.setNotFoundHandler((request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return sendRouteNotFound(request, reply);
      return sendSpaDocument(request, reply);
    });
  } else {
    app.setNotFoundHandler(sendRouteNotFound);
  }
  return app;
}
