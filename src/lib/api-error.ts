import type { ApiError, ErrorCode } from '@portal/contract';
import type { AxiosError } from 'axios';

/**
 * The API's `{code, message}` of a failed call, or undefined when the failure was not an API answer. Apart from
 * lib/api.ts (which re-exports it) so that code in the first load can read a failure without bringing axios. The
 * code is typed as the contract's `ErrorCode` (the server's AppError sends no other), so a page that compares it
 * with a code the API never sends does not compile.
 */
export function apiError(error: unknown): (ApiError & { code: ErrorCode; status: number }) | undefined {
  const e = error as AxiosError<ApiError>;
  const data = e?.response?.data;
  if (e?.isAxiosError && e.response && data && typeof data.code === 'string') {
    return { ...data, code: data.code as ErrorCode, status: e.response.status };
  }
  return undefined;
}

/**
 * The words for an account action that failed: a 403 is a permission the caller's role lacks (an organisation's plain
 * member), which trying again would not change; anything else may pass on a second try.
 */
export function actionFailedKey(error: unknown): 'noPermission' | 'actionFailed' {
  return apiError(error)?.status === 403 ? 'noPermission' : 'actionFailed';
}
