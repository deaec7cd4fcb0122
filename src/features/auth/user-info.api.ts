import type { UserInfo } from '@portal/contract';

/** Only a signed-in user asks; axios, the schema and zod load with the answer, not with the first page. */
export async function fetchUserInfo(): Promise<UserInfo> {
  const [data, { userInfoSchema }] = await Promise.all([
    import('../../lib/api').then(async ({ api }) => (await api.get('/user')).data),
    import('@portal/contract'),
  ]);
  return userInfoSchema.parse(data);
}
