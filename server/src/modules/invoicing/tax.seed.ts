import { sql } from 'kysely';
import type { Database } from '../../db/client.ts';

/**
 * The demo operator: a fictional Dutch company (the `.example` domain is reserved, the VAT number only has the
 * Dutch format), so the demo's invoices carry a seller as a real one would (issue 32).
 */
export const DEMO_SELLER = {
  seller_legal_name: 'Meridian RTK B.V.',
  seller_address_line1: 'Kanaalweg 17',
  seller_postal_code: '2628 EB',
  seller_city: 'Delft',
  seller_vat_number: 'NL859327614B01',
  seller_email: 'billing@meridian-rtk.example',
} as const;

/** Standard VAT rates of the EU member states in basis points, as in force in 2026. */
export const EU_STANDARD_RATES_BP: Readonly<Record<string, number>> = {
  AT: 2000,
  BE: 2100,
  BG: 2000,
  CY: 1900,
  CZ: 2100,
  DE: 1900,
  DK: 2500,
  EE: 2400,
  ES: 2100,
  FI: 2550,
  FR: 2000,
  GR: 2400,
  HR: 2500,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LT: 2100,
  LU: 1700,
  LV: 2100,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SE: 2500,
  SI: 2200,
  SK: 2300,
};

/**
 * Fills in the demo seller's empty fields and the missing EU rates, at every start: a demo database seeded before
 * the seller existed gets it, and nothing an admin set is overwritten. Once an admin saved the tax settings, a rate
 * they removed stays removed (rates are only added then when there are none at all).
 */
export async function seedDemoSeller(db: Database): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const settings = await trx.selectFrom('tax_settings').selectAll().forUpdate().executeTakeFirstOrThrow();
    const empty = Object.fromEntries(
      Object.entries(DEMO_SELLER).filter(([column]) => !settings[column as keyof typeof DEMO_SELLER]?.trim()),
    );
    // The address is one block: a street from the demo beside a city an admin typed would be no address at all.
    const addressEmpty = !settings.seller_address_line1.trim() && !settings.seller_city.trim();
    if (!addressEmpty) {
      for (const column of ['seller_address_line1', 'seller_postal_code', 'seller_city'] as const) delete empty[column];
    }
    if (Object.keys(empty).length > 0) {
      await trx.updateTable('tax_settings').set(empty).execute();
    }
    const rates = await trx
      .selectFrom('tax_rates')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    if (settings.updated_by && Number(rates.n) > 0) return;
    await trx
      .insertInto('tax_rates')
      .values(Object.entries(EU_STANDARD_RATES_BP).map(([country, rate_bp]) => ({ country, rate_bp })))
      .onConflict((oc) => oc.column('country').doNothing())
      .execute();
  });
}
