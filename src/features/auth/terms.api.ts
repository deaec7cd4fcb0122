import type { TermsAcceptance } from '@portal/contract';
import { api } from '../../lib/api';

/** Records that the signed-in user accepted the terms; the server keeps the first moment. */
export async function acceptTerms(): Promise<TermsAcceptance> {
  const [{ data }, { termsAcceptanceSchema }] = await Promise.all([
    api.post('/user/terms', { accepted: true }),
    import('@portal/contract'),
  ]);
  return termsAcceptanceSchema.parse(data);
}
