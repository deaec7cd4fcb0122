import type { TermsAcceptance } from '@portal/contract';

/**
 * Records that the signed-in user accepted the terms; the server keeps the first moment. `version`: the one the
 * user was shown (the server refuses when a newer one was published meanwhile).
 */
export async function acceptTerms(version?: number | null): Promise<TermsAcceptance> {
  // The terms dialog is in the shell; axios comes with its one call.
  const [{ data }, { termsAcceptanceSchema }] = await Promise.all([
    import('../../lib/api').then(({ api }) => api.post('/user/terms', { accepted: true, ...(version && { version }) })),
    import('@portal/contract'),
  ]);
  return termsAcceptanceSchema.parse(data);
}
