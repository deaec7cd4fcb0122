/**
 * Confirms a VAT number with a registry (the EU's VIES, HMRC, …). Pluggable: the portal ships none that reaches the
 * internet, so without one every number stays unverified until an admin confirms it by hand (docs/adr/0061).
 */
export interface VatVerifier {
  readonly name: string;
  /** `valid`/`invalid` when the registry answered; `unavailable` when it could not be asked (nothing is decided). */
  verify(country: string, vatNumber: string): Promise<'valid' | 'invalid' | 'unavailable'>;
}

/** No registry is configured: numbers are verified by an admin. */
export const noVatRegistry: VatVerifier = {
  name: 'none',
  verify: async () => 'unavailable',
};
