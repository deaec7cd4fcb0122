import type { SignUpPolicy } from '@portal/contract';
import { answer } from '../../lib/answer';

/** Whether anyone may sign up or only the invited (public; docs/adr/0033). */
export async function fetchSignUpPolicy(): Promise<SignUpPolicy> {
  const { api } = await import('../../lib/api');
  return answer('signUpPolicySchema', (await api.get('/sign-up')).data);
}
