import type { UserInfo } from '@portal/contract';
import { api } from '../../lib/api';

/** Only a signed-in user asks; the schema (and zod) load with the answer, not with the first page. */
export async function fetchUserInfo(): Promise<UserInfo> {
  const [{ data }, { userInfoSchema }] = await Promise.all([api.get('/user'), import('@portal/contract')]);
  return userInfoSchema.parse(data);
}
