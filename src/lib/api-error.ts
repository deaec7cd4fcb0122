import type { ApiError } from '@portal/contract';
import type { AxiosError } from 'axios';

/**
 * The API's `{code, message}` of a failed call, or undefined when the failure was not an API answer. Apart from
 * lib/api.ts (which re-exports it) so that code in the first load can read a failure without bringing axios.
 */
export function apiError(error: unknown): (ApiError & { status: number }) | undefined {
  const e = error as AxiosError<ApiError>;
  const data = e?.response?.data;
  if (e?.isAxiosError && e.response && data && typeof data.code === 'string') {
    return { ...data, status: e.response.status };
  }
  return undefined;
}
