import type { TermsAcceptance } from '@portal/contract';

/** Records that the signed-in user accepted the terms; the server keeps the first moment. */
export async function acceptTerms(): Promise<TermsAcceptance> {
  // The terms dialog is in the shell; axios comes with its one call.
  const [{ data }, { termsAcceptanceSchema }] = await Promise.all([
    import('../../lib/api').then(({ api }) => api.post('/user/terms', { accepted: true })),
    import('@portal/contract'),
  ]);
  return termsAcceptanceSchema.parse(data);
}
