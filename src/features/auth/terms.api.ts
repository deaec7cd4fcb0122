import { type TermsAcceptance, termsAcceptanceSchema } from '@portal/contract';
import { api } from '../../lib/api';

/** Records that the signed-in user accepted the terms; the server keeps the first moment. */
export async function acceptTerms(): Promise<TermsAcceptance> {
  const { data } = await api.post('/user/terms', { accepted: true });
  return termsAcceptanceSchema.parse(data);
}
