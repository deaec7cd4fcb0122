import type { NtripAccount } from '@portal/contract';

/**
 * What the caller may do with the account: everything with their own; with an organisation's, what their role allows
 * (owners and admins change it; the member who holds it renews its password), as the server decides (docs/adr/0026).
 */
export function accountPermissions(account: NtripAccount): { manage: boolean; renewPassword: boolean } {
  const org = account.organization;
  return { manage: org?.canManage ?? true, renewPassword: org?.canRenewPassword ?? true };
}
