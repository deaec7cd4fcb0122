import { type UserInfo, userInfoSchema } from '@portal/contract';
import { api } from '../../lib/api';

export async function fetchUserInfo(): Promise<UserInfo> {
  const { data } = await api.get('/user');
  return userInfoSchema.parse(data);
}
