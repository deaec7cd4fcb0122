import type { UserInfo } from '@portal/contract';
import { answer } from '../../lib/answer';

/** Only a signed-in user asks; axios loads with the answer, not with the first page. */
export async function fetchUserInfo(): Promise<UserInfo> {
  const { api } = await import('../../lib/api');
  return answer('userInfoSchema', (await api.get('/user')).data);
}
