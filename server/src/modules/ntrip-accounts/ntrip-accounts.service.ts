import { createActivation } from './ntrip-accounts.activation.ts';
import { createAdminAccounts } from './ntrip-accounts.admin.ts';
import { createAccountsCore, type NtripAccountsServiceDeps } from './ntrip-accounts.core.ts';
import { createOwnAccounts } from './ntrip-accounts.own.ts';

export type {
  AccessChangeListener,
  AccessChangeReason,
  ConnectionTestSettings,
  LiveConnections,
  NtripAccountsServiceDeps,
  OrganizationTokenSpender,
  TokenSpender,
} from './ntrip-accounts.core.ts';

export type NtripAccountsService = ReturnType<typeof createNtripAccountsService>;

/** The module's use cases, one file each (own accounts, activation, back office), over one shared core. */
export function createNtripAccountsService(deps: NtripAccountsServiceDeps) {
  const core = createAccountsCore(deps);
  return {
    ...createOwnAccounts(core),
    ...createActivation(core),
    ...createAdminAccounts(core),
  };
}
