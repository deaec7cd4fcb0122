import type { TermsAcceptance } from '@portal/contract';
import { answer } from '../../lib/answer';

/**
 * Records that the signed-in user accepted the terms; the server keeps the first moment. `version`: the one the
 * user was shown (the server refuses when a newer one was published meanwhile).
 */
export async function acceptTerms(version?: number | null): Promise<TermsAcceptance> {
  // The terms dialog is in the shell; axios comes with its one call.
  const { api } = await import('../../lib/api');
  const { data } = await api.post('/user/terms', { accepted: true, ...(version && { version }) });
  return answer('termsAcceptanceSchema', data);
}
