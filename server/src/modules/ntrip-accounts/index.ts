import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { createNtripAccountsRepo } from './ntrip-accounts.repo.ts';
import { ntripAccountsRoutes } from './ntrip-accounts.routes.ts';
import {
  type AccessChangeListener,
  type ConnectionTestSettings,
  createNtripAccountsService,
  type LiveConnections,
  type NtripAccountsService,
  type OrganizationTokenSpender,
  type TokenSpender,
} from './ntrip-accounts.service.ts';

export type { CasterAddress } from './connection-test.ts';
export type {
  AccessChangeListener,
  AccessChangeReason,
  ConnectionTestSettings,
  LiveConnections,
  TokenSpender,
} from './ntrip-accounts.service.ts';

export interface NtripAccountsOptions {
  ledger: TokenSpender;
  /** The organisations' tokens, which pay for their accounts' activations. */
  organizationLedger?: OrganizationTokenSpender;
  /** The ntrip module's cache invalidation (and the caster's disconnect of what is no longer allowed). */
  access?: AccessChangeListener;
  /** The running caster's connection count per account. */
  live?: LiveConnections;
  /** Where the connection test reaches the caster; without it the test answers caster_unreachable. */
  connectionTest?: ConnectionTestSettings;
  clock?: () => Date;
}

export interface NtripAccountsModule {
  service: NtripAccountsService;
  routes: FastifyPluginAsync;
}

export function createNtripAccountsModule(db: Database, options: NtripAccountsOptions): NtripAccountsModule {
  const service = createNtripAccountsService({ repo: createNtripAccountsRepo(db), ...options });
  return { service, routes: ntripAccountsRoutes(service) as FastifyPluginAsync };
}
