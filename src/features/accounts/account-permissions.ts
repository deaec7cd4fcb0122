import type { NtripAccount } from '@portal/contract';
import { apiError } from '../../lib/api-error';

/**
 * What the caller may do with the account: everything with their own; with an organisation's, what their role allows
 * (owners and admins change it; the member who holds it renews its password), as the server decides (docs/adr/0026).
 */
export function accountPermissions(account: NtripAccount): { manage: boolean; renewPassword: boolean } {
  const org = account.organization;
  return { manage: org?.canManage ?? true, renewPassword: org?.canRenewPassword ?? true };
}

/**
 * The words for an account action that failed: a 403 is a permission the caller's role lacks (an organisation's plain
 * member), which trying again would not change; anything else may pass on a second try.
 */
export function actionFailedKey(error: unknown): 'noPermission' | 'actionFailed' {
  return apiError(error)?.status === 403 ? 'noPermission' : 'actionFailed';
}
