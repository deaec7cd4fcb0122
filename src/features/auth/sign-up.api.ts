import type { SignUpPolicy } from '@portal/contract';

/** Whether anyone may sign up or only the invited (public; docs/adr/0033). */
export async function fetchSignUpPolicy(): Promise<SignUpPolicy> {
  const [{ data }, { signUpPolicySchema }] = await Promise.all([
    import('../../lib/api').then(({ api }) => api.get('/sign-up')),
    import('@portal/contract'),
  ]);
  return signUpPolicySchema.parse(data);
}
