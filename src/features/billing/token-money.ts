import type { PricingTable } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useFormat } from '../../lib/format';
import { fetchTokenProducts } from './billing.api';
import { billingKeys } from './billing.keys';

export interface TokenPack {
  tokens: number;
  /** Minor units. */
  amount: number;
  currency: string;
}

/** The token packs on sale, in the currency of the first (a brand sells in one), fewest tokens first. */
export function tokenPacks(tables: PricingTable[]): TokenPack[] {
  const packs = tables
    .flatMap((table) => table.data)
    .filter((p) => p.type === 'Token' && (p.creditsAmount ?? 0) > 0)
    .map((p) => ({ tokens: p.creditsAmount ?? 0, amount: p.amount, currency: p.currency }));
  const currency = packs[0]?.currency;
  return packs.filter((p) => p.currency === currency).sort((a, b) => a.tokens - b.tokens);
}

/**
 * What a number of tokens costs in money (minor units), at the lowest and the highest price per token of the packs:
 * a bigger pack makes a token cheaper, so a price in tokens is a range in money.
 */
export function tokensInMoney(
  packs: TokenPack[],
  tokens: number,
): { low: number; high: number; currency: string } | undefined {
  const first = packs[0];
  if (!first) return undefined;
  const rates = packs.map((p) => p.amount / p.tokens);
  return {
    low: Math.round(Math.min(...rates) * tokens),
    high: Math.round(Math.max(...rates) * tokens),
    currency: first.currency,
  };
}

/** `GET /tokenProducts`: the token packs, public (issue 32), so prices show in money before sign-up too. */
export function useTokenProducts() {
  return useQuery({ queryKey: billingKeys.tokenProducts, queryFn: fetchTokenProducts, staleTime: 60_000 });
}

/**
 * Tokens written as money: `€1.00`, or `€0.80–€1.00` where the packs' prices per token differ; undefined while the
 * packs load or when none is on sale.
 */
export function useTokenMoney() {
  const products = useTokenProducts();
  const format = useFormat();
  const packs = tokenPacks(products.data ?? []);
  return {
    packs,
    money(tokens: number): string | undefined {
      const price = tokensInMoney(packs, tokens);
      if (!price) return undefined;
      const low = format.money(price.low, price.currency);
      return price.low === price.high ? low : `${low}–${format.money(price.high, price.currency)}`;
    },
  };
}
