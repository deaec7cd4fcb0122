import { isEuCountry } from '@portal/contract';

/** What tax applies to a sale, decided from the seller's settings and the buyer's billing details (pure). */
export interface TaxRules {
  sellerCountry: string;
  pricesIncludeTax: boolean;
  reverseCharge: boolean;
  /** Basis points per buyer country. */
  rates: ReadonlyMap<string, number>;
}

export interface TaxBuyer {
  country: string | null;
  vatNumber: string | null;
  /** The VAT number was confirmed (a registry or an admin); a number only well-formed is charged VAT. */
  vatVerified: boolean;
}

export interface TaxQuote {
  /** The country whose rate applies (null: none known, the seller's country is used). */
  country: string;
  rateBp: number;
  reverseCharge: boolean;
  net: number;
  tax: number;
  gross: number;
}

/**
 * The rate for a buyer: an EU business with a verified VAT number in another member state than the seller pays no
 * tax here (reverse charge, the buyer accounts for it); everyone else pays the rate of their country, or of the
 * seller's country when they gave none. An unverified number is charged like a consumer: the seller owes the VAT
 * when a number turns out to be false. A country without a configured rate is not taxed (sales outside the
 * seller's tax area).
 */
export function taxTreatment(
  rules: TaxRules,
  buyer: TaxBuyer,
): { country: string; rateBp: number; reverseCharge: boolean } {
  const country = buyer.country ?? rules.sellerCountry;
  if (
    rules.reverseCharge &&
    buyer.vatNumber &&
    buyer.vatVerified &&
    isEuCountry(country) &&
    isEuCountry(rules.sellerCountry) &&
    country !== rules.sellerCountry
  ) {
    return { country, rateBp: 0, reverseCharge: true };
  }
  return { country, rateBp: rules.rates.get(country) ?? 0, reverseCharge: false };
}

/** Splits a gross amount into net and tax; rounding lands on the tax, so net + tax is always the gross. */
export function splitGross(gross: number, rateBp: number): { net: number; tax: number } {
  const net = Math.round((gross * 10_000) / (10_000 + rateBp));
  return { net, tax: gross - net };
}

/**
 * A product's price as charged to this buyer. With prices including tax the price is the gross (the seller's
 * margin absorbs a different rate or a reverse charge: the customer pays the shown price); otherwise tax is
 * added on top.
 */
export function quoteTax(rules: TaxRules, buyer: TaxBuyer, price: number): TaxQuote {
  const treatment = taxTreatment(rules, buyer);
  if (rules.pricesIncludeTax) {
    return { ...treatment, gross: price, ...splitGross(price, treatment.rateBp) };
  }
  const tax = Math.round((price * treatment.rateBp) / 10_000);
  return { ...treatment, net: price, tax, gross: price + tax };
}
